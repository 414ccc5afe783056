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
    """One module's globals when a top-level trace began, shallowly: what each name is bound
    to, and the contents of containers / attributes of objects it holds."""

    file: str  # the module's file
    names: dict  # its globals, live
    bound: dict[str, int]
    contents: dict[str, tuple]


@dataclass
class Tracing:
    """A top-level trace of one of the learner's functions, and every module of theirs as it
    was when it began (a helper in utils/metrics.py may change its own globals)."""

    function: str
    file: str  # the traced function's file
    code: types.CodeType
    modules: list[Snapshot]


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
        self._pending: Tracing | None = None
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
        one of the learner's functions."""
        self._close()
        if not self.code.owns(miss.def_file):
            return
        code = self.code.function(miss.name, miss.def_line, miss.def_file)
        if code is None:
            return
        frame = self.code.frame_here()
        own = self.code.globals_of(miss.def_file)
        if own is None and frame is not None:  # defined in a module we cannot find: the caller's globals
            own = frame.f_globals
        modules = [(miss.def_file, own)] if own is not None else []
        owner = self.code.callee_self(frame, miss.name) if frame is not None else None
        if owner is not None:  # a jitted method (a Trainer local to main()): its `self` as well
            modules.append((miss.def_file, {"self": owner}))
        modules += [(f, g) for f, g in self.code.running_modules() if g is not own]
        self._pending = Tracing(
            miss.name,
            miss.def_file,
            code,
            [
                Snapshot(
                    file,
                    names,
                    {n: id(v) for n, v in names.items()},
                    {n: c for n, v in names.items() if (c := _contents(v)) is not None},
                )
                for file, names in modules
            ],
        )

    def _on_event(self, event: str, duration_secs: float, **kwargs: str | int) -> None:
        if event == TRACE_EVENT and not staging():
            self._close()

    def _close(self) -> None:
        """Compare every module's globals with the snapshot of the trace that just ended. In the
        traced function's own code (and its nested functions) touches a change first (a
        STORE_GLOBAL, a load of the changed name, an attribute store); else the function of that
        module that does (a helper it called: only traced code runs while JAX traces)."""
        tracing, self._pending = self._pending, None
        if tracing is None:
            return
        for snap in tracing.modules:
            own = snap.file == tracing.file
            for name, ident in snap.bound.items():
                if name not in snap.names or name.startswith("__"):
                    continue
                value = snap.names[name]
                if id(value) != ident:
                    self._found(tracing, snap, own, "global", ("STORE_GLOBAL", "STORE_NAME"), name, name)
                    continue
                before = snap.contents.get(name)
                after = _contents(value)
                if before is None or after is None or before == after:
                    continue
                if self._found(tracing, snap, own, "mutation", ("LOAD_GLOBAL", "LOAD_NAME"), name, name):
                    continue
                if isinstance(getattr(value, "__dict__", None), dict):
                    changed = {k for k, v in dict(after).items() if dict(before).get(k) != v} | (
                        set(dict(before)) - set(dict(after))
                    )
                    for attr in sorted(changed):
                        if self._found(tracing, snap, own, "mutation", ("STORE_ATTR",), attr, f"{name}.{attr}"):
                            break

    def _found(self, tracing: Tracing, snap: Snapshot, own: bool, code, opnames, argval: str, name: str) -> bool:
        """The finding for a changed global, at the first line that does it (see _close)."""
        lines = self.code.lines_of(tracing.code, opnames, argval) if own else []
        if lines:
            where = (tracing.file, tracing.function, min(lines) if code == "mutation" else lines[0])
        else:
            places = self.code.lines_in_file(snap.file, opnames, argval)
            if not places:
                return False
            function, line = places[0]
            where = (snap.file, function, line)
        file, function, line = where
        self.effects.append(Finding("side-effect", code, self.code.shown(file), line, function=function, name=name))
        return True

    def findings(self, failure: BaseException | None) -> list[Finding]:
        self._close()  # the last trace, if the script ended inside it
        printed = [
            Finding("side-effect", "print", self.code.shown(file), line, function=fn, count=n)
            for (file, fn, line), n in self.prints.items()
        ]
        return self.effects + printed
