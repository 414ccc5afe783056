"""Detector: values a jitted function read from outside itself, which went stale. A traced
function that reads a module global (`lr`), a variable it closes over, or one attribute or
constant key of either (`config.scale`, `CONFIG["lr"]`), compiles the value it found into its
program: JAX does not trace again when it changes. So each top-level trace of one of the
learner's functions records what its code (and the learner's helpers it calls by global name)
reads that way, with the values then; each later call of that jitted function checks them, and
a call that ran with a value changed since is counted. A call that traced again took the new
value: its records start over. Reported at the line that changed the value, with the line that
read it ("read at") as the second place.

A read is followed up to three links deep (`CONFIG["optim"]["lr"]`, `cfg.optim.lr`), and through
the learner's own classes (`Hyper.lr`, a class used as a config). Only the learner's own values:
modules, library classes, functions and library callables are not watched, nor attributes
computed by properties (only an object's own `__dict__` is read)."""

from __future__ import annotations

import dis
import functools
import sys
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
        found = _own_attributes(now if now is not _GONE else owner)
        return found.get(attr, _GONE) if found is not None else _GONE

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


MAX_PATH = 3  # config["optim"]["lr"], cfg.optim.lr, Hyper.lr: links followed after the name


def reads(code: types.CodeType, freevars: tuple[str, ...]) -> list[tuple[str, str, tuple, int]]:
    """What `code` reads from outside: (scope "global" or "cell", name, path, line), in order. The
    path is what follows the name, as ("attr", name) or ("item", constant key) links, up to
    MAX_PATH of them: `CONFIG["optim"]["lr"]` is read as CONFIG, CONFIG["optim"] and the whole."""
    out: list[tuple[str, str, tuple, int]] = []
    chain: tuple[str, str, tuple, int] | None = None  # the read the last instruction ended
    key: list = []  # a constant loaded right after the chain's end: the key of a subscript to come
    for ins, line in _instructions(code):
        if chain is not None and not key and ins.opname == "LOAD_CONST":
            key = [ins.argval]
            continue
        if chain is not None and len(chain[2]) < MAX_PATH:
            scope, name, path, at = chain
            if not key and ins.opname in ("LOAD_ATTR", "LOAD_METHOD"):
                chain = (scope, name, (*path, ("attr", ins.argval)), at)
                out.append(chain)
                continue
            if key and ins.opname == "BINARY_SUBSCR":
                chain, key = (scope, name, (*path, ("item", key[0])), at), []
                out.append(chain)
                continue
        chain, key = None, []
        if ins.opname == "LOAD_GLOBAL":
            chain = ("global", ins.argval, (), line)
        elif ins.opname in ("LOAD_DEREF", "LOAD_CLASSDEREF") and ins.argval in freevars:
            chain = ("cell", ins.argval, (), line)
        if chain is not None:
            out.append(chain)
    return out


def _shown(name: str, path: tuple) -> str:
    return name + "".join(f".{what}" if how == "attr" else f"[{what!r}]" for how, what in path)


def _own_attributes(owner) -> dict | types.MappingProxyType | None:
    """An object's own attributes (an instance's `__dict__`, a class's namespace), never a property's."""
    found = getattr(owner, "__dict__", None)
    return found if isinstance(found, (dict, types.MappingProxyType)) else None


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
        for scope, name, path, line in reads(code, tuple(cells)):
            if (scope, name, path) in done:
                continue
            done.add((scope, name, path))
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
            if not path:
                if isinstance(value, types.FunctionType) and depth < HELPER_DEPTH:
                    out += self._captures(
                        value.__code__, value.__globals__, value.__closure__, function, depth + 1, seen
                    )
                if _is_state(value):
                    out.append(Capture(name, get, value, file, line, store, function))
                continue
            found = self._along(path, get, value)
            if found is not None:
                get, value, store = found
                out.append(Capture(_shown(name, path), get, value, file, line, store, function))
        return out

    def _along(self, path: tuple, get: Callable[[], object], value: object) -> tuple | None:
        """The getter, value and store of what `path` reaches from `value`, or None where a link is
        not the learner's state: an attribute of an instance or of one of the learner's classes
        (`Hyper.lr`), an item under a constant key of a dict. Where a change is written: any
        `.attr =` / `[key] =` in the learner's files (CONFIG["lr"] = ... outside, read as
        config["lr"] in the closure make_train(CONFIG) made)."""
        if not (_is_state(value) or self._learners_class(value)):
            return None  # a module's, a function's or a library's attribute
        store: tuple[str, str, object] = ("*", "global", "")
        for how, what in path:
            if how == "attr":
                attrs = _own_attributes(value)
                if attrs is None or what not in attrs or not _is_state(attrs[what]):
                    return None
                get, value, store = _attr_getter(get, value, str(what)), attrs[what], ("*", "attr", str(what))
            elif isinstance(value, dict) and isinstance(what, (str, int)) and what in value:
                if not _is_state(value[what]):
                    return None
                get, value, store = _item_getter(get, what), value[what], ("*", "item", what)
            else:
                return None
        return get, value, store

    def _learners_class(self, value: object) -> bool:
        module = sys.modules.get(getattr(value, "__module__", None) or "") if isinstance(value, type) else None
        file = getattr(module, "__file__", None)
        return isinstance(file, str) and self.code.owns(file)

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
                augmented: list = []  # X[<key>] op= ...: the key was loaded, then copied to read the old value
                for ins in dis.get_instructions(code):
                    if ins.positions is not None and ins.positions.lineno:
                        line = ins.positions.lineno
                    before, previous = previous, ins
                    if kind == "item":  # X[<constant key>] = ...: the key loaded just before the store
                        if (
                            ins.opname in ("COPY", "DUP_TOP_TWO")
                            and before is not None
                            and before.opname == "LOAD_CONST"
                        ):
                            augmented = [before.argval]
                        if ins.opname == "STORE_SUBSCR" and before is not None:
                            keys = [before.argval] if before.opname == "LOAD_CONST" else augmented
                            if keys and type(keys[0]) is type(name) and keys[0] == name:
                                found.append((path, line))
                            augmented = []
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
