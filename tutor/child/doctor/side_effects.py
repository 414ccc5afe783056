"""Detector: side effects while the script's functions are traced. `print` called from the
script while JAX stages a jaxpr; and globals: the script's module globals are snapshotted
(shallowly) when a top-level trace of one of its functions starts and compared when it ends.
A change counts only if the traced function's own bytecode touches it, so eager code running
meanwhile is never blamed."""

from __future__ import annotations

import builtins
import functools
import sys
import types
from collections import Counter
from dataclasses import dataclass

import jax

from tutor.child.doctor.hooks import Hooks, staging
from tutor.child.doctor.retraces import Miss, Retraces
from tutor.child.doctor.script_code import ScriptCode
from tutor.jax_signals import TRACE_EVENT
from tutor.protocol import Finding


@dataclass
class Snapshot:
    """The script's globals when a top-level trace began, shallowly: what each name is bound
    to, and the contents of containers / attributes of objects it holds."""

    function: str
    file: str  # the traced function's file, as a finding names it
    code: types.CodeType
    bound: dict[str, int]
    contents: dict[str, tuple]


def _contents(value) -> tuple | None:
    if isinstance(value, (list, tuple)):
        return tuple(id(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, id(v)) for k, v in value.items() if isinstance(k, (str, int, float, tuple)))
    if isinstance(value, (set, frozenset)):
        return (len(value),)
    if isinstance(value, (type, types.ModuleType, types.FunctionType)) or callable(value):
        return None
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict):
        return tuple(sorted((k, id(v)) for k, v in attrs.items()))
    return None


class SideEffects:
    def __init__(self, code: ScriptCode, retraces: Retraces):
        self.code = code
        self.prints: Counter = Counter()  # (file, function, line) -> n
        self.effects: list[Finding] = []
        self._pending: Snapshot | None = None
        self._globals: dict | None = None
        retraces.on_trace.append(self._on_trace)

    def install(self, hooks: Hooks) -> None:
        original = builtins.print

        def print_(*a, **k):
            frame = sys._getframe(1)
            if self.code.owns(frame.f_code.co_filename) and staging():
                self.prints[(frame.f_code.co_filename, frame.f_code.co_name, frame.f_lineno)] += 1
            return original(*a, **k)

        functools.update_wrapper(print_, original)
        hooks.patch(builtins, "print", print_)
        # a trace's end: jax.monitoring's trace-duration event
        listener = self._on_event
        jax.monitoring.register_event_duration_secs_listener(listener)
        hooks.on_undo(lambda: jax.monitoring.unregister_event_duration_listener(listener))

    def _on_trace(self, miss: Miss) -> None:
        """A top-level trace begins: the previous one has ended; snapshot for this one if it is
        one of the script's functions."""
        self._close()
        if not self.code.owns(miss.def_file):
            return
        self._globals = self.code.globals_of(miss.def_file)
        if self._globals is None:  # defined in a module we cannot find: the caller's globals
            frame = self.code.frame_here()
            self._globals = frame.f_globals if frame is not None else None
        code = self.code.function(miss.name, miss.def_line, miss.def_file)
        if self._globals is not None and code is not None:
            self._pending = Snapshot(
                miss.name,
                self.code.shown(miss.def_file),
                code,
                {n: id(v) for n, v in self._globals.items()},
                {n: c for n, v in self._globals.items() if (c := _contents(v)) is not None},
            )

    def _on_event(self, event: str, duration_secs: float, **kwargs: str | int) -> None:
        if event == TRACE_EVENT and not staging():
            self._close()

    def _close(self) -> None:
        """Compare the globals with the snapshot of the trace that just ended; keep only what the
        traced function's own code touches (a STORE_GLOBAL, a load of the changed name, an
        attribute store)."""
        snap, self._pending = self._pending, None
        if snap is None or self._globals is None:
            return
        now = self._globals
        for name, ident in snap.bound.items():
            if name not in now or name.startswith("__"):
                continue
            value = now[name]
            if id(value) != ident:
                lines = self.code.lines_of(snap.code, ("STORE_GLOBAL", "STORE_NAME"), name)
                if lines:
                    self.effects.append(self._finding("global", snap, lines[0], name))
                continue
            before = snap.contents.get(name)
            after = _contents(value)
            if before is None or after is None or before == after:
                continue
            lines = self.code.lines_of(snap.code, ("LOAD_GLOBAL", "LOAD_NAME"), name)
            if not lines and isinstance(getattr(value, "__dict__", None), dict):
                changed = {k for k, v in dict(after).items() if dict(before).get(k) != v} | (
                    set(dict(before)) - set(dict(after))
                )
                for attr in sorted(changed):
                    lines += self.code.lines_of(snap.code, ("STORE_ATTR",), attr)
                name = f"{name}.{sorted(changed)[0]}" if changed else name
            if lines:
                self.effects.append(self._finding("mutation", snap, min(lines), name))

    @staticmethod
    def _finding(code, snap: Snapshot, line: int, name: str) -> Finding:
        return Finding("side-effect", code, snap.file, line, function=snap.function, name=name)

    def findings(self, failure: BaseException | None) -> list[Finding]:
        self._close()  # the last trace, if the script ended inside it
        printed = [
            Finding("side-effect", "print", self.code.shown(file), line, function=fn, count=n)
            for (file, fn, line), n in self.prints.items()
        ]
        return self.effects + printed
