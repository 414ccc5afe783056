"""Everything a learner's code can reach and change, and what a call changed in it.

A purity check compares a snapshot taken before calling the learner's functions with one taken
after. One level of module globals is not enough: a history hides in a mutable default argument
(`def f(x, _log=[])`), in a closure cell, in a function attribute, two dicts down in a global, or
in a `jax.Ref`, in a ContextVar's value, in a weakref dictionary, in what a cached zero-argument
function (`functools.cache`) hands back, or in a C object's own record (a hash fed each call, rows of
an SQLite database, a file written to). So the walk starts at the module's globals and follows, through containers of any
depth, the learner's own functions (defaults, closure cells, attributes, `__wrapped__`), classes
and instances, `functools.partial` objects and bound methods. It does not enter other modules
(jax, numpy): their state is not the learner's. Each mutable thing found is recorded under a path
that a learner can read ("LOG['runs']['calls']", "update_counter's default _log").
"""

from __future__ import annotations

import collections
import collections.abc
import contextvars
import functools
import hashlib
import io
import queue
import random
import sys
import threading
import types
import warnings
import weakref
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np

# A module with a large table must not make every purity check slow: the walk stops here, and
# what it has seen by then is still compared.
MAX_OBJECTS = 20_000
MAX_DEPTH = 8
MAX_ITEMS = 2_000  # elements of one container that are followed (all are counted)
CELL = "\x00cell"
_UNSET = object()  # a ContextVar with no value in this context
_CACHED = (functools._lru_cache_wrapper,)  # functools.cache / lru_cache
_VARIADIC = (
    0x04 | 0x08
)  # CO_VARARGS | CO_VARKEYWORDS  # a closure cell is recorded apart from the value it holds, under the same name


@dataclass(frozen=True)
class Seen:
    """One mutable object at one path: its identity and a fingerprint of what it holds."""

    obj_id: int
    kind: str
    fingerprint: tuple


def _is_tracer(x: Any) -> bool:
    return isinstance(x, jax.core.Tracer)


def _array_print(a: np.ndarray) -> tuple:
    return (a.shape, a.dtype.str, hashlib.blake2b(np.ascontiguousarray(a).tobytes(), digest_size=16).digest())


