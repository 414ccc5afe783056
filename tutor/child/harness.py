"""Child side of a run: import the exercise's checks.py, load the learner's module, run each
check (a `@check` function whose parameters name what it takes from the learner's file),
report events."""

from __future__ import annotations

import ast
import builtins
import importlib.util
import inspect
import io
import linecache
import os
import re
import sys
import time
import traceback
import types
from collections.abc import Callable, Set
from dataclasses import replace

import jax
import jax.numpy as jnp
import numpy as np

from tutor import i18n, protocol
from tutor.child import channel, library, optimizers, tamper, witness
from tutor.child.channel import flush_metrics
from tutor.child.library.calling import multiprocessing_hint
from tutor.errors import TutorError
from tutor.i18n import Bilingual
from tutor.protocol import CellJob, CellResult, CheckResult, CheckSpec, CheckStatus, ExerciseJob, RunError


class Abort(TutorError):
    """The run cannot go on (the program exited, was interrupted, ran out of memory)."""

    def __init__(self, kind: protocol.VerdictKind, en: str, zh: str):
        super().__init__(Bilingual(en=en, zh=zh))
        self.kind, self.en, self.zh = kind, en, zh

    def event(self) -> RunError:
        return RunError(self.kind, Bilingual(zh=self.zh, en=self.en))


_JAX_TRAILER = re.compile(r"\n-{10,}\nFor simplicity, JAX has removed its internal frames.*", re.S)


def exception_text(exc: BaseException) -> str:
    """`Type: message`, without JAX's note about hidden frames (it only costs screen lines)."""
    text = "".join(traceback.format_exception_only(type(exc), exc))
    return _JAX_TRAILER.sub("", text).rstrip()


def learner_traceback(exc: BaseException, filenames: Set[str]) -> str:
    """The traceback cut down to frames in the learner's own code, plus the exception line."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in filenames]
    lines = traceback.format_list(frames) if frames else []
    return ("".join(lines) + exception_text(exc)).rstrip()


def _safe_repr(value: object, limit: int = 80) -> str:
    """repr() that survives learner objects whose __repr__ raises or is huge."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - a broken __repr__ must not break the report
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[:limit] + "..."


def is_out_of_memory(exc: BaseException) -> bool:
    """MemoryError (host memory, e.g. NumPy or a growing list) or XLA's RESOURCE_EXHAUSTED (device memory)."""
    if isinstance(exc, MemoryError):
        return True
    try:
        from_jax = type(exc).__module__.split(".")[0] in ("jax", "jaxlib")
        return from_jax and isinstance(exc, Exception) and "RESOURCE_EXHAUSTED" in str(exc)[:500]
    except BaseException:  # noqa: BLE001 - a learner exception whose __str__ raises is not an OOM
        return False


def _oom_abort(exc: BaseException, filenames: Set[str]) -> Abort:
    try:
        tb = learner_traceback(exc, filenames)
    except BaseException:  # noqa: BLE001 - formatting needs memory too
        tb = type(exc).__name__
    return Abort(
        "oom",
        "out of memory: the program tried to allocate more memory than the tutor allows "
        f"(is an array far bigger than you meant, or does a list grow without end?)\n{tb}",
        f"内存不足：程序申请的内存超过了允许的上限（数组是否比预想的大得多，或者列表在无限增长？）\n{tb}",
    )


def _abort_for(exc: BaseException, filenames: Set[str] = frozenset()) -> Abort:
    """Map the exceptions that end a run to a named outcome."""
    if isinstance(exc, SystemExit):
        code = _safe_repr(exc.code)
        return Abort(
            "exit",
            f"the program called sys.exit({code}); remove it, the tutor calls your functions itself",
            f"程序调用了 sys.exit({code})；请删掉它，检查程序会自己调用你的函数",
        )
    if isinstance(exc, KeyboardInterrupt):
        return Abort("interrupt", "the program raised KeyboardInterrupt", "程序抛出了 KeyboardInterrupt")
    if is_out_of_memory(exc):
        return _oom_abort(exc, filenames)
    name = type(exc).__name__
    return Abort(
        "base-exception",
        f"the program raised {name}, which is not an ordinary Exception",
        f"程序抛出了 {name}，它不是普通的 Exception",
    )


# ------------------------------------------------------------ keeping the harness sane
# Learner code runs in this very process, so it can break what the checks rely on: replace
# builtins (print, isinstance) or jax.jit, close stdout/stderr, or rebind the judge itself (a
# check library function, the harness's own, a protocol method, NumPy's isclose). Before and
# after every call into learner code the originals are put back (tutor.child.tamper); a change
# to the judge also ends the run as tampering. Code in the same process can always reach further
# (ctypes): the parent's own checks (tutor.sandbox.intake) and RELIABILITY.md say what holds then.

