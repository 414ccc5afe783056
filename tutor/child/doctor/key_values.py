"""The key-reuse detector's values (tutor.child.doctor.keys): a key's bits and rows, how a key
inside a trace is made from the traced function's arguments (a recipe), and the trace and loop
the detector is inside."""

from __future__ import annotations

import sys
import types
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import jax
import numpy as np

Site = tuple[str, str, int]  # (file, function, line) of the learner's
Frames = tuple[
    tuple[str, str, int, int], ...
]  # the learner's frames, innermost first: (file, function, line, def line)
READ_BATCH = 512  # calls whose keys are read in one program, after the run  # key arrays kept to read after the run; beyond, calls are not watched


def _is_typed_key(key) -> bool:
    dtype = getattr(key, "dtype", None)
    return dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key)


def _is_key(value) -> bool:
    """A typed key, or a raw one (uint32, last axis 2)."""
    if _is_typed_key(value):
        return True
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    return dtype == np.uint32 and shape is not None and bool(shape) and shape[-1] == 2


DEVICE_READS = [0]  # the doctor's own copies of keys to the host (the transfer witness discounts them)


def _bits(key) -> bytes | None:
    """The key's bits (a concrete key), or None."""
    DEVICE_READS[0] += 1
    try:
        data = jax.random.key_data(key) if _is_typed_key(key) else key
        if getattr(data, "dtype", None) != np.uint32:
            return None
        return np.asarray(data).tobytes()
    except Exception:  # noqa: BLE001 - deleted, or not a key we can read
        return None


def _data(values: list) -> list[tuple[np.ndarray, object]]:
    """Concrete keys' uint32 data and PRNG implementation (None: a raw key, or a number). One
    argument's values across calls share their type, so it is asked once (5 us a key, not 15)."""
    if not values:
        return []
    if not _is_typed_key(values[0]):
        return [(np.asarray(v), None) for v in values]
    impl = jax.random.key_impl(values[0])
    out: list[tuple[np.ndarray, object]] = []
    for value in values:
        base = getattr(value, "_base_array", None)  # the key's own data: no program to run
        out.append((np.asarray(base if base is not None else jax.random.key_data(value)), impl))
    return out


def _constant_in_trace(value) -> bool:
    """A tracer that depends on none of the trace's inputs (a constant staged into the jaxpr)."""
    try:
        return value._trace.frame.find_progenitors(value) == (None, None)
    except Exception:  # noqa: BLE001 - another kind of trace, or another JAX: not followed
        return False


def _rows(keys) -> list[bytes]:
    """The bits of each key of a stacked batch of keys."""
    data = np.asarray(jax.random.key_data(keys) if _is_typed_key(keys) else keys)
    return [row.tobytes() for row in data.reshape(data.shape[0], -1)]


def _unbatched(key) -> tuple[object, int] | None:
    """For a key consumed under vmap: the batch of keys it maps over and its batch axis."""
    try:
        from jax._src.interpreters import batching
    except ImportError:
        return None
    if not isinstance(key, batching.BatchTracer) or not isinstance(key.batch_dim, int):
        return None
    return key.val, key.batch_dim


def _repeated_rows(batch, axis: int) -> int:
    """How many keys of a batch repeat an earlier key of it (0: every row its own key)."""
    data = np.asarray(jax.random.key_data(batch) if _is_typed_key(batch) else batch)
    data = np.moveaxis(data, axis, 0)
    rows = [row.tobytes() for row in data.reshape(data.shape[0], -1)]
    return len(rows) - len(set(rows))


def _current_trace():
    from jax._src import core

    return core.trace_ctx.trace


def _under_grad() -> bool:
    """Whether a differentiation (grad, value_and_grad, vjp, jvp) is tracing right now."""
    trace = _current_trace()
    for _ in range(64):
        if trace is None:
            return False
        name = type(trace).__name__
        if "JVP" in name or "Linearize" in name:
            return True
        trace = getattr(trace, "parent_trace", None)
    return False


@dataclass
class Use:
    """One consumption of a key: its bits (or the array to read them from), where, and whether it
    is part of a step (in a loop of its own function, a call that feeds its result back, under
    grad)."""

    site: Site
    bits: bytes | None = None
    array: tuple[Recipe, dict[int, object]] | None = None  # (recipe, its arrays by leaf) until read
    step: bool = False
    seq: int = 0  # when, among all uses (calls are read after the run, out of order)
    at: Site | None = None  # where a finding points, if not `site`: the call that passed the key
    grad: bool = False  # consumed while a differentiation traced (the gradient of a value)
    # eagerly: the learner's frames from the use outwards, (file, function, line, its def line)
    frames: Frames = ()
    draw: int = 0  # eagerly: what it drew besides the key (shapes, counts), as a number (0: not known)

    @property
    def place(self) -> Site:
        return self.at or self.site


# How a key inside a trace is made from the traced function's arguments, so that a call can
# tell which key it consumes: ("leaf", i) the i-th argument leaf; ("const", n) a number;
# ("fold_in", key, data) (an nnx.Rngs stream: its base key folded with its count).
Recipe = tuple


def _evaluate(recipe: Recipe, leaves: dict[int, object]):
    kind = recipe[0]
    if kind == "leaf":
        return leaves[recipe[1]]
    if kind == "const":
        return recipe[1]
    return jax.random.fold_in(_evaluate(recipe[1], leaves), _evaluate(recipe[2], leaves))