class _Walk:
    def __init__(self, home: str):
        self.home = home  # the learner module's __name__: only its functions and classes are entered
        self.found: dict[str, Seen] = {}
        self.visited: set[int] = set()
        self.keep: list[Any] = []  # keeps walked objects alive, so an id is not reused mid-walk

    def own(self, obj: Any) -> bool:
        return getattr(obj, "__module__", None) == self.home

    def record(self, path: str, obj: Any, kind: str, fingerprint: tuple) -> None:
        self.found.setdefault(path, Seen(id(obj), kind, fingerprint))

    def visit(self, path: str, obj: Any, depth: int) -> None:
        if not self.first_sight(obj, depth):
            return
        if self.fingerprinted(path, obj):
            return
        if self.entered_holder(path, obj, depth):
            return
        self.entered_code(path, obj, depth)

    def first_sight(self, obj: Any, depth: int) -> bool:
        """Whether `obj` is to be walked: within the limits, able to change, and not seen before (then kept)."""
        if depth > MAX_DEPTH or len(self.visited) >= MAX_OBJECTS:
            return False
        if isinstance(obj, (str, bytes, int, float, complex, bool, type(None), types.ModuleType)):
            return False
        if isinstance(obj, jax.Array) and not _is_tracer(obj):
            return False  # immutable; a rebinding is seen at the path that holds it
        if id(obj) in self.visited:
            return False
        self.visited.add(id(obj))
        self.keep.append(obj)
        return True

    def fingerprinted(self, path: str, obj: Any) -> bool:
        """An object whose state is bytes (a Ref, an array, a C buffer): recorded by what it holds."""
        if isinstance(obj, jax.Ref):
            try:
                value = np.asarray(obj[...])
            except Exception:  # noqa: BLE001 - a Ref that cannot be read (freed, frozen) is still named
                self.record(path, obj, "ref", ("unreadable",))
            else:
                self.record(path, obj, "ref", _array_print(value))
            return True
        if isinstance(obj, np.ndarray):
            self.record(path, obj, "array", _array_print(obj))
            return True
        if isinstance(obj, bytearray):
            self.record(path, obj, "bytes", (bytes(obj),))
            return True
        written = _writable_buffer(obj)
        if written is not None:  # array.array, a ctypes value or array, an mmap: a C buffer
            self.record(path, obj, "bytes", written)
            return True
        return False

    def entered_holder(self, path: str, obj: Any, depth: int) -> bool:
        """An object that holds others (a container, a context variable, an iterator's state):
        recorded, and what it holds walked. A cached function of the learner's is entered too,
        and then walked on as code."""
        if isinstance(obj, contextvars.ContextVar):  # its value lives in the context, not in it
            value = obj.get(_UNSET)
            self.record(path, obj, "contextvar", (id(value), _value_print(value)))
            if value is not _UNSET:
                self.visit(f"{path}.get()", value, depth + 1)
            return True
        if isinstance(obj, (weakref.WeakKeyDictionary, weakref.WeakValueDictionary)):
            self.container(path, obj, "dict", list(obj.items()), keyed=True, depth=depth)
            return True
        if isinstance(obj, weakref.WeakSet):
            self.container(path, obj, "set", list(enumerate(list(obj))), keyed=False, depth=depth)
            return True
        if isinstance(obj, _CACHED) and self.own(obj):
            self.cached(path, obj, depth)
        if isinstance(obj, threading.local):  # its attributes are this thread's: a counter set on it is state
            self.attributes(path, obj, dict(vars(obj)), depth)
            return True
        if isinstance(obj, (collections.UserDict, collections.UserList)):
            self.visit(path, obj.data, depth)  # the container the wrapper keeps, under its name
            return True
        if isinstance(obj, collections.ChainMap):
            self.visit(path, obj.maps, depth)
            return True
        if isinstance(obj, dict):
            self.container(path, obj, "dict", list(obj.items()), keyed=True, depth=depth)
            return True
        inner = _inner_state(obj)
        if inner is not None:  # an iterator, a generator, an IO buffer, a random generator
            fingerprint, parts = inner
            self.record(path, obj, "state", fingerprint)
            for name, part in parts:
                self.visit(f"{path}.{name}", part, depth + 1)
            return True
        if isinstance(obj, (list, collections.deque)):
            self.container(path, obj, "list", list(enumerate(obj)), keyed=False, depth=depth)
            return True
        if isinstance(obj, (set, frozenset)):
            items = sorted(obj, key=repr) if len(obj) <= MAX_ITEMS else list(obj)
            self.container(
                path, obj, "set", list(enumerate(items)), keyed=False, depth=depth, mutable=isinstance(obj, set)
            )
            return True
        if isinstance(obj, tuple):  # immutable itself, but it may hold a list (a NamedTuple state)
            for i, item in enumerate(obj[:MAX_ITEMS]):
                self.visit(f"{path}[{i}]", item, depth + 1)
            return True
        return False

    def entered_code(self, path: str, obj: Any, depth: int) -> None:
        """Functions, methods, partials, wrappers, and the learner's classes and their instances:
        what they close over and keep walked."""
        if isinstance(obj, functools.partial):
            self.visit(f"{path}.func", obj.func, depth + 1)
            for i, arg in enumerate(obj.args):
                self.visit(f"{path}.args[{i}]", arg, depth + 1)
            self.visit(f"{path}.keywords", obj.keywords, depth + 1)
            return
        if isinstance(obj, types.MethodType):
            self.visit(path, obj.__func__, depth)
            self.visit(f"{path}.__self__", obj.__self__, depth + 1)
            return
        if isinstance(obj, types.FunctionType):
            self.function(path, obj, depth)
            return
        wrapped = getattr(obj, "__wrapped__", None)  # jax.jit(f), functools.wraps
        if wrapped is not None and not isinstance(obj, type):
            self.visit(path, wrapped, depth)
        if isinstance(obj, type):
            if self.own(obj):
                self.attributes(path, obj, dict(vars(obj)), depth)
            return
        if self.own(type(obj)) or self.own(obj):  # an instance of the learner's class
            attrs = getattr(obj, "__dict__", None)
            if isinstance(attrs, dict):
                self.attributes(path, obj, attrs, depth)

    def cached(self, path: str, obj: Any, depth: int) -> None:
        """What a cached function hands back (`@functools.cache def log(): return []`, or
        `@lru_cache def log(name): return []` called as `log("adam").append(...)`): one object
        per argument for the whole process, which a call may fill. A function of no parameters is
        read as a hit, so that no learner code runs here; the results of one with parameters are
        the ones the cache holds (the C cache lends them to the garbage collector's walk, and
        nothing is called). A new entry is not a change (a cache of results may grow): what an
        entry holds is."""
        fn = getattr(obj, "__wrapped__", None)
        code = getattr(fn, "__code__", None)
        try:
            if code is None or not obj.cache_info().currsize:
                return
        except Exception:  # noqa: BLE001 - a cache that cannot be read is not followed
            return
        if code.co_argcount or code.co_kwonlyargcount or code.co_flags & _VARIADIC:
            for i, value in enumerate(_cached_results(obj)):
                self.visit(f"{path}(...) (cached result {i})", value, depth + 1)
            return
        try:
            value = obj()
        except Exception:  # noqa: BLE001 - a cache that cannot be read is not followed
            return
        self.visit(f"{path}()", value, depth + 1)

    def container(self, path, obj, kind, items, *, keyed, depth, mutable=True) -> None:
        if mutable:
            self.record(path, obj, kind, _fingerprint(items, keyed))
        for key, item in items[:MAX_ITEMS]:
            self.visit(f"{path}[{key!r}]", item, depth + 1)

    def attributes(self, path: str, obj: Any, attrs: dict, depth: int) -> None:
        shown = {k: v for k, v in attrs.items() if not (k.startswith("__") and k.endswith("__"))}
        self.record(path, obj, "attributes", _fingerprint(list(shown.items()), keyed=True))
        for name, value in shown.items():
            self.visit(f"{path}.{name}", value, depth + 1)

    def function(self, path: str, fn: types.FunctionType, depth: int) -> None:
        if not self.own(fn):
            return
        self.attributes(path, fn, dict(fn.__dict__), depth)
        # What the function object binds outside its __dict__: `f.__defaults__ = (t + 1,)` is a counter
        self.record(f"{path}.__defaults__", fn, "bindings", (id(fn.__defaults__), id(fn.__kwdefaults__)))
        self.record(f"{path}.__doc__", fn, "bindings", (id(fn.__doc__), id(fn.__code__)))
        code = fn.__code__
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        positional = names[: code.co_argcount]
        for name, value in zip(positional[len(positional) - len(fn.__defaults__ or ()) :], fn.__defaults__ or ()):
            self.visit(f"{path}'s default {name}", value, depth + 1)
        for name, value in (fn.__kwdefaults__ or {}).items():
            self.visit(f"{path}'s default {name}", value, depth + 1)
        for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell: a name not yet bound in the enclosing function
                continue
            shown = f"{name} (closed over by {path})"
            self.record(shown + CELL, cell, "cell", (id(value),))  # the binding: `nonlocal` rebinds it
            self.visit(shown, value, depth + 1)  # and what it holds


