"""Detector: values a jitted function read from outside itself, which went stale. A traced
function that reads a module global (`lr`), a variable it closes over, or one attribute or
constant key of either (`config.scale`, `CONFIG["lr"]`), compiles the value it found into its
program: JAX does not trace again when it changes. So each top-level trace of one of the
learner's functions records what its code (and the learner's helpers it calls by global name)
reads that way, with the values then; each later call of that jitted function checks them, and
a call that ran with a value changed since is counted. A call that traced again took the new
value: its records start over. Reported at the line that changed the value, with the line that
read it ("read at") as the second place.

Only the learner's own values: modules, classes, functions and library callables are not
watched, nor attributes computed by properties (only an instance's own `__dict__` is read)."""

from __future__ import annotations

import dis
import functools
import types
from collections.abc import Callable
from dataclasses import dataclass

from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.keys import KeyReuse
from tutor.child.doctor.retraces import Miss, Retraces
from tutor.child.doctor.script_code import ScriptCode
from tutor.protocol import Finding

_GONE = object()
SCALARS = (int, float, complex, bool, str, bytes, type(None))
_NOT_STATE = (
    types.ModuleType,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    functools.partial,
)
_LIBRARIES = ("jax", "jaxlib", "numpy", "tutor", "equinox", "flax", "optax", "haiku", "numpyro", "builtins")
HELPER_DEPTH = 2  # the learner's helpers a traced function calls by global name, and theirs


def _is_state(value) -> bool:
    """Whether a value is the learner's state (a number, an array, a config, an optimizer), not
    code: a module, a class, a function, or a library's callable."""
    if isinstance(value, _NOT_STATE):
        return False
    if callable(value) and type(value).__module__.split(".")[0] in _LIBRARIES:
        return False  # a jitted function, a ufunc
    return True


@dataclass
class Capture:
    """One value a trace read from outside the traced function, as it was then."""

    shown: str  # as the learner wrote it: lr, config.scale, CONFIG['lr']
    get: Callable[[], object]  # the value now (_GONE if it is gone)
    old: object
    read_file: str
    read_line: int
    store: tuple[str, str, object]  # (file or "*", kind, name or key): where a change would be written
    function: str
    stale: int = 0  # calls that ran the program compiled with the old value


def _global_getter(names: dict, name: str) -> Callable[[], object]:
    return lambda: names.get(name, _GONE)


def _cell_getter(cell) -> Callable[[], object]:
    def get():
        try:
            return cell.cell_contents
        except ValueError:
            return _GONE

    return get


def _attr_getter(get_owner: Callable[[], object], owner, attr: str) -> Callable[[], object]:
    # the attribute of the object read at trace time; a rebound owner is its own record
    def get():
        now = get_owner()
        target = now if now is not _GONE else owner
        found = getattr(target, "__dict__", None)
        return found.get(attr, _GONE) if isinstance(found, dict) else _GONE

    return get


def _item_getter(get_owner: Callable[[], object], key) -> Callable[[], object]:
    def get():
        now = get_owner()
        return now.get(key, _GONE) if isinstance(now, dict) else _GONE

    return get


def _instructions(code: types.CodeType):
    """(instruction, line) of code and the functions nested in it."""
    todo = [code]
    while todo:
        current = todo.pop()
        todo.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
        line = current.co_firstlineno
        for ins in dis.get_instructions(current):
            if ins.positions is not None and ins.positions.lineno:
                line = ins.positions.lineno
            yield ins, line


def reads(code: types.CodeType, freevars: tuple[str, ...]) -> list[tuple[str, str, str | None, object, int]]:
    """What `code` reads from outside: (scope "global" or "cell", name, "attr" / "item" / None,
    the attribute or key, line), in order."""
    out: list[tuple[str, str, str | None, object, int]] = []
    previous: list = []
    for ins, line in _instructions(code):
        previous = [*previous[-2:], (ins, line)]
        if ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and len(previous) >= 2:
            owner, at = previous[-2]
            if owner.opname == "LOAD_GLOBAL":
                out.append(("global", owner.argval, "attr", ins.argval, at))
            elif owner.opname == "LOAD_DEREF" and owner.argval in freevars:
                out.append(("cell", owner.argval, "attr", ins.argval, at))
        elif ins.opname == "BINARY_SUBSCR" and len(previous) == 3 and previous[-2][0].opname == "LOAD_CONST":
            owner, at = previous[-3]
            key = previous[-2][0].argval
            if owner.opname == "LOAD_GLOBAL":
                out.append(("global", owner.argval, "item", key, at))
            elif owner.opname == "LOAD_DEREF" and owner.argval in freevars:
                out.append(("cell", owner.argval, "item", key, at))
        if ins.opname == "LOAD_GLOBAL":
            out.append(("global", ins.argval, None, None, line))
        elif ins.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF") and ins.argval in freevars:
            out.append(("cell", ins.argval, None, None, line))
    return out


