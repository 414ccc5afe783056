"""The doctor's options, parsed here and nowhere else (the command line and the TUI's command
field both call `parse`; the worker receives them as a typed DoctorJob):

    [OPTIONS] SCRIPT [ARGS...] [--json] [--timeout S] [--nans] [-- SCRIPT-ARGS...]
    [OPTIONS] -m MODULE [ARGS...] ...                        (as `python -m MODULE`)

The tutor's own options (`--accelerator`, `--home DIR`, `--lang en|zh`) are the tutor's wherever
they stand before `--`: before SCRIPT, right after it, among its arguments (`doctor s.py
--accelerator --epochs 3`); a script that takes an option of one of those names gets it after
`--` (`doctor s.py -- --lang fr`). The doctor's other options (`--json`, `--timeout S`,
`--nans`) may stand before SCRIPT, or after the script's arguments as the last words
(the form docs/CONTRACTS.md gives); one of them followed by a word of the script's is the script's (`doctor s.py
--nans drop` gives the script `--nans drop`). Everything after `--` is the script's, whatever it
looks like.

A word after SCRIPT is never taken from the script silently: when the script itself declares an
option of the same name (argparse / click `"--nans"`, absl `DEFINE_*("nans", ...)`), the words
are ambiguous and refused (bad usage) with both ways to write them: the doctor's before SCRIPT,
the script's after `--`. docs/CONTRACTS.md's contract (`doctor SCRIPT [ARGS...] [--json] [--timeout S]
[--nans]`) stands for every script that does not take such an option, which is where no word
can be meant for the script: its parser would refuse it.

`--accelerator` and `--home` choose the tutor's sandbox: the command line reads them
(`parse(words, tutor_options=True)`); the TUI's command field, whose sandbox is already made,
refuses them with a sentence saying where they go.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tutor.doctor import notebook
from tutor.errors import TutorError
from tutor.i18n import LANGS, Bilingual, table
from tutor.paths import typed_folder

# A learner's training script, instrumented, on a CPU: minutes are normal. 15 minutes lets a
# real but small run finish, yet a script that hangs does not hold a worker for hours; a longer
# run takes --timeout, and Ctrl+C or the limit still print what was seen so far.
DEFAULT_TIMEOUT_S = 900.0


@dataclass(frozen=True)
class Option:
    """One of the doctor's own options: its name, its value's name (None for a flag), its help."""

    name: str
    value: str | None
    help: str


OPTIONS = (
    Option("--json", None, "print one JSON object (the script's output inside)"),
    Option("--timeout", "S", f"seconds before the script is stopped (default {DEFAULT_TIMEOUT_S:.0f})"),
    Option("--nans", None, "also stop at the first NaN / inf and name its operation"),
    Option("--lang", "en|zh", "language of the report"),
)
# The tutor's options the command line takes after `doctor` too (their help is cli.py's): read
# anywhere before `--`, with `--lang` of OPTIONS.
TUTOR_OPTIONS = (
    Option("--accelerator", None, "let the script use the GPU/TPU"),
    Option("--home", "DIR", "the tutor's folder"),
)
ANYWHERE = ("--accelerator", "--home", "--lang")
_BY_NAME = {o.name: o for o in (*OPTIONS, *TUTOR_OPTIONS)}

MSG = table(
    {
        "no_script": {
            "en": "give the Python script to run (doctor SCRIPT [ARGS...]).",
            "zh": "请给出要运行的 Python 脚本（doctor 脚本 [参数...]）。",
        },
        "empty_folder": {
            "en": "{option}: an empty word names no folder (it would be the current one); write the folder's path.",
            "zh": "{option}：空字符串不是任何文件夹（会被当成当前文件夹）；请写出文件夹的路径。",
        },
        "needs_value": {"en": "{option} needs a value ({value}).", "zh": "{option} 后面要写一个值（{value}）。"},
        "bad_timeout": {
            "en": "--timeout needs a number of seconds above 0 and at most 604800 (a week), not {value!r}.",
            "zh": "--timeout 后面要写一个大于 0、不超过 604800（一周）的秒数，而不是 {value!r}。",
        },
        "bad_lang": {
            "en": "--lang takes en or zh, not {value!r} (a --lang of your script's goes after --).",
            "zh": "--lang 只能是 en 或 zh，而不是 {value!r}（脚本自己的 --lang 请写在 -- 之后）。",
        },
        "flag_value": {
            "en": "{option} takes no value (a {option} of your script's goes after --: doctor SCRIPT -- {word}).",
            "zh": "{option} 不带值（脚本自己的 {option} 请写在 -- 之后：doctor 脚本 -- {word}）。",
        },
        "tutor_only": {
            "en": "{option} is an option of the tutor, not of a run: start the tutor with it "
            "(jaxstate-tutor {option} ...); a {option} of your script's goes after --.",
            "zh": "{option} 是 jaxstate-tutor 本身的选项，不是单次运行的：启动时写上它（jaxstate-tutor {option} ...）；"
            "脚本自己的 {option} 请写在 -- 之后。",
        },
        "unknown": {
            "en": "{option} is not an option of doctor; the script's own options go after SCRIPT (or after --).",
            "zh": "{option} 不是 doctor 的选项；脚本自己的选项写在脚本之后（或 -- 之后）。",
        },
        "ambiguous": {
            "en": "{option} after the script is ambiguous: {script} takes a {option} option of its own. For "
            "the doctor's, put it before the script (doctor {option} {script} ...); for the script's, after "
            "-- (doctor {script} -- {option} ...).",
            "zh": "脚本之后的 {option} 有歧义：{script} 自己也有 {option} 选项。要给 doctor，请写在脚本之前"
            "（doctor {option} {script} ...）；要给脚本，请写在 -- 之后（doctor {script} -- {option} ...）。",
        },
        "missing": {"en": "{path} does not exist.", "zh": "{path} 不存在。"},
        "folder": {
            "en": "{path} is a folder; give the Python script to run (e.g. {path}/train.py).",
            "zh": "{path} 是一个文件夹；请给出要运行的 Python 脚本（例如 {path}/train.py）。",
        },
        "not_py": {
            "en": "{path} is not a Python script (.py) or a notebook (.ipynb); doctor runs those.",
            "zh": "{path} 不是 Python 脚本（.py）或笔记本（.ipynb）；doctor 只运行这两种文件。",
        },
        "bad_notebook": {
            "en": "{path} cannot be read as a notebook ({why}).",
            "zh": "{path} 无法作为笔记本读取（{why}）。",
        },
        "no_module": {
            "en": "-m needs the name of a module to run as a script (doctor -m package.module).",
            "zh": "-m 后面要写一个作为脚本运行的模块名（doctor -m 包.模块）。",
        },
    }
)


class OptionsError(TutorError):
    """Words the doctor cannot run: bad usage (exit 2 on the command line), said in both languages."""

    def __init__(self, message: Bilingual):
        super().__init__(message, exit_code=2)


def _error(key: str, **fields) -> OptionsError:
    return OptionsError(Bilingual(zh=MSG.say(key, "zh", **fields), en=MSG.say(key, "en", **fields)))


@dataclass(frozen=True)
class DoctorOptions:
    """One doctor run as asked for: the script, its own arguments, the doctor's options."""

    script: Path  # with `module`: the module's name, shown as the script's
    args: tuple[str, ...] = ()
    timeout_s: float = DEFAULT_TIMEOUT_S
    nans: bool = False
    json: bool = False
    lang: str | None = None  # None: the tutor's language
    module: str | None = None  # `doctor -m MODULE`: run as `python -m MODULE` would
    accelerator: bool = False  # the tutor's --accelerator, met among the doctor's words
    home: Path | None = None  # the tutor's --home, met among the doctor's words