def _cached_results(wrapper: Any) -> list:
    """The results an lru_cache wrapper holds, read through gc.get_referents (which calls no
    Python code): an unbounded cache lends its dict (arguments -> result), a bounded one the key
    and result of each entry directly. Its own attributes, the function it wraps and types are
    not results; keys are hashable and walked harmlessly (nothing mutable is recorded in them)."""
    import gc

    own = (getattr(wrapper, "__dict__", None), getattr(wrapper, "__wrapped__", None))
    unbounded = wrapper.cache_info().maxsize is None
    out = []
    for ref in gc.get_referents(wrapper):
        if any(ref is o for o in own) or isinstance(ref, (type, types.FunctionType)):
            continue
        if unbounded:  # the one dict it lends is its cache: arguments -> result
            if isinstance(ref, dict):
                out.extend(list(ref.values())[:MAX_ITEMS])
            continue
        if isinstance(ref, dict) and ref and type(next(iter(ref.values()))).__name__ == "_lru_list_elem":
            continue  # a bounded cache's index: its entries' keys and results are lent one by one
        if not _is_scalar(ref) and type(ref) is not object:
            out.append(ref)
    return out


def _writable_buffer(obj: Any) -> tuple | None:
    """(length, digest) of the bytes of an object that lends a writable buffer, else None: a call
    log in `array.array('d')` or a counter in `ctypes.c_long` is state no container holds. The
    view is released at once (an array.array that lends one cannot grow)."""
    try:
        view = memoryview(obj)
    except (TypeError, ValueError, BufferError):
        return None
    with view:
        if view.readonly:
            return None
        data = view.tobytes()
    return (len(data), hashlib.blake2b(data, digest_size=16).digest())