class Captured:
    def __init__(self, code: ScriptCode, retraces: Retraces, keys: KeyReuse):
        self.code = code
        self.keys = keys
        self.all: list[Capture] = []
        self._next: list[Capture] | None = None  # recorded at a trace's start, bound to its jitted function
        retraces.on_trace.append(self._on_trace)
        retraces.on_pmap_trace.append(self._on_trace)  # a pmapped step reads globals as a jitted one does

    def install(self, hooks: Hooks) -> None:
        self.keys.trace_listeners.append(self._on_traced)
        self.keys.check_captures = self._check

    def _on_trace(self, miss: Miss) -> None:
        """A top-level trace begins (JAX explains it before it traces): what the learner's
        function reads from outside, with the values it is about to read."""
        self._next = None
        if not self.code.owns(miss.def_file):
            return
        try:
            self._next = self._record(miss)
        except Exception:  # noqa: BLE001 - never break the learner's trace
            self._next = None

    def _record(self, miss: Miss) -> list[Capture]:
        frame = self.code.frame_here()
        fn = self.code.callee_function(frame, miss.name) if frame is not None else None
        if fn is None:
            names = self.code.globals_of(miss.def_file)
            code = self.code.function(miss.name, miss.def_line, miss.def_file)
            if names is None or code is None:
                return []
            return self._captures(code, names, None, miss.name, 0, set())
        return self._captures(fn.__code__, fn.__globals__, fn.__closure__, miss.name, 0, set())

    def _captures(self, code, names: dict, closure, function: str, depth: int, seen: set) -> list[Capture]:
        if code in seen or not self.code.owns(code.co_filename):
            return []
        seen.add(code)
        cells = dict(zip(code.co_freevars, closure or ()))
        file = code.co_filename
        out: list[Capture] = []
        done: set = set()
        for scope, name, how, what, line in reads(code, tuple(cells)):
            if (scope, name, how, what) in done:
                continue
            done.add((scope, name, how, what))
            store: tuple[str, str, object]
            if scope == "global":
                get = _global_getter(names, name)
                store = (file, "global", name)
            elif name in cells:
                get = _cell_getter(cells[name])
                store = (file, "cell", name)
            else:
                continue
            value = get()
            if value is _GONE:
                continue
            if how is None:
                if isinstance(value, types.FunctionType) and depth < HELPER_DEPTH:
                    out += self._captures(
                        value.__code__, value.__globals__, value.__closure__, function, depth + 1, seen
                    )
                if _is_state(value):
                    out.append(Capture(name, get, value, file, line, store, function))
                continue
            if not _is_state(value):
                continue
            if how == "attr":
                attrs = getattr(value, "__dict__", None)
                if not isinstance(attrs, dict) or what not in attrs or not _is_state(attrs[what]):
                    continue
                out.append(
                    Capture(
                        f"{name}.{what}",
                        _attr_getter(get, value, str(what)),
                        attrs[what],
                        file,
                        line,
                        ("*", "attr", str(what)),
                        function,
                    )
                )
            elif isinstance(value, dict) and isinstance(what, (str, int)) and what in value:
                if _is_state(value[what]):
                    # the item is written where the dict is reached by any name (CONFIG["lr"] = ...
                    # outside, read as config["lr"] in the closure make_train(CONFIG) made)
                    store = ("*", "item", what)
                    out.append(
                        Capture(f"{name}[{what!r}]", _item_getter(get, what), value[what], file, line, store, function)
                    )
        return out

    def _on_traced(self, traced) -> None:
        """The jitted function whose trace just began: the records of its explanation are its."""
        found, self._next = self._next, None
        if found is None:
            return
        self.all += found
        traced._captured = found  # a later trace of it starts them over

    @staticmethod
    def _check(found: list[Capture]) -> None:
        """A call ran the program traced with these values: count the ones changed since."""
        for c in found:
            now = c.get()
            if now is c.old or now is _GONE:
                continue
            if isinstance(now, SCALARS) and type(now) is type(c.old):
                try:
                    if now == c.old:
                        continue
                except Exception:  # noqa: BLE001 - a comparison that cannot say
                    pass
            c.stale += 1

    def findings(self, failure: BaseException | None) -> list[Finding]:
        out: dict[tuple, Finding] = {}
        for c in self.all:
            if not c.stale:
                continue
            file, line = self._changed_at(c) or (c.read_file, c.read_line)
            key = (c.shown, file, line)
            before = out.get(key)
            count = c.stale + (before.count if before else 0)
            out[key] = Finding(
                "side-effect",
                "captured",
                self.code.shown(file),
                line,
                function=c.function,
                name=c.shown,
                count=count,
                explanation=f"{self.code.shown(c.read_file)}:{c.read_line}",
            )
        return list(out.values())

    def _changed_at(self, c: Capture) -> tuple[str, int] | None:
        """The learner's line that writes the value anew after its first binding (lr = lr * 0.99,
        config.scale = 2.0, CONFIG["lr"] = lr, optimizer = optax.sgd(...) at step 50)."""
        file, kind, name = c.store
        files = [f for f, _ in self.code.running_modules()] + [self.code.path] if file == "*" else [file]
        found: list[tuple[str, int]] = []
        for path in dict.fromkeys(files):
            source = self.code.file(path)
            for code in source.codes if source else []:
                line = code.co_firstlineno
                previous: dis.Instruction | None = None
                for ins in dis.get_instructions(code):
                    if ins.positions is not None and ins.positions.lineno:
                        line = ins.positions.lineno
                    before, previous = previous, ins
                    if kind == "item":  # X[<constant key>] = ...: the key loaded just before the store
                        if ins.opname == "STORE_SUBSCR" and before is not None and before.opname == "LOAD_CONST":
                            if type(before.argval) is type(name) and before.argval == name:
                                found.append((path, line))
                        continue
                    if ins.argval != name:
                        continue
                    if (
                        (kind == "global" and ins.opname in ("STORE_GLOBAL", "STORE_NAME"))
                        or (kind == "cell" and ins.opname == "STORE_DEREF")
                        or (kind == "attr" and ins.opname == "STORE_ATTR" and code.co_name != "__init__")
                    ):
                        found.append((path, line))
        found = sorted(set(found), key=lambda p: (p[0] != c.read_file, p[1]))
        if kind not in ("attr", "item") and len(found) > 1:
            found = found[1:]  # the first binding made the value that was read
        return found[0] if found else None
