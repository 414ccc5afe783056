"""The arguments of a call that made JAX trace one of the learner's jitted functions, as the
learner passed them, and what differs between two such calls: the doctor's own reason for a
retrace. JAX explains a cache miss against the *closest* key it has cached, which can be a key
from long ago and another kind of difference (a weak type, when what changed since the call
before was a new optimizer object); the learner changes the call they made last, so the
retrace is told against the previous trace of the same function, argument by argument.

Read at the cache miss, from the frame the learner's line called into (`Watched.__call__`,
`eqx.filter_jit`'s wrapper, `nnx.jit`'s): its parameters are the call's arguments. Nothing is
read on calls that hit the cache, so a step costs nothing more. Arrays are kept by type (shape,
dtype, weak type), never by value; other leaves (numbers, strings, objects a jit keeps static)
by reference, for identity and equality.
"""

from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass

import jax
import numpy as np

# How a difference can make JAX trace again, most decisive first: a new structure is a new
# program whatever else changed; a weak type is the mistake the chapter names; a value or a new
# object counts only where the jit keeps that argument static.
HOWS = ("structure", "shape", "weak-type", "new-object", "value")
REASON_OF = {
    "structure": "structure",
    "shape": "shape",
    "weak-type": "weak-type",
    "new-object": "static",
    "value": "static",
}
MAX_LEAVES = 20_000  # a call with more leaves than this is not described (a model of 20k arrays)
MAX_CHANGES = 3


@dataclass(frozen=True)
class Leaf:
    """One leaf of a call's arguments: an array by its type, anything else by reference."""

    kind: str  # "array" | "number" | "object"
    spelled: str  # f32[3], f32[]{weak}, 0.1, `Config`
    value: object = None  # numbers and objects: the leaf itself (arrays: None, never kept)


@dataclass(frozen=True)
class Call:
    """The arguments of one call, flattened: (path as the call wrote it, leaf), and the
    structure of each argument (`None` where it could not be flattened)."""

    leaves: tuple[tuple[str, Leaf], ...]
    structures: tuple[tuple[str, object], ...]  # (argument name, its treedef)
    types: tuple[tuple[str, str], ...] = ()  # (argument name, its class's name)


@dataclass(frozen=True)
class Change:
    """One difference between the previous trace's call and this one. For "new-object", `now`
    is what differs inside it: attributes (`lr: 0.1 -> 0.2`), the leaves made anew (`init,
    update`), or "" (the object alone)."""

    how: str  # one of HOWS
    path: str  # `optim`, `state.params['w']`, `x`
    before: str
    now: str

    def flat(self) -> tuple[str, str, str, str]:
        return self.how, self.path, self.before, self.now


def _short_dtype(dtype) -> str:
    try:
        name = np.dtype(dtype).name
    except TypeError:  # an extended dtype (a typed PRNG key's key<fry>)
        return str(dtype)
    for long, short in (("float", "f"), ("uint", "u"), ("int", "i"), ("complex", "c")):
        if name.startswith(long):
            return short + name[len(long) :]
    return "bool" if name == "bool" else name


def _type_name(value) -> str:
    cls = type(value)
    if isinstance(value, (types.FunctionType, types.MethodType)):
        return getattr(value, "__qualname__", cls.__name__)
    return cls.__qualname__


def describe(leaf) -> Leaf:
    """A leaf as the comparison needs it."""
    shape = getattr(leaf, "shape", None)
    dtype = getattr(leaf, "dtype", None)
    if shape is not None and dtype is not None and isinstance(leaf, (jax.Array, np.ndarray, np.generic)):
        weak = bool(getattr(leaf, "weak_type", False))
        spelled = f"{_short_dtype(dtype)}[{','.join(str(d) for d in shape)}]" + ("{weak}" if weak else "")
        return Leaf("array", spelled)
    if isinstance(leaf, (bool, int, float, complex)):
        return Leaf("number", f"{leaf!r} ({type(leaf).__name__})", leaf)
    if isinstance(leaf, (str, bytes, type(None))):
        return Leaf("object", repr(leaf)[:60], leaf)
    return Leaf("object", f"`{_type_name(leaf)}`", leaf)