def _inner_state(obj: Any) -> tuple[tuple, list[tuple[str, Any]]] | None:
    """(fingerprint, parts to walk) of an object whose state is not held in a container: a
    generator's frame, a C iterator's position (`itertools.count`, `iter(list)`), an IO buffer's
    text and position, a random generator's state, a hash, a database or a file written to
    (_c_record). None for anything else. A call log kept in
    `next(CALLS)` or `LOG.write(...)` is history just as `calls.append(...)` is."""
    if isinstance(obj, (io.StringIO, io.BytesIO)):
        if obj.closed:
            return ("closed",), []
        value = obj.getvalue()
        data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
        return (obj.tell(), hashlib.blake2b(data, digest_size=16).digest()), []
    if isinstance(obj, queue.SimpleQueue):  # a C queue: its length is all it tells
        return (obj.qsize(),), []
    kept = _c_record(obj)
    if kept is not None:
        return kept, []
    if isinstance(obj, random.Random):
        return (hash(obj.getstate()),), []
    if isinstance(obj, np.random.Generator):
        return (repr(obj.bit_generator.state),), []
    if isinstance(obj, np.random.RandomState):
        # legacy=False: a dict whatever the bit generator (the legacy tuple is MT19937's only, and
        # `RandomState(PCG64())` gave a dict anyway: state[1] raised KeyError); (key, pos) for MT19937
        state = obj.get_state(legacy=False)["state"]
        return tuple(_array_print(v) if isinstance(v, np.ndarray) else v for _, v in sorted(state.items())), []
    if isinstance(obj, (types.GeneratorType, types.CoroutineType)):
        frame = obj.gi_frame if isinstance(obj, types.GeneratorType) else obj.cr_frame
        if frame is None:  # finished: nothing left to change
            return ("finished",), []
        local = sorted(frame.f_locals.items())
        return (frame.f_lasti, tuple((n, _value_print(v)) for n, v in local)), [(f"<local {n}>", v) for n, v in local]
    if isinstance(obj, collections.abc.Iterator) and not isinstance(obj, io.IOBase):
        try:
            with warnings.catch_warnings():  # itertools' pickling is deprecated in 3.12
                warnings.simplefilter("ignore")
                reduced = obj.__reduce__()
        except Exception:  # noqa: BLE001 - an iterator that cannot say its state: its repr may
            reduced = ()
        shown = repr(obj)
        parts = [(f"<state {i}>", v) for i, v in enumerate(_flat(reduced[1:])) if not _is_scalar(v)]
        return (" at 0x" not in shown and shown, _value_print(reduced[1:])), parts
    return None