# A week: longer than any run or poll anyone means, and far below what the timers of the OS and
# of the worker can hold (`--timeout 1e12` overflowed the worker's own timer; `watch --interval
# 1e10` overflowed time.sleep).
MAX_SECONDS = 7 * 24 * 3600


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0 and at most MAX_SECONDS; ValueError otherwise (nan,
    inf, 0, negatives, words, 1e12)."""
    value = float(text)
    if not math.isfinite(value) or value <= 0 or value > MAX_SECONDS:
        raise ValueError(f"not a number of seconds above 0 and at most {MAX_SECONDS}: {text!r}")
    return value


def parse(words: Sequence[str], tutor_options: bool = False) -> DoctorOptions:
    """SCRIPT (or -m MODULE), its arguments and the doctor's options from the words after
    `doctor`; OptionsError if they do not make a run. `tutor_options`: the caller (the command
    line) takes `--accelerator` and `--home` too; otherwise they are an error, not the script's."""
    words = list(words)
    own: dict[str, str | bool] = {}
    i = _take_options(words, 0, own, before_script=True)
    module: str | None = None
    script: str | None = None
    dashed = i < len(words) and words[i] == "--"  # `doctor [OPTIONS] -- SCRIPT ARGS...`: all the script's
    if dashed:
        i += 1
    elif i < len(words) and words[i] == "-m":
        if i + 1 >= len(words) or not words[i + 1] or words[i + 1].startswith("-"):
            raise _error("no_module")
        module = words[i + 1]
        i += 2
    if module is None:
        if i >= len(words):
            raise _error("no_script")
        script = words[i]
        i += 1
    rest = words[i:]
    if dashed:
        args = rest
    else:  # everything after a `--` is the script's; the doctor's may end the words before it
        cut = rest.index("--") if "--" in rest else len(rest)
        after: dict[str, str | bool] = {}  # what the doctor takes from the words after SCRIPT
        before = _tutor_options(rest[:cut], after)  # the tutor's, wherever they stand before `--`
        tail = _trailing_options(before, after)
        args = before[: len(before) - tail] + rest[cut + 1 :]
        if after and script is not None:
            _refuse_shared_names(Path(script).expanduser(), after)
        own.update(after)
    if not tutor_options:
        for name in ("--accelerator", "--home"):
            if name in own:
                raise _error("tutor_only", option=name)
    return DoctorOptions(
        Path(module) if module is not None else Path(str(script)).expanduser(),
        tuple(args),
        timeout_s=_seconds(own["--timeout"]) if "--timeout" in own else DEFAULT_TIMEOUT_S,
        nans=bool(own.get("--nans", False)),
        json=bool(own.get("--json", False)),
        lang=_lang(own["--lang"]) if "--lang" in own else None,
        module=module,
        accelerator=bool(own.get("--accelerator", False)),
        home=_home(str(own["--home"])) if "--home" in own else None,
    )


