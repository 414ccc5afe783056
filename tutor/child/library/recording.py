"""Learner calls recorded instead of run: a sequence of plain Python calls traced together into
one jaxpr. Python runs exactly as it would eagerly (closures, globals, counters all move), but
no operation is compiled: `Recording.same` proves two results are one computation (the same
operations, in the same order, on the same inputs and constants), and `Recording.values`
gives the numbers, one compile for the whole recording, only when a message needs them.

Why: run without jit, every operation of a learner's step compiles once per shape on a first
run (adam's `pure` check: 14 programs, a quarter of its first verdict), for numbers that are
then only compared with each other."""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable
from typing import Any

import jax
import numpy as np
from jax.extend import core as jex

from tutor.child.library.jaxprs import donates, primitive_names
from tutor.child.library.originals import jit, make_jaxpr

# Operations whose result is not a function of their operands: two equal records of them
# prove nothing, so their results are compared by value. (Callbacks: see calls_python.)
_NOT_FUNCTIONS = ("rng_uniform",)


def traced_call(fn: Callable, *args: Any) -> Any:
    """fn(*args) traced, never compiled: what it returns, with abstract arrays (tracers) as
    leaves. For a check that reads only an output's structure, shapes and dtypes; any
    output is returned as it is, where eval_shape would reject one that is not a JAX type."""
    box: list = []

    def keep(*a):
        box.append(fn(*a))

    make_jaxpr(keep)(*args)
    return box[0]


class Recording:
    """fn(*args) traced once into a jaxpr: `outputs` is fn's result with a fingerprint for
    every leaf, equal for two leaves only if they are provably the same computation.

    One limit: a NumPy array the calls read enters the program as a view of that array, so if
    Python changed it in place between two reads (a counter kept as `n += 1` on an array), the
    program sees only its last value. Such an array outlives a call, where a snapshot of what
    the code can reach (tutor.child.reach) sees it change: where one did, run the calls for real."""

    def __init__(self, fn: Callable, *args: Any):
        self._args = jax.tree.leaves(args)
        self._closed, shape = make_jaxpr(fn, return_shape=True)(*args)
        # A callback runs Python when the program runs, not while it is traced, and a compiled
        # program may merge or reorder pure ones: their calls must run for real.
        # Nothing that depends on one is proved, so every output counts as unproved then.
        self.calls_python = bool(self._closed.effects) or any("callback" in n for n in primitive_names(self._closed))
        self._tree = jax.tree.structure(shape)
        self.donates = donates(self._closed)  # a jitted call inside would delete inputs, run for real
        prints = _fingerprints(self._closed)
        if self.calls_python:
            prints = [f"?{i}" for i in range(len(prints))]
        self.outputs = jax.tree.unflatten(self._tree, prints)

    def same(self, a: Any, b: Any) -> bool:
        """Whether two parts of `outputs` are provably equal: same structure, every leaf the
        same computation. False means only "not proved": compare `values` then."""
        la, lb = jax.tree.leaves(a), jax.tree.leaves(b)
        return jax.tree.structure(a) == jax.tree.structure(b) and all(x == y for x, y in zip(la, lb, strict=True))

    def values(self) -> Any:
        """fn's results as numbers: the recorded program compiled once and run, so every call
        computes what it computed while recorded (Python does not run again)."""
        flat = jit(jex.jaxpr_as_fun(self._closed))(*self._args)
        return jax.tree.unflatten(self._tree, flat)


def _fingerprints(closed: Any) -> list[str]:
    """A fingerprint for every output of a closed jaxpr: a hash of the expression that computes
    it, inputs named by position and constants by value; `?n` (equal to nothing) where part of
    the expression cannot be pinned down."""
    jaxpr = closed.jaxpr
    names: dict = {v: f"in{i}" for i, v in enumerate(jaxpr.invars)}
    names.update({v: "const:" + _digest(c) for v, c in zip(jaxpr.constvars, closed.consts, strict=True)})
    unprovable = 0

    def term(x: Any) -> str:
        if isinstance(x, jex.Literal):
            return f"lit:{x.aval}:{_digest(x.val)}"
        return names[x]

    for eqn in jaxpr.eqns:
        function = not any(word in eqn.primitive.name for word in _NOT_FUNCTIONS)
        params = _equation_params(eqn) if function else None
        if params is None:  # part of it cannot be pinned down: its results are compared by value
            unprovable += 1
            made = f"?{unprovable}"  # unique: equal to no other expression
        else:
            key = repr((eqn.primitive.name, params, [term(x) for x in eqn.invars]))
            made = hashlib.sha256(key.encode()).hexdigest()[:32]
        for j, out in enumerate(eqn.outvars):
            names[out] = f"{made}.{j}"
    return [term(v) for v in jaxpr.outvars]


# Parameter values of JAX's own types that say all they mean in their repr (no function inside).
_PLAIN_TYPES = {"UnspecifiedValue", "Mesh", "AbstractMesh", "ShapedArray", "NamedSharding", "PartitionSpec"}
# Primitives whose result is that of one sub-program; their other parameters are rules for
# differentiation (Python functions), which do not change the value.
_VALUE_OF = {"custom_jvp_call": "call_jaxpr", "custom_vjp_call": "call_jaxpr"}


def _equation_params(eqn: Any) -> tuple | None:
    part = _VALUE_OF.get(eqn.primitive.name)
    params = eqn.params if part is None else {part: eqn.params[part], "num_consts": eqn.params.get("num_consts")}
    return _canonical(params)


def _canonical(value: Any) -> tuple | None:
    """A value of an equation's parameters as plain data that equals another's only if both
    mean the same; sub-programs by the fingerprints of their outputs. None for anything that
    cannot be pinned down (a Python function, an effect, an object of unknown meaning), or that
    holds such a thing."""
    if isinstance(value, jex.ClosedJaxpr):
        if value.effects:
            return None
        return ("closed", len(value.jaxpr.invars), tuple(_fingerprints(value)))
    if isinstance(value, jex.Jaxpr):
        if value.effects or value.constvars:
            return None
        return ("jaxpr", len(value.invars), tuple(_fingerprints(jex.ClosedJaxpr(value, []))))
    if isinstance(value, (tuple, list, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, frozenset) else value
        parts = [_canonical(v) for v in items]
        return None if any(p is None for p in parts) else (type(value).__name__, tuple(parts))
    if isinstance(value, dict):
        pairs = [(k, _canonical(v)) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))]
        return None if any(c is None for _, c in pairs) else ("dict", tuple(pairs))
    if isinstance(value, (np.ndarray, jax.Array)):
        return ("array", _digest(value))  # a long array's repr elides its middle
    if value is None or isinstance(value, (str, bytes, bool, int, float, complex, np.dtype, np.generic, enum.Enum)):
        return (type(value).__name__, repr(value))
    if type(value).__name__ in _PLAIN_TYPES:
        return (type(value).__name__, repr(value))
    return None


def _digest(value: Any) -> str:
    arr = np.asarray(value)
    return f"{arr.dtype.str}{arr.shape}:" + hashlib.sha256(arr.tobytes()).hexdigest()[:24]