def _c_record(obj: Any) -> tuple | None:
    """What a C object that keeps a record says of it, else None: a hash fed each call (its digest
    so far), an SQLite database written each call (the rows it changed), a file written each call
    (its position). A step count kept as rows or bytes there is history like any list."""
    if _is_hash(obj):
        try:
            return ("hash", obj.copy().digest())
        except TypeError:  # shake_128 / shake_256 ask how long a digest
            return ("hash", obj.copy().digest(32))
    sqlite = sys.modules.get("sqlite3")  # only a program that imported it can hold a connection
    if sqlite is not None and isinstance(obj, sqlite.Connection):
        try:
            return ("sqlite", obj.total_changes, obj.in_transaction)
        except sqlite.ProgrammingError:  # closed: nothing more to change
            return ("sqlite", "closed")
    if isinstance(obj, io.IOBase):  # (StringIO and BytesIO are read by their text, above)
        if any(obj is stream for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)):
            return ("file", "output")  # printing is output, wherever the streams lead
        try:
            if obj.closed or not obj.writable():  # one read over and over is not a record
                return ("file", "not written")
            return ("file", obj.tell())
        except (OSError, ValueError):
            return ("file", "unreadable")
    return None


def _is_hash(obj: Any) -> bool:
    """hashlib's objects and hmac's: updated in place, read back by a digest of a copy."""
    return all(callable(getattr(obj, m, None)) for m in ("update", "digest", "copy")) and isinstance(
        getattr(obj, "digest_size", None), int
    )


def _is_scalar(v: Any) -> bool:
    return isinstance(v, (str, bytes, int, float, complex, bool, type(None)))


def _flat(value: Any) -> list:
    if isinstance(value, tuple):
        return [x for v in value for x in _flat(v)]
    return [value]


def _value_print(value: Any) -> Any:
    """Scalars by value, tuples element by element, anything else by a short repr that names no
    address (`__reduce__` may build a new `range` each time), else by identity."""
    if _is_scalar(value):
        return value
    if isinstance(value, tuple):
        return tuple(_value_print(v) for v in value)
    try:
        shown = repr(value)
    except Exception:  # noqa: BLE001 - an object whose repr fails is told by identity
        shown = " at 0x"
    return shown if len(shown) < 200 and " at 0x" not in shown else ("id", id(value))


def _fingerprint(items: list, keyed: bool) -> tuple:
    """The length and, per element, the identity of what is held (and the key): replacing an
    element counts as a change even when the new one compares equal."""
    rows = []
    for key, value in items:
        rows.append((repr(key) if keyed else key, id(value), "tracer" if _is_tracer(value) else ""))
    return (len(items), tuple(rows))


def snapshot(module: Any) -> dict[str, Seen]:
    """Every mutable object the module's globals (or an object's attributes) lead to, by path."""
    home = getattr(module, "__name__", None) if isinstance(module, types.ModuleType) else type(module).__module__
    names = vars(module) if hasattr(module, "__dict__") else {}
    return snapshot_of({n: v for n, v in names.items() if not n.startswith("__")}, home or "")


def snapshot_of(roots: dict[str, Any], home: str) -> dict[str, Seen]:
    """Every mutable object the named roots lead to (functions a factory returned, such as an
    optimizer's init and update, whose closures no module global reaches); `home` is the
    learner module's name, whose functions and classes are entered."""
    walk = _Walk(home)
    for name, value in list(roots.items()):
        walk.visit(name, value, 0)
    return walk.found


@dataclass(frozen=True)
class Changed:
    """One path whose contents a call changed; `tracers` when what was added is a tracer."""

    path: str
    kind: str
    tracers: bool


def changed_since(module: Any, before: dict[str, Seen], after: dict[str, Seen] | None = None) -> list[Changed]:
    """The paths, reachable both before and after, whose object holds something else now. (A path
    that appears, disappears or points at another object is a consequence of a change at its
    parent, which is reported.)"""
    after = snapshot(module) if after is None else after
    out: list[Changed] = []
    for path in sorted(set(before) & set(after)):
        b, a = before[path], after[path]
        if b.obj_id != a.obj_id:
            continue  # rebinding: the parent's fingerprint (or the global itself) has changed
        if b.fingerprint != a.fingerprint:
            tracers = a.kind in ("dict", "list", "set", "attributes") and any(
                r[2] == "tracer" for r in a.fingerprint[1]
            )
            shown = path.removesuffix(CELL)
            if not any(c.path == shown for c in out):
                out.append(Changed(shown, a.kind, tracers))
    return out
