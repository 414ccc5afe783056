"""The doctor's options, parsed here and nowhere else (the command line and the TUI's command
field both call `parse`; the worker receives them as a typed DoctorJob):

    [OPTIONS] SCRIPT [ARGS...] [--json] [--timeout S] [--nans] [--lang en|zh] [-- SCRIPT-ARGS...]
    [OPTIONS] -m MODULE [ARGS...] ...                        (as `python -m MODULE`)

The doctor's own options may stand before SCRIPT, or after the script's arguments as the last
words (DESIGN.md's form); a doctor option followed by a word of the script's is the script's
(`doctor s.py --nans drop` gives the script `--nans drop`), and everything after `--` is the
script's, whatever it looks like.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tutor.doctor import notebook
from tutor.i18n import LANGS, Bilingual, table

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
_BY_NAME = {o.name: o for o in OPTIONS}

MSG = table(
    {
        "no_script": {
            "en": "give the Python script to run (doctor SCRIPT [ARGS...]).",
            "zh": "请给出要运行的 Python 脚本（doctor 脚本 [参数...]）。",
        },
        "needs_value": {"en": "{option} needs a value ({value}).", "zh": "{option} 后面要写一个值（{value}）。"},
        "bad_timeout": {
            "en": "--timeout needs a number of seconds above 0 and at most 604800 (a week), not {value!r}.",
            "zh": "--timeout 后面要写一个大于 0、不超过 604800（一周）的秒数，而不是 {value!r}。",
        },
        "bad_lang": {"en": "--lang takes en or zh, not {value!r}.", "zh": "--lang 只能是 en 或 zh，而不是 {value!r}。"},
        "unknown": {
            "en": "{option} is not an option of doctor; the script's own options go after SCRIPT (or after --).",
            "zh": "{option} 不是 doctor 的选项；脚本自己的选项写在脚本之后（或 -- 之后）。",
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


class OptionsError(ValueError):
    """Words the doctor cannot run: bad usage (exit 2 on the command line), said in both languages."""

    def __init__(self, message: Bilingual):
        super().__init__(message.en)
        self.message = message


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


def parse(words: Sequence[str]) -> DoctorOptions:
    """SCRIPT (or -m MODULE), its arguments and the doctor's options from the words after
    `doctor`; OptionsError if they do not make a run."""
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
    elif "--" in rest:  # everything after it is the script's; the doctor's may end the words before it
        cut = rest.index("--")
        tail = _trailing_options(rest[:cut], own)
        args = rest[: cut - tail] + rest[cut + 1 :]
    else:
        tail = _trailing_options(rest, own)
        args = rest[: len(rest) - tail]
    return DoctorOptions(
        Path(module) if module is not None else Path(str(script)).expanduser(),
        tuple(args),
        _seconds(own["--timeout"]) if "--timeout" in own else DEFAULT_TIMEOUT_S,
        bool(own.get("--nans", False)),
        bool(own.get("--json", False)),
        _lang(own["--lang"]) if "--lang" in own else None,
        module,
    )


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
            notebook.read(str(path))
        except notebook.NotANotebook as exc:
            return _error("bad_notebook", path=path, why=str(exc)).message
        return None
    if path.suffix != ".py":
        return _error("not_py", path=path).message
    return None