def learners_callee(owns: Callable[[str], bool]) -> types.FrameType | None:
    """The frame the learner's innermost frame called into (the jit's wrapper), or None."""
    frame: types.FrameType | None = sys._getframe(1)
    inner = None
    while frame is not None and not owns(frame.f_code.co_filename):
        inner, frame = frame, frame.f_back
    return inner if frame is not None else None


def read(callee: types.FrameType, names: tuple[str, ...]) -> Call | None:
    """The call's arguments from the frame of the wrapper the learner called: its named
    parameters but `self`, its `*args` and `**kwargs`; positional ones named by `names` (the
    learner's function's positional parameters) where known. None if they cannot be read."""
    try:
        info = inspect.getargvalues(callee)
        own = callee.f_locals
        positional = [own[a] for a in info.args[1:]] if info.args[:1] in (["self"], ["cls"]) else []
        if not positional and info.args[:1] not in (["self"], ["cls"]):
            positional = [own[a] for a in info.args]
        if info.varargs:
            positional += list(own.get(info.varargs, ()))
        keywords = dict(own.get(info.keywords, {})) if info.keywords else {}
        if names[:1] in (("self",), ("cls",)) and len(positional) < len(names):
            names = names[1:]  # a bound method: its `self` is not among the call's arguments
        arguments = [(names[i] if i < len(names) else f"argument {i + 1}", a) for i, a in enumerate(positional)]
        arguments += list(keywords.items())
        leaves: list[tuple[str, Leaf]] = []
        kinds: list[tuple[str, str]] = []
        structures: list[tuple[str, object]] = []
        for name, value in arguments:
            flat, tree = jax.tree_util.tree_flatten_with_path(value)
            structures.append((name, tree))
            kinds.append((name, _type_name(value)))
            for path, leaf in flat:
                leaves.append((name + jax.tree_util.keystr(path), describe(leaf)))
                if len(leaves) > MAX_LEAVES:
                    return None
        return Call(tuple(leaves), tuple(structures), tuple(kinds))
    except Exception:  # noqa: BLE001 - an argument that cannot be flattened: no comparison
        return None


def _equal(a, b) -> bool:
    """Whether JAX's cache would take `b` for `a` as a static value (equal, same hash)."""
    if a is b:
        return True
    try:
        same = a == b
        return same is True and hash(a) == hash(b)
    except Exception:  # noqa: BLE001 - unhashable or not comparable: never the same key
        return False


def _object_detail(before, now) -> str:
    """What differs inside a new object of the same class, spelled without words (the parent
    words it): its attributes a level deep (`lr: 0.1 -> 0.2`), or "" (a function made anew)."""
    if isinstance(now, types.FunctionType) and isinstance(before, types.FunctionType):
        return ""  # a function made anew (a closure of the same code, or another function)
    old, new = getattr(before, "__dict__", None), getattr(now, "__dict__", None)
    if not isinstance(old, dict) or not isinstance(new, dict):
        return ""
    said = []
    for name, value in new.items():
        if name.startswith("_") or name not in old or _equal(old[name], value):
            continue
        if isinstance(value, (bool, int, float, str)):
            said.append(f"{name}: {old[name]!r} -> {value!r}")
        else:
            said.append(f"{name}: a new `{_type_name(value)}`")
    return ", ".join(said[:3])


_PYTHON_NUMBERS = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}


def _as_traced(number: Leaf) -> str:
    """The type jax.jit gives a Python number: f32[]{weak} for a float (x64 off), bool[] for a bool."""
    try:
        dtype = jax.dtypes.canonicalize_dtype(_PYTHON_NUMBERS[type(number.value)])
    except (KeyError, TypeError):
        return number.spelled
    return f"{_short_dtype(dtype)}[]" + ("" if type(number.value) is bool else "{weak}")