def _by_leaf(needed: Sequence[int], given: object) -> dict[int, object]:
    """A call's arrays by leaf: `given` is the one array, or a tuple of them in `needed`'s order."""
    if len(needed) > 1 and isinstance(given, tuple):
        return dict(zip(needed, given))
    return dict(zip(needed, (given,)))


def _leaves_of(recipe: Recipe) -> set[int]:
    if recipe[0] == "leaf":
        return {recipe[1]}
    if recipe[0] == "const":
        return set()
    return _leaves_of(recipe[1]) | _leaves_of(recipe[2])


def _substitute(recipe: Recipe, outer) -> Recipe | None:
    """An inner trace's recipe in terms of the outer trace (`outer(i)`: the outer recipe of the
    inner function's i-th argument leaf, or None)."""
    if recipe[0] == "leaf":
        return outer(recipe[1])
    if recipe[0] == "const":
        return recipe
    key, data = _substitute(recipe[1], outer), _substitute(recipe[2], outer)
    return None if key is None or data is None else ("fold_in", key, data)


@dataclass
class Traced:
    """What one trace of a jitted function consumed: keys made from its arguments (by recipe, for
    one argument structure), and keys it holds as constants."""

    inputs: dict[Recipe, tuple[Site, bool]] = field(default_factory=dict)  # -> (site, under grad)
    constants: list[tuple[bytes, Site, bool]] = field(default_factory=list)
    # argument leaves that are batches of keys a vmap maps over: leaf -> (where consumed, batch axis)
    batched: dict[int, tuple[Site, int]] = field(default_factory=dict)
    # what a call records, worked out once: (recipe, site, under grad, the argument leaves it needs)
    plan: list[tuple[Recipe, Site, bool, tuple[int, ...]]] | None = None

    def planned(self) -> list[tuple[Recipe, Site, bool, tuple[int, ...]]]:
        if self.plan is None:
            self.plan = [(r, site, grad, tuple(sorted(_leaves_of(r)))) for r, (site, grad) in self.inputs.items()]
        return self.plan


class _Trace:
    """A trace of a watched function in progress: its argument leaves by identity, and keys
    folded from them."""

    def __init__(self, leaves: list):
        self.keep = list(leaves)  # kept alive, so that their ids stay theirs
        self.recipes: dict[int, Recipe] = {
            id(leaf): ("leaf", i) for i, leaf in enumerate(leaves) if isinstance(leaf, jax.core.Tracer)
        }
        self.traced = Traced()
        self.seen: dict[int, tuple[object, Site, bool]] = {}  # id(consumed tracer) -> (it, where, under grad)
        self.frames: dict[int, Frames] = {}  # id(consumed tracer) -> the learner's frames where it was
        self.opaque = 0  # numbers fixed at trace time whose value is not known here

    def recipe_of(self, value) -> Recipe | None:
        if isinstance(value, jax.core.Tracer):
            return self.recipes.get(id(value))
        try:
            return ("const", int(value))
        except Exception:  # noqa: BLE001 - not a number: not followed
            return None

    def folded(self, key, data, out, site: Site | None) -> None:
        key_recipe, data_recipe = self.recipe_of(key), self.recipe_of(data)
        if data_recipe is None and site is not None and _constant_in_trace(data):
            # A number fixed when traced whose value JAX keeps to itself (flax Linen folds a
            # stream's name in as jnp.uint32(hash)): the same on every call, so a stand-in
            # number tells calls apart exactly as the real one would.
            self.opaque += 1
            data_recipe = ("const", zlib.crc32(f"{site}:{self.opaque}".encode()))
        if key_recipe is not None and key_recipe[0] != "const" and data_recipe is not None:
            self.keep.append(out)
            self.recipes[id(out)] = ("fold_in", key_recipe, data_recipe)


class _Loop:
    def __init__(self, outer):
        self.outer = outer  # the trace the loop primitive was called under
        self.drew = False  # its body consumed a key
        self.consumed: dict[int, tuple[object, Site, bool]] = {}  # id(key tracer) -> (it, where, split), in the body
        self.body_code: types.CodeType | None = None
        self.site: Site | None = None  # the learner's line that called the loop
        self.handed_back = False  # its body handed a key it consumed back unsplit (a loop-constant finding)

    def line_in_body(self) -> Site | None:
        """The line of the loop's body running now (it, or a function it called, consumes a key)."""
        frame: types.FrameType | None = sys._getframe(1)
        while frame is not None and frame.f_code is not self.body_code:
            frame = frame.f_back
        return None if frame is None else (frame.f_code.co_filename, frame.f_code.co_name, frame.f_lineno)


# Where each loop's body takes its carry, and where its result holds the new carry.
def _scan_carries(args, out):
    return args[0], out[0] if isinstance(out, tuple) and out else None


def _fori_carries(args, out):
    return args[1], out


def _while_carries(args, out):
    return args[0], out


LOOP_BODIES = {"scan": (0, _scan_carries), "fori_loop": (2, _fori_carries), "while_loop": (1, _while_carries)}


def _one_computation(uses: list[Use]) -> list[Use]:
    """A key's uses, with a value and its own gradient counted once: the same key consumed at
    the same line once plainly and once under grad, one right after the other (`loss(w, key)`
    then `jax.grad(loss)(w, key)`: the gradient of exactly that value)."""
    out: list[Use] = []
    paired = False
    for use in uses:
        last = out[-1] if out else None
        if not paired and last is not None and last.site == use.site and last.grad != use.grad:
            paired = True
            continue
        out.append(use)
        paired = False
    return out
