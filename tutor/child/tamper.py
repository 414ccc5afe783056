"""What the worker's code relies on, as it was before learner code ran, and putting it back.

Learner code runs in the judging process and can rebind what judges it: a function of the check
library or of the exercise's checks.py, the harness's own functions, a method of a protocol
class, NumPy's isclose, or the code object of any of these. Two kinds of namespace are kept:

- the environment (builtins, jax, NumPy's top level): put back quietly, since a learner's file
  may change it for reasons of its own (replacing `print`, `jax.jit` for debugging);
- the judge (the check library, checks.py, the harness, the channel, the protocol, the NumPy
  functions the library compares with): put back too, and what had to be put back is recorded,
  since no program changes these by accident. The harness then ends the run as tampering:
  restoring alone would let a check that ran with a no-op `close` pass.

`restore()` runs before and after every call into learner code that the harness makes (loading
the file, each check) and before each result is sent. What it cannot see: a change made and
undone within one check, and anything done through ctypes (RELIABILITY.md).
"""

from __future__ import annotations

import gc
import operator
import types
from itertools import repeat

_MISSING = object()
# (module or class, its namespace then, whether it is part of the judge, names it rebinds itself,
# and the namespace's names and values then as two tuples: what the quick look compares)
_namespaces: list[tuple[object, dict, bool, tuple[str, ...], tuple[str, ...], tuple]] = []
# every judge function with what a learner could swap inside it
_functions: list[tuple[types.FunctionType, tuple]] = []
# The quick look at them: every object each function holds (its code, defaults, kw-defaults, and
# its globals, name, dict...), as gc sees them, in one flat list compared by identity in C. Reading
# `fn.__code__` instead raises an audit event each time, and every event passes through the fence's
# Python hooks: restore runs a dozen times a run over ~620 functions, and those ~32,000 events cost
# 17-37 ms of a warm verdict. gc.get_referents(a, b) is a's list then b's: keep() extends it.
_held: list = []
_seen: set[int] = set()
changed: list[str] = []  # the judge's parts learner code changed, as "module.name", in the order found


def _parts(fn: types.FunctionType) -> tuple:
    return fn.__code__, fn.__defaults__, fn.__kwdefaults__


def keep(target: object, judge: bool, own_state: tuple[str, ...] = ()) -> None:
    """Remember `target` (a module or a class) as it is now; for the judge, also its classes and
    functions. `own_state`: names the module itself rebinds as it works (left as they are)."""
    if id(target) in _seen:
        return
    _seen.add(id(target))
    saved = {k: v for k, v in vars(target).items() if k not in own_state}
    _namespaces.append((target, saved, judge, own_state, tuple(saved), tuple(saved.values())))
    if not judge:
        return
    for value in saved.values():
        if isinstance(value, types.FunctionType) and id(value) not in _seen:
            _seen.add(id(value))
            _functions.append((value, _parts(value)))
            _ = vars(value), value.__annotations__  # made on first use: made now, not in the look
            _held.extend(gc.get_referents(value))
        elif isinstance(value, type) and _ours(value, target):
            keep(value, judge=True)  # its methods are functions in its namespace


def _ours(cls: type, target: object) -> bool:
    """A class of the tutor's, or defined in the judged module itself (checks.py's own)."""
    module = str(getattr(cls, "__module__", ""))
    return module.startswith("tutor.") or module == getattr(target, "__name__", None)


def _name(target: object, name: str) -> str:
    if isinstance(target, type):
        return f"{target.__module__}.{target.__qualname__}.{name}"
    return f"{getattr(target, '__name__', '?')}.{name}"


def restore() -> list[str]:
    """Put back every kept namespace and judge function; returns what of the judge had changed
    (also added to `changed`)."""
    found: list[str] = []
    for target, saved, judge, own_state, names, values in _namespaces:
        current = vars(target)
        if _as_kept(current, names, values, judge, own_state):
            continue
        for name, value in saved.items():
            if current.get(name, _MISSING) is not value:
                if judge:
                    found.append(_name(target, name))
                try:
                    setattr(target, name, value)
                except (AttributeError, TypeError):
                    pass
        if judge:
            for name in [n for n in current if n not in saved and n not in own_state]:
                if _added_by_learner(target, name, current[name]):
                    found.append(_name(target, name))
                    try:
                        delattr(target, name)
                    except (AttributeError, TypeError):
                        pass
    if not _functions_as_kept():
        for fn, parts in _functions:
            if any(a is not b for a, b in zip(_parts(fn), parts)):
                found.append(f"{fn.__module__}.{fn.__qualname__}.__code__")
                fn.__code__, fn.__defaults__, fn.__kwdefaults__ = parts
        _take_look()  # as kept now: a __dict__ made on first use need not send every look here
    changed.extend(found)
    return found


def _as_kept(current, names: tuple[str, ...], values: tuple, judge: bool, own_state: tuple[str, ...]) -> bool:
    """The quick look: every kept name still holds the very object it held (by identity: an
    object's own __eq__ is learner code's to write), and in the judge no name was added beyond
    those the module rebinds itself. False sends restore() through the name-by-name walk."""
    if not all(map(operator.is_, map(current.get, names, repeat(_MISSING)), values)):
        return False
    return not judge or len(current) - len(names) == sum(map(current.__contains__, own_state))


def _look() -> list:
    return gc.get_referents(*(fn for fn, _ in _functions))


def _take_look() -> None:
    _held[:] = _look()


def _functions_as_kept() -> bool:
    """The quick look at the judge's functions: each holds the very objects it held when the
    look was taken. Any of its parts swapped (or a new one: a __dict__, an annotations dict made
    on first use) changes the list, and restore() then compares each function part by part."""
    now = _look()
    return len(now) == len(_held) and all(map(operator.is_, now, _held))


def _added_by_learner(target: object, name: str, value: object) -> bool:
    """A name that appeared in a judge namespace: a module's own submodules and Python's
    bookkeeping (`__warningregistry__`, a class's `__slotnames__`) appear legitimately; anything else shadows what the
    judge looks up (a builtin, a base class's method)."""
    if isinstance(value, types.ModuleType):
        return False
    if isinstance(target, types.ModuleType) and name.startswith("__") and name.endswith("__"):
        return False
    # copyreg caches a class's slot names on it the first time one of its objects is pickled or
    # copied (a course loaded from its pickle does it): it changes no lookup the judge makes.
    return not (isinstance(target, type) and name == "__slotnames__")