def _leaf_change(path: str, old: Leaf, new: Leaf) -> Change | None:
    if old.kind == "array" and new.kind == "array":
        if old.spelled == new.spelled:
            return None
        weak_only = old.spelled.replace("{weak}", "") == new.spelled.replace("{weak}", "")
        return Change("weak-type" if weak_only else "shape", path, old.spelled, new.spelled)
    if {old.kind, new.kind} == {"array", "number"}:  # a Python number is a weakly typed scalar to jax.jit
        was, now = (
            (_as_traced(old) if old.kind == "number" else old.spelled),
            (_as_traced(new) if new.kind == "number" else new.spelled),
        )
        if was == now:
            return None
        weak_only = was.replace("{weak}", "") == now.replace("{weak}", "")
        return Change("weak-type" if weak_only or "{weak}" in was + now else "shape", path, old.spelled, new.spelled)
    if old.kind == "number" and new.kind == "number":
        if type(old.value) is not type(new.value):
            return Change("shape", path, old.spelled, new.spelled)
        return None if old.value == new.value else Change("value", path, old.spelled, new.spelled)
    if old.kind == "object" and new.kind == "object":
        if _equal(old.value, new.value):
            return None
        if type(old.value) is type(new.value) and not isinstance(old.value, (str, bytes, type(None))):
            return Change("new-object", path, old.spelled, _object_detail(old.value, new.value))
        return Change("value", path, old.spelled, new.spelled)
    return Change("shape" if "array" in (old.kind, new.kind) else "value", path, old.spelled, new.spelled)


def _structure_changes(before: Call, now: Call) -> list[Change]:
    out = []
    old_args = dict(before.structures)
    for name, tree in now.structures:
        if name not in old_args:
            out.append(Change("structure", name, "absent", "given"))
        elif old_args[name] != tree:
            old_paths = [p for p, _ in before.leaves if _argument_of(p) == name]
            new_paths = [p for p, _ in now.leaves if _argument_of(p) == name]
            gone = [p for p in old_paths if p not in set(new_paths)]
            came = [p for p in new_paths if p not in set(old_paths)]
            if gone or came:
                out.append(Change("structure", name, ", ".join(gone[:2]) or "-", ", ".join(came[:2]) or "-"))
            else:  # the same leaves under other static metadata (a static field, a NamedTuple's class)
                out.append(Change("structure", name, "", ""))
    for name, _ in before.structures:
        if name not in dict(now.structures):
            out.append(Change("structure", name, "given", "absent"))
    return out


def _argument_of(path: str) -> str:
    for i, ch in enumerate(path):
        if ch in "[.":
            return path[:i]
    return path


def _by_argument(changes: list[Change], types_of: dict[str, str]) -> list[Change]:
    """Several leaves of one argument made anew (an optax transformation's init and update,
    a model's functions) said once, at the argument: `optim` is a new object."""
    out: list[Change] = []
    grouped: dict[str, list[Change]] = {}
    for c in changes:
        if c.how == "new-object" and _argument_of(c.path) != c.path:
            grouped.setdefault(_argument_of(c.path), []).append(c)
        else:
            out.append(c)
    for name, parts in grouped.items():
        if len(parts) == 1:
            out.append(parts[0])
            continue
        leaves = ", ".join(p.path[len(name) :].lstrip(".") for p in parts[:4])
        out.append(Change("new-object", name, f"`{types_of.get(name, '?')}`", leaves))
    return out


def differences(before: Call, now: Call) -> list[Change]:
    """What differs between the previous trace's call and this one, most decisive first: at
    most MAX_CHANGES (the first of each kind, then the rest). Numbers whose value alone changed
    are listed only when nothing else did (under `jax.jit` they are traced, not static)."""
    changes = _structure_changes(before, now)
    if not changes:
        old = dict(before.leaves)
        for path, leaf in now.leaves:
            if path in old:
                change = _leaf_change(path, old[path], leaf)
                if change is not None:
                    changes.append(change)
    changes = _by_argument(changes, dict(now.types))
    changes.sort(key=lambda c: HOWS.index(c.how))
    if any(c.how != "value" for c in changes):
        changes = [c for c in changes if c.how != "value" or not c.before.endswith(("(float)", "(int)", "(bool)"))]
    return changes[:MAX_CHANGES]


def reason(changes: list[Change]) -> str | None:
    """The retrace's reason (a FindingCode) from the most decisive change, or None."""
    return REASON_OF[changes[0].how] if changes else None
