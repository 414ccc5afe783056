"""Runs the learner's script as `__main__`, as `python SCRIPT ARGS...` would: its argv, its
folder first on sys.path, its output where output goes, its traceback starting at its own code;
or a module as `python -m MODULE ARGS...` would (the current folder first on sys.path)."""

from __future__ import annotations

import os
import re
import runpy
import sys
import traceback
import types
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.child.doctor.ipython_shim import Shell
from tutor.child.doctor.script_code import ScriptCode

_TUTOR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep
_FILE_LINE = re.compile(r'^(?P<head>\s*File "(?P<file>[^"]+)", )line (?P<line>\d+)(?P<tail>.*)$', re.S)


@dataclass(frozen=True)
class Ran:
    """How the script ended: its exit code, and the exception that ended it (Ctrl+C included)."""

    exit_code: int
    failure: BaseException | None = None


def module_file(module: str) -> str:
    """The file `python -m module` runs (a package's __main__), with the current folder first on
    sys.path as `-m` puts it; ImportError (Python's own words) if there is none."""
    if sys.path:
        sys.path[0] = os.getcwd()
    # What `-m` itself uses; private, so typeshed leaves it out.
    _name, spec, _code = runpy._get_module_details(module)  # type: ignore[attr-defined]
    if not spec.origin or not os.path.isfile(spec.origin):
        raise ImportError(f"No code to run for module {module}")
    return spec.origin


def _run_cells(code: ScriptCode, cells: str) -> None:
    """A notebook's cells (`cells`, as one script) as `__main__`, the way run_path runs a script,
    its syntax error included."""
    if code.top is None:
        compile(cells, code.path, "exec")  # raises the SyntaxError ScriptCode set aside
        return
    main = types.ModuleType("__main__")
    main.__file__ = code.path
    shell = Shell(main.__dict__, code.path)
    main.get_ipython = lambda: shell  # type: ignore[attr-defined]  # what IPython's forms call
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code.top, main.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def print_failure(exc: BaseException, code: ScriptCode) -> None:
    """The script's error as Python would print it: from the script's first frame on, without the
    doctor's own frames (its wrappers around jax.jit and jax.random), and in a notebook each line
    as `File "demo.ipynb", cell 4, line 2`, never the script made of its cells."""
    tb = exc.__traceback__
    while tb is not None and not code.owns(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next  # start the traceback at the script, as Python would
    shown = traceback.TracebackException(type(exc), exc, tb or exc.__traceback__)
    seen: set[int] = set()
    stack: list[traceback.TracebackException] = [shown]
    while stack:  # the exception and those it was raised from or during
        te = stack.pop()
        if id(te) in seen:
            continue
        seen.add(id(te))
        te.stack = traceback.StackSummary.from_list([f for f in te.stack if not f.filename.startswith(_TUTOR)])
        stack += [t for t in (te.__cause__, te.__context__) if t is not None]
    for chunk in shown.format():
        sys.stderr.write(_in_cells(chunk, code))
    sys.stderr.flush()


def _in_cells(chunk: str, code: ScriptCode) -> str:
    """A traceback's `File "x.ipynb", line 57` as `File "x.ipynb", cell 4, line 2`."""
    if code.notebook is None:
        return chunk
    out = []
    for line in chunk.splitlines(keepends=True):
        m = _FILE_LINE.match(line)
        if m and m["file"] == code.path:
            cell, at = code.notebook.where(int(m["line"]))
            line = f"{m['head']}cell {cell}, line {at}{m['tail']}"
        out.append(line)
    return "".join(out)


def run_as_main(code: ScriptCode, args: Sequence[str], module: str | None = None) -> Ran:
    old_argv, old_path0 = sys.argv, sys.path[0] if sys.path else None
    sys.argv = [code.path, *args]
    if sys.path:
        sys.path[0] = os.getcwd() if module else os.path.dirname(code.path)
    try:
        if module:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        elif code.notebook is not None:
            _run_cells(code, code.notebook.source)
        else:
            runpy.run_path(code.path, run_name="__main__")
        return Ran(0)
    except SystemExit as exc:
        if exc.code is None:
            return Ran(0)
        if isinstance(exc.code, int):
            return Ran(exc.code)
        print(exc.code, file=sys.stderr)
        return Ran(1)
    except KeyboardInterrupt as exc:  # the parent's stop, or its time limit: still report
        return Ran(130, exc)
    except BaseException as exc:  # noqa: BLE001 - the script's own failure, shown like Python would
        print_failure(exc, code)
        return Ran(1, exc)
    finally:
        sys.argv = old_argv
        if old_path0 is not None:
            sys.path[0] = old_path0
