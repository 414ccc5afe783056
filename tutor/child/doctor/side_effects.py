"""Detector: side effects while the script's functions are traced. `print` called from the
script while JAX stages a jaxpr; and state: the script's module globals, the locals of its
frames that called the jitted function (main()'s `config`), what the function closes over and
its `self`, are snapshotted (shallowly) when a top-level trace of one of its functions starts
and compared when it ends: a name rebound, a container or an object's attribute changed, an
iterator advanced. A change counts only if the traced function's own bytecode touches it, so
eager code running meanwhile is never blamed. And a stale cache: an object passed as a static
`self` that keeps the default identity hash, changed after its trace while later calls hit the
old program (seen at the hash JAX takes on every call)."""

from __future__ import annotations

import builtins
import dis
import functools
import sys
import types
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import jax

from tutor.child.doctor.hooks import Hooks, staging
from tutor.child.doctor.retraces import Miss, Retraces
from tutor.child.doctor.script_code import ScriptCode
from tutor.jax_signals import TRACE_EVENT
from tutor.protocol import Finding


@dataclass
class Snapshot:
    """One scope's names when a top-level trace began, shallowly: what each name is bound to,
    and the contents of containers / attributes of objects it holds / an iterator's position.
    A module's globals, or a function's locals (a frame's, a closure's, a method's `self`)."""

    file: str  # the scope's file
    read: Callable[[], dict]  # its names, as they are now
    bound: dict[str, int]
    contents: dict[str, tuple]
    local: bool = False  # a function's scope: rebinding is a nonlocal's, loads are LOAD_DEREF


def _snapshot(file: str, read: Callable[[], dict], local: bool = False) -> Snapshot:
    names = read()
    return Snapshot(
        file,
        read,
        {n: id(v) for n, v in names.items()},
        {n: c for n, v in names.items() if (c := _contents(v)) is not None},
        local,
    )


def _reads_of(code: types.CodeType, owner: str, attr: str) -> list[int]:
    """Lines where `code` (or a function nested in it) reads `owner.attr` (self.lr)."""
    lines, todo = set(), [code]
    while todo:
        current = todo.pop()
        todo.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
        before, line = None, current.co_firstlineno
        for ins in dis.get_instructions(current):
            if ins.positions is not None and ins.positions.lineno:
                line = ins.positions.lineno
            if (
                ins.opname in ("LOAD_ATTR", "LOAD_METHOD")
                and ins.argval == attr
                and before is not None
                and before.opname in ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE")
                and before.argval == owner
            ):
                lines.add(line)
            before = ins
    return sorted(lines)


def _as_is(names: dict) -> Callable[[], dict]:
    """A scope whose dict is live (module globals) or fixed (a method's `self`)."""
    return lambda: names


def _locals_of(frame: types.FrameType) -> Callable[[], dict]:
    """A frame's locals as they are when asked (f_locals is refreshed on each read)."""
    return lambda: frame.f_locals


def _closure(fn) -> Callable[[], dict]:
    def read() -> dict:
        out = {}
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                out[name] = cell.cell_contents
            except ValueError:  # an empty cell
                pass
        return out

    return read


@dataclass
class Watched:
    """An object the traced method got as its static `self`, with its attributes as traced."""

    owner: object
    tracing: Tracing
    attrs: dict[str, int]  # attribute -> id of its value when traced
    stale: Counter = field(default_factory=Counter)  # attribute -> calls that ran the old program


@dataclass
class Tracing:
    """A top-level trace of one of the learner's functions, and every module of theirs as it
    was when it began (a helper in utils/metrics.py may change its own globals)."""

    function: str
    file: str  # the traced function's file
    code: types.CodeType
    modules: list[Snapshot]


ITERATOR = "<iterator>"