witness.install()  # before the snapshot below, which restore_environment puts back after learner code


def _numpy_modules() -> list[types.ModuleType]:
    """The NumPy modules whose functions the check library's comparisons go through (numpy 2: _core)."""
    found = []
    for name in ("numeric", "fromnumeric", "_methods", "multiarray", "umath"):
        for package in ("numpy._core", "numpy.core"):
            try:
                found.append(importlib.import_module(f"{package}.{name}"))
                break
            except ImportError:
                continue
    return found


for _mod in (builtins, time, jax, jnp):
    tamper.keep(_mod, judge=False)
for _mod in (np, *_numpy_modules(), library, *library.MODULES, optimizers, protocol, i18n):
    tamper.keep(_mod, judge=True)
tamper.keep(channel, judge=True, own_state=channel.OWN_STATE)
# JAX's configuration as the worker set it. A learner who debugs with jax_disable_jit or
# jax_debug_nans would otherwise make correct code fail checks that count traces or look
# for primitives; the checks run with these values, and the report says what the file changed.
_JAX_CONFIG = dict(jax.config.values)
# Options that change what a program computes (dtypes, promotion, precision) are the learner's
# to choose and stay as set; the rest (debugging, logging, caching) are put back.
_SEMANTIC = {
    "jax_enable_x64",
    "jax_numpy_rank_promotion",
    "jax_numpy_dtype_promotion",
    "jax_default_matmul_precision",
    "jax_default_prng_impl",
    "jax_enable_custom_prng",
    "jax_threefry_partitionable",
}
config_changes: dict[str, object] = {}  # option -> the value the learner's code set


def restore_environment() -> None:
    """Undo learner monkey-patching of builtins, jax, NumPy and the judge (recording what of the
    judge it had to put back, in tamper.changed), and changes to JAX's configuration."""
    tamper.restore()
    _restore_jax_config()
    _guard_std_fds()


def stop_if_tampered() -> None:
    """Raise Abort if learner code changed the judge at any time so far: whatever the checks
    said ran with a judge the program had rewritten, so nothing of it is a verdict."""
    restore_environment()
    if not tamper.changed:
        return
    names = ", ".join(dict.fromkeys(tamper.changed[:5]))
    raise Abort(
        "tamper",
        f"your code changed the tutor's own checking code while it was judged ({names}); a check cannot "
        "judge a program that rewrites it, so this run is not judged. Remove the lines that assign into "
        "the tutor's modules, the exercise's checks or NumPy, and check again",
        f"你的代码在评判过程中修改了检查程序自身的代码（{names}）；检查无法评判一个改写检查本身的程序，"
        "因此这次运行不予评判。请删掉那些给本教程的模块、本练习的检查或 NumPy 赋值的代码行，然后重新检查",
    )


def _restore_jax_config() -> None:
    try:
        current = jax.config.values
        changed = [
            (k, v) for k, v in current.items() if k in _JAX_CONFIG and v is not _JAX_CONFIG[k] and v != _JAX_CONFIG[k]
        ]
    except Exception:  # noqa: BLE001 - the learner replaced jax.config itself: nothing to compare
        return
    for name, value in changed:
        config_changes[name] = value
        if name in _SEMANTIC:
            continue
        try:
            jax.config.update(name, _JAX_CONFIG[name])
        except Exception:  # noqa: BLE001 - an option JAX no longer lets us set back
            pass


def config_note() -> tuple[str, str] | None:
    """What the learner's code changed in JAX's configuration, said plainly, or None."""
    if not config_changes:
        return None
    said = {k: f"{k}={_safe_repr(v, 30)}" for k, v in sorted(config_changes.items())}
    reset = [t for k, t in said.items() if k not in _SEMANTIC]
    kept = [t for k, t in said.items() if k in _SEMANTIC]
    en, zh = [], []
    if reset:
        en.append(
            f"your file changes JAX's configuration ({', '.join(reset)}); the checks ran with the "
            "tutor's settings instead, so remove that line (or keep it only for your own debugging)"
        )
        zh.append(
            f"你的文件修改了 JAX 的配置（{', '.join(reset)}）；检查改用本教程的设置运行，"
            "请删掉这一行（或只在自己调试时保留）"
        )
    if kept:
        en.append(f"your file sets {', '.join(kept)}, which changes what the code computes; the checks kept it")
        zh.append(f"你的文件设置了 {', '.join(kept)}，这会改变代码的计算结果；检查保留了这个设置")
    return "Note: " + "; ".join(en) + ".", "注意：" + "；".join(zh) + "。"