def _home(text: str) -> Path:
    try:
        return typed_folder(text).expanduser()
    except ValueError:
        raise _error("empty_folder", option="--home") from None


def _refuse_shared_names(script: Path, taken: dict) -> None:
    """OptionsError if the script declares an option the doctor took from the words after it."""
    declared = declared_options(script)
    for name in taken:
        if name in declared:
            value = _BY_NAME[name].value
            raise _error("ambiguous", option=name + (f" {value}" if value else ""), script=script.name)


def declared_options(script: Path) -> set[str]:
    """The `--names` a script declares for its own command line, read from its source without
    running it: a string constant that is exactly a long option (argparse, click, typer), and the
    first argument of an absl / gflags `DEFINE_*` call. Empty if it cannot be read."""
    try:
        if script.suffix == notebook.SUFFIX:
            source = notebook.read(str(script), ipython=False).source
        elif script.suffix == ".py" and script.is_file():
            source = script.read_text(encoding="utf-8", errors="replace")
        else:
            return set()
        tree = ast.parse(source)
    except (OSError, ValueError, SyntaxError, notebook.NotANotebook):
        return set()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("--"):
            found.add(node.value.partition("=")[0])
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called.startswith("DEFINE") and isinstance(node.args[0].value, str):
                found.add("--" + node.args[0].value)
    return found


def _one_option(words: list[str], i: int) -> tuple[str, str | bool, int] | None:
    """The doctor option at words[i] as (name, value, words it takes), or None if it is not one."""
    name, eq, value = words[i].partition("=")
    option = _BY_NAME.get(name)
    if option is None or (option.value is None and eq):
        return None
    if option.value is None:
        return name, True, 1
    if eq:
        return name, value, 1
    if i + 1 < len(words):
        return name, words[i + 1], 2
    raise _error("needs_value", option=name, value=option.value)


def _take_options(words: list[str], i: int, own: dict, before_script: bool) -> int:
    """Read the doctor's options from words[i:] up to SCRIPT, -m or --; returns where they end."""
    while i < len(words) and words[i] not in ("--", "-m"):
        found = _one_option(words, i)
        if found is None:
            if before_script and words[i].startswith("-") and words[i] != "-":
                raise _error("unknown", option=words[i])
            return i
        own[found[0]] = found[1]
        i += found[2]
    return i


def _tutor_options(words: list[str], own: dict) -> list[str]:
    """The words without the tutor's options (ANYWHERE), which are read into `own` wherever they
    stand; a value is never a word starting with `-` (`s.py --home --json` is an error)."""
    kept: list[str] = []
    i = 0
    while i < len(words):
        name, eq, value = words[i].partition("=")
        if name not in ANYWHERE:
            kept.append(words[i])
            i += 1
            continue
        option = _BY_NAME[name]
        if option.value is None:
            if eq:  # `--accelerator=gpu`: not ours, and not silently the script's
                raise _error("flag_value", option=name, word=words[i])
            own[name] = True
            i += 1
            continue
        if not eq:
            if i + 1 >= len(words) or words[i + 1].startswith("-"):
                raise _error("needs_value", option=name, value=option.value)
            value = words[i + 1]
            i += 1
        own[name] = value
        i += 1
    return kept


def _trailing_options(words: list[str], own: dict) -> int:
    """How many of the last words are the doctor's options (read into `own`): the longest tail
    made of nothing else. A doctor option with a script word after it is the script's."""
    best = 0
    for start in range(len(words) + 1):
        i, found = start, {}
        try:
            while i < len(words):
                one = _one_option(words, i)
                if one is None:
                    break
                found[one[0]] = one[1]
                i += one[2]
        except OptionsError:
            if start == len(words) - 1:
                raise  # `s.py --timeout` at the very end: the doctor's, missing its value
            continue
        if i == len(words):
            best = len(words) - start
            own.update(found)
            break
    return best


def _seconds(value: str | bool) -> float:
    try:
        return positive_seconds(str(value))
    except ValueError:
        raise _error("bad_timeout", value=value) from None


def _lang(value: str | bool) -> str:
    if value not in LANGS:
        raise _error("bad_lang", value=value)
    return str(value)


def script_problem(path: Path) -> Bilingual | None:
    """Why `path` cannot be run by doctor, or None."""
    if path.is_dir():
        return _error("folder", path=path).message
    if not path.exists():
        return _error("missing", path=path).message
    if path.suffix == notebook.SUFFIX:
        try:
            notebook.check(str(path))
        except notebook.NotANotebook as exc:
            return _error("bad_notebook", path=path, why=str(exc)).message
        return None
    if path.suffix != ".py":
        return _error("not_py", path=path).message
    return None