def _contents(value) -> tuple | None:
    if isinstance(value, types.GeneratorType):
        frame = value.gi_frame
        return (ITERATOR, -1 if frame is None else frame.f_lasti)
    if type(value).__name__.endswith("iterator") and type(value).__module__ == "builtins":
        try:  # iter(list), iter(range(...)), ...: the position is the third item of its reduce
            reduced = value.__reduce__()
            return (ITERATOR, reduced[2] if len(reduced) > 2 else len(reduced[1][0]) if reduced[1] else -1)
        except Exception:  # noqa: BLE001 - an iterator that cannot say where it is
            return None
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
        self._hooks: Hooks | None = None
        self._watched: dict[int, Watched] = {}  # id(owner) -> its static `self` as traced
        self._hashed: set[type] = set()
        self._said: set[tuple[str, str, int]] = set()  # (code, file, line) found already
        retraces.on_trace.append(self._on_trace)

    def install(self, hooks: Hooks) -> None:
        self._hooks = hooks
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
        scopes: list[tuple[str, Callable[[], dict], bool]] = []
        if own is not None:
            scopes.append((miss.def_file, _as_is(own), False))
        owner = self.code.callee_self(frame, miss.name) if frame is not None else None
        if owner is not None:  # a jitted method (a Trainer local to main()): its `self` as well
            scopes.append((miss.def_file, _as_is({"self": owner}), True))
        fn = self.code.callee_function(frame, miss.name) if frame is not None else None
        if fn is not None and fn.__closure__:  # what it closes over (a step made by make_step(config))
            scopes.append((miss.def_file, _closure(fn), True))
        # the locals of every frame of the learner's that led here (main()'s `config`, `batches`)
        outer = frame
        while outer is not None:
            if self.code.owns(outer.f_code.co_filename) and outer.f_locals is not outer.f_globals:
                scopes.append((outer.f_code.co_filename, _locals_of(outer), True))
            outer = outer.f_back
        scopes += [(f, _as_is(g), False) for f, g in self.code.running_modules() if g is not own]
        tracing = Tracing(
            miss.name, miss.def_file, code, [_snapshot(file, read, local) for file, read, local in scopes]
        )
        self._pending = tracing
        if owner is not None:
            self._watch(owner, tracing)

    def _watch(self, owner: object, tracing: Tracing) -> None:
        """The `self` a traced method reads from: its attributes were read once, at trace time. A
        static `self` with the default (identity) hash is hashed by JAX on every call; a method
        jitted bound (`jax.jit(self.step)`) is seen at each call of its jitted function. Either
        way a change after this trace is seen at the next call that reuses the program."""
        if not isinstance(getattr(owner, "__dict__", None), dict):
            return
        name = tracing.code.co_varnames[0] if tracing.code.co_argcount else "self"
        attrs = {k: id(v) for k, v in vars(owner).items() if _reads_of(tracing.code, name, k)}
        if not attrs:
            return
        self._watched[id(owner)] = Watched(owner, tracing, attrs)
        cls = type(owner)
        if cls.__hash__ is not object.__hash__ or cls in self._hashed or self._hooks is None:
            return  # a hash over its fields: a changed object is a new cache key, traced again
        self._hashed.add(cls)
        check = self._check

        def hash_(obj) -> int:
            check(obj)
            return object.__hash__(obj)

        if "__hash__" in cls.__dict__:
            self._hooks.patch(cls, "__hash__", hash_)
        else:
            self._set_hash(cls, hash_)

    def _check(self, obj) -> None:
        """A call is about to run a traced method of `obj`: count the attributes it read that
        changed since (the program runs with their old values)."""
        seen = self._watched.get(id(obj))
        if seen is not None and seen.owner is obj and not staging():
            now = vars(obj)
            for k, ident in seen.attrs.items():
                if k in now and id(now[k]) != ident:
                    seen.stale[k] += 1

    def on_jitted_call(self, fun) -> None:
        """A jitted function is called: if it is a bound method whose `self` is watched, check it."""
        if isinstance(fun, types.MethodType):
            self._check(fun.__self__)

    def _set_hash(self, cls: type, hash_) -> None:
        """A class that inherits object's hash gets one of its own for the run, taken back after."""
        assert self._hooks is not None
        try:
            cls.__hash__ = hash_  # type: ignore[method-assign, assignment]
        except TypeError:  # a class that cannot take attributes
            return
        self._hooks.on_undo(lambda: delattr(cls, "__hash__"))

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
        for seen in self._watched.values():  # a traced method's `self` as this trace left it
            if seen.tracing is tracing:
                now = vars(seen.owner)
                seen.attrs = {k: id(now[k]) for k in seen.attrs if k in now}
        for snap in tracing.modules:
            own = snap.file == tracing.file
            names = snap.read()
            rebind = ("STORE_DEREF",) if snap.local else ("STORE_GLOBAL", "STORE_NAME")
            loads = ("LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_FAST") if snap.local else ("LOAD_GLOBAL", "LOAD_NAME")
            for name, ident in snap.bound.items():
                if name not in names or name.startswith("__"):
                    continue
                value = names[name]
                if id(value) != ident:
                    self._found(tracing, snap, own, "rebound" if snap.local else "global", rebind, name, name)
                    continue
                before = snap.contents.get(name)
                after = _contents(value)
                if before is None or after is None or before == after:
                    continue
                advanced = before[:1] == (ITERATOR,)
                if not advanced and isinstance(getattr(value, "__dict__", None), dict):
                    # an object's attribute: named, at the line that stores it (config.learning_rate)
                    changed = {k for k, v in dict(after).items() if dict(before).get(k) != v} | (
                        set(dict(before)) - set(dict(after))
                    )
                    if any(
                        self._found(tracing, snap, own, "mutation", ("STORE_ATTR",), attr, f"{name}.{attr}")
                        for attr in sorted(changed)
                    ):
                        continue
                self._found(tracing, snap, own, "iterator" if advanced else "mutation", loads, name, name)

    def _found(self, tracing: Tracing, snap: Snapshot, own: bool, code, opnames, argval: str, name: str) -> bool:
        """The finding for a changed name, at the first line that does it (see _close); one per
        line (main()'s `config` and the closure's are one object)."""
        lines = self.code.lines_of(tracing.code, opnames, argval) if own else []
        if lines:
            where = (tracing.file, tracing.function, min(lines) if code != "global" else lines[0])
        elif snap.local:
            return False  # a local of another function: only the traced code itself can change it
        else:
            places = self.code.lines_in_file(snap.file, opnames, argval)
            if not places:
                return False
            function, line = places[0]
            where = (snap.file, function, line)
        file, function, line = where
        if (code, file, line) not in self._said:
            self._said.add((code, file, line))
            self.effects.append(Finding("side-effect", code, self.code.shown(file), line, function=function, name=name))
        return True

    def findings(self, failure: BaseException | None) -> list[Finding]:
        self._close()  # the last trace, if the script ended inside it
        printed = [
            Finding("side-effect", "print", self.code.shown(file), line, function=fn, count=n)
            for (file, fn, line), n in self.prints.items()
        ]
        return self.effects + printed + self._stale()

    def _stale(self) -> list[Finding]:
        """A static `self` changed after its trace, at the line of the traced code that reads the
        attribute: each call that ran the old program counted once."""
        out = []
        for seen in self._watched.values():
            name = seen.tracing.code.co_varnames[0] if seen.tracing.code.co_argcount else "self"
            for attr, n in seen.stale.items():
                lines = _reads_of(seen.tracing.code, name, attr)
                if lines:
                    file = self.code.shown(seen.tracing.file)
                    out.append(
                        Finding(
                            "side-effect",
                            "stale",
                            file,
                            lines[0],
                            function=seen.tracing.function,
                            name=f"self.{attr}",
                            count=n,
                        )
                    )
        return out