def unreachable_code(source: str) -> list[tuple[int, int, str, str]]:
    """(line of dead code, line of the statement that ends the block, that statement, function)
    for code that follows a return / raise / break / continue in the same block, e.g. a
    starter's `return params` left above the learner's own lines."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    enders = {ast.Return: "return", ast.Raise: "raise", ast.Break: "break", ast.Continue: "continue"}

    def visit(node, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block[:-1]):
                word = enders.get(type(stmt))
                if word and function:
                    found.append((block[i + 1].lineno, stmt.lineno, word, function))
                    break
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "")
    return found


def static_note(source: str) -> tuple[str, str] | None:
    """A finding about the file itself, said before any check's own verdict."""
    dead = unreachable_code(source)
    if not dead:
        return None
    line, at, word, fn = dead[0]
    return (
        f"Line {line} never runs: `{word}` on line {at} ends `{fn}` before it. "
        "Delete that early line (it is often the starter's placeholder) and check again.",
        f"第 {line} 行永远不会执行：第 {at} 行的 `{word}` 在它之前就结束了 `{fn}`。"
        "请删掉那一行（它往往是起始代码里的占位语句），然后重新检查。",
    )


def _guard_std_fds() -> None:
    """Point a closed fd 0, 1 or 2 at /dev/null, so the next file opened cannot take its number
    (learner prints would otherwise land in it, e.g. in the compilation cache)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass


def load_learner(source: str, filename: str) -> types.ModuleType:
    """Execute the learner's file as module `learner`; raise Abort for anything that stops it."""
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as exc:
        where = f"line {exc.lineno}" if exc.lineno else "unknown line"
        detail = (exc.text or "").rstrip()
        raise Abort(
            "syntax",
            f"syntax error at {where}: {exc.msg}" + (f"\n    {detail}" if detail else ""),
            f"第 {exc.lineno} 行有语法错误：{exc.msg}" + (f"\n    {detail}" if detail else ""),
        ) from None
    library.outside.learner_loading()  # what the process holds from here on may be the learner's
    module = types.ModuleType("learner")
    module.__file__ = filename
    sys.modules["learner"] = module  # dataclasses and pickling look modules up by name
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        exec(code, module.__dict__)
    except BaseException as exc:  # noqa: BLE001 - every way out is reported
        restore_environment()  # before formatting: the learner may have broken builtins
        if isinstance(exc, Exception) and not is_out_of_memory(exc):
            tb = learner_traceback(exc, {filename})
            hint = multiprocessing_hint(exc)  # a Lock or a Pool made at the top of the file
            en_hint, zh_hint = (f"\n{hint[0]}", f"\n{hint[1]}") if hint else ("", "")
            raise Abort(
                "exception",
                f"your file raised an exception while loading:\n{tb}{en_hint}",
                f"加载你的文件时抛出了异常：\n{tb}{zh_hint}",
            ) from None
        raise _abort_for(exc, {filename}) from None
    restore_environment()
    library.outside.learner_loaded(module)  # the modules its file imported, as they are now
    return module


def load_checks(path: str) -> dict[str, Callable]:
    """The @check functions of an exercise's checks.py, by check id. Imported before the
    learner's file runs, and guarded like the library: a learner cannot rebind what judges it."""
    spec = importlib.util.spec_from_file_location("exercise_checks", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["exercise_checks"] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    tamper.keep(module, judge=True)
    return {fn.__check__.id: fn for fn in vars(module).values() if isinstance(getattr(fn, "__check__", None), tuple)}


def _where_in_checks(frames, fn: Callable | None) -> str:
    """ " (checks.py line 17)": the last line of the exercise's checks.py the error passed through."""
    code = getattr(fn, "__code__", None)
    lines = [f.lineno for f in frames if code is not None and f.filename == code.co_filename]
    return f" (checks.py line {lines[-1]})" if lines else ""


def _checks_own_mistake(exc: Exception, frames, fn: Callable | None, learner: types.ModuleType) -> bool:
    """An error only the check's own code makes, raised outside the learner's lines: an attribute
    that the tutor's own objects or the checks module lack (a TraceCounter has no `fn`), or a check
    library function called with the wrong arguments. Blamed on the learner, it turned a check's
    typo into every mutant "failing as it should"."""
    if isinstance(exc, AttributeError):
        owner = getattr(exc, "obj", None)
        where = owner.__name__ if isinstance(owner, types.ModuleType) else type(owner).__module__
        return where == getattr(fn, "__module__", None) or where == "tutor" or str(where).startswith("tutor.")
    code = getattr(fn, "__code__", None)
    said = re.match(r"(\w+)\(\) (?:missing|got|takes)", str(exc))
    return bool(
        isinstance(exc, TypeError)
        and said
        and code is not None
        and frames
        and frames[-1].filename == code.co_filename  # the call itself, made by the check, did not bind
        and callable(getattr(library, said.group(1), None))
        and not hasattr(learner, said.group(1))
    )


def _arguments(fn: Callable, module: types.ModuleType) -> list:
    """What a check function asks for: `learner` is the module, any other name its definition."""
    return [
        module if name == "learner" else library.learner_attr(module, name) for name in inspect.signature(fn).parameters
    ]


def run_check(check: CheckSpec, fn: Callable | None, module: types.ModuleType, filename: str) -> CheckResult:
    """Run one check; return its result (status, bilingual message)."""
    restore_environment()
    started = time.perf_counter()
    status: CheckStatus = "pass"
    en, zh = "", ""
    learner_raised = False
    try:
        if fn is None:
            raise library.CheckError(
                f"checks.py has no @check function for '{check.id}'", f"checks.py 里没有 '{check.id}' 的 @check 函数"
            )
        fn(*_arguments(fn, module))
    except BaseException as exc:  # noqa: BLE001 - any exception is reported, never a pass
        restore_environment()  # before formatting: the learner may have broken builtins
        flush_metrics()
        if isinstance(exc, library.CheckFailed):
            status, en, zh = "fail", exc.en, exc.zh
        elif isinstance(exc, library.CheckError):
            status = "error"
            en, zh = f"the check could not judge your code: {exc.en}", f"检查无法评判你的代码：{exc.zh}"
        elif not isinstance(exc, Exception) or is_out_of_memory(exc):
            raise _abort_for(exc, {filename}) from None
        else:
            try:  # which call raised it, and the cause of a known JAX error
                why = library.explain_error(exc)
            except Exception:  # noqa: BLE001 - a learner exception whose __str__ raises
                why = library.Explanation()
            frames = traceback.extract_tb(exc.__traceback__)
            if any(f.filename == filename for f in frames):
                tb = learner_traceback(exc, {filename})
                learner_raised = True  # its own cause: the check's advice would point elsewhere
                status = "fail"
                passed_en = f", called with {why.arguments}" if why.arguments else ""
                passed_zh = f"（传入的是 {why.arguments}）" if why.arguments else ""
                checking_en = f" (checking: {check.name.en})" if check.name else ""
                checking_zh = f"检查“{check.name.zh}”时，" if check.name else ""
                en = f"your code raised an exception{f' in {why.label_en}' if why.label_en else ''}{passed_en}{checking_en}:\n{tb}"
                zh = f"{checking_zh}{f'调用 {why.label_zh}{passed_zh} 时' if why.label_zh else ''}你的代码抛出了异常：\n{tb}"
            elif isinstance(exc, (NameError, ImportError, SyntaxError)) or _checks_own_mistake(exc, frames, fn, module):
                # Only the check's own code can be missing a name, or misuse the tutor's own
                # objects: it could not judge, which is not the learner's fault.
                text = exception_text(exc) + _where_in_checks(frames, fn)
                status = "error"
                en, zh = f"the check could not judge your code: {text}", f"检查无法评判你的代码：{text}"
            else:
                # Raised by JAX or Python while handling what the learner's code defined or
                # returned (jit refusing an unhashable static argument, an unregistered class,
                # a value of the wrong type): often with no learner frame, since it happens in
                # C++ dispatch. Still the learner's to fix.
                text = exception_text(exc)
                status = "fail"
                if why.label_en:
                    en = f"{why.label_en} failed inside JAX, outside your own lines:\n{text}"
                    zh = f"{why.label_zh} 在 JAX 内部出错（不在你自己写的代码行里）：\n{text}"
                    if not why.hint_en:
                        en += f"\nLook at how {why.name} is wrapped (the jax.jit options) and at what it returns"
                        zh += f"\n请检查 {why.name} 是如何被包装的（jax.jit 的选项）以及它返回了什么"
                else:
                    en = f"using what your code defined or returned raised an error:\n{text}"
                    zh = f"使用你的代码定义或返回的东西时出错：\n{text}"
            if why.hint_en and status == "fail":
                en += "\n" + why.hint_en
                zh += "\n" + why.hint_zh
    else:
        restore_environment()
        flush_metrics()
    if status != "pass" and check.advice and not learner_raised:
        en, zh = (en + "\n" + check.advice.en).strip(), (zh + "\n" + check.advice.zh).strip()
    return CheckResult(check.id, status, Bilingual(zh=zh, en=en), duration_s=round(time.perf_counter() - started, 4))


def run_exercise(job: ExerciseJob, send: Callable[[object], None]) -> None:
    """Import the checks, load the learner's file and run every check, honoring declared
    dependencies; `send` is the run's sealed sender (tutor.child.channel.sealed)."""
    filename = job.filename
    # Held in this frame's locals, which learner code cannot rebind: the module's names it can.
    run_check, stop_if_tampered = _RUN_CHECK, _STOP_IF_TAMPERED
    try:
        try:
            functions = load_checks(job.checks_file)
        except Exception as exc:  # noqa: BLE001 - the course's own bug: every check says it could not judge
            text = exception_text(exc)
            for check in job.checks:
                send(
                    CheckResult(
                        check.id,
                        "error",
                        Bilingual(
                            en=f"the exercise's checks could not be loaded: {text}", zh=f"无法加载本练习的检查：{text}"
                        ),
                    )
                )
            return
        module = load_learner(job.source, filename)
        stop_if_tampered()
        passed: set[str] = set()
        names = {c.id: c.name for c in job.checks}
        pending = [static_note(job.source)]  # notes said once, before the next failure's own message
        config_said = False
        for check in job.checks:
            missing = [d for d in check.depends if d not in passed]
            if missing:
                name = names.get(missing[0]) or Bilingual.same(missing[0])
                send(
                    CheckResult(
                        check.id,
                        "skipped",
                        Bilingual(
                            en=f"waits for “{name.en}” ({missing[0]}) to pass",
                            zh=f"已跳过：需要先通过“{name.zh}”({missing[0]})",
                        ),
                    )
                )
                continue
            result = run_check(check, functions.get(check.id), module, filename)
            stop_if_tampered()  # after the check, before its result is believed enough to send
            if result.status != "pass":
                if not config_said and config_note():
                    pending.append(config_note())
                    config_said = True
                message = result.message
                for en, zh in reversed([n for n in pending if n]):
                    message = Bilingual(zh=zh + "\n" + message.zh, en=en + "\n" + message.en)
                result = replace(result, message=message)
                pending = []
            send(result)
            if result.status == "pass":
                passed.add(check.id)
    except Abort as abort:
        send(abort.event())


def run_cell(job: CellJob, send: Callable[[object], None]) -> None:
    """Run a demo cell as a script; report which exception (if any) it raised (through `send`)."""
    filename = f"<cell {job.id}>"
    source = job.code
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"__name__": "__main__", "metric": library.metric}  # cells may plot live too
    event = CellResult(None, (), "", "")
    try:
        exec(compile(source, filename, "exec"), namespace)
    except Exception as exc:  # noqa: BLE001 - a cell's exception is its result, whatever it is
        restore_environment()
        if is_out_of_memory(exc) and job.expect.raises not in [c.__name__ for c in type(exc).__mro__]:
            send(_oom_abort(exc, {filename}).event())
            return
        event = CellResult(
            type(exc).__name__,
            tuple(c.__name__ for c in type(exc).__mro__),
            str(exc),
            learner_traceback(exc, {filename}),
        )
    except BaseException as exc:  # noqa: BLE001 - every way out of a cell is reported, never a harness crash
        restore_environment()
        send(_abort_for(exc, {filename}).event())
        return
    finally:
        restore_environment()
        flush_std_streams()
    send(event)


# The streams as they were before learner code, and the io classes whose own flush is safe to call.
_STD_STREAMS = (sys.stdout, sys.stderr)
_IO_TYPES = (io.TextIOWrapper, io.BufferedWriter, io.FileIO)


def flush_std_streams() -> None:
    """Flush learner output. The learner may have closed fds 1/2 or replaced sys.stdout: only the
    io classes' own flush is called, never a method learner code defined or set on a stream (a
    flush() that runs after the last check could otherwise write events of its own)."""
    for stream in dict.fromkeys((*_STD_STREAMS, sys.stdout, sys.stderr)):
        kind = type(stream)
        if kind not in _IO_TYPES:
            continue
        try:
            kind.flush(stream)  # type: ignore[arg-type]  # an io class, checked just above
        except Exception:  # noqa: BLE001 - a closed file, a closed fd
            pass


# The harness's own functions, as run_exercise calls them, and the harness itself kept as judge.
_RUN_CHECK, _STOP_IF_TAMPERED = run_check, stop_if_tampered
tamper.keep(sys.modules[__name__], judge=True, own_state=("config_changes",))
