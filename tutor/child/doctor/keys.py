"""Detector: a PRNG key consumed more often than it was made, told apart from a key kept
constant on purpose.

Not `jax_debug_key_reuse`: it raises (the script would stop), sees typed keys only and on JAX
0.10.2 misses reuse across jitted calls. Instead the public jax.random consumers (split, normal,
... not fold_in, which JAX's own checker treats as a source) say which key they consume:

- eagerly, its bits are read there and then;
- inside a jitted function, nothing is added to the compiled program (a host callback per key
  made a jitted step 13-16x slower). While the function is traced, each consumed key is matched
  to the argument it came from; each later call of the function then records the key it was
  given for that argument (read lazily, after the run). A key made from a constant inside the
  function counts once per call;
- inside a loop body (lax.scan / fori_loop / while_loop), a key the body closes over, or one it
  consumes from its carry and hands back unsplit, is the same key on every pass: reused,
  without running anything;
- one key consumed twice within one trace is reused, whatever its value.

Findings with one root are one finding: a reuse whose key was split or folded (eagerly) from a
key that is itself reused is part of that root's finding. A root whose every use is at one line,
in a function called again with the same key whose result does not feed its next call, and not
differentiated, is a key kept constant on purpose (a fixed evaluation key, a key cloned to
reproduce samples): a note, not a finding. Anything else is reuse: the same key consumed at two
places, on every pass of a loop around it, in a state step (`state = step(state, key)`), or
under `grad`. A key a jitted function takes is its caller's to vary: its reuse is reported at
the learner's call that passed it again (judged, one place or several, by where it is consumed).

A key made from one seed is fresh once per seeding: each time a different line makes that seed
again, the chain of keys split from it starts over (demo cells that each seed PRNGKey(0) are
demos), while PRNGKey(1) made anew on every pass of a loop by one line and fed to a step is one
key reused, reported where it is made; a jitted step that returns the key argument it consumed
(the caller's next step gets it again) is reported at its return. A value and its own gradient
drawn with one key (`loss(w, key)` then `jax.grad(loss)(w, key)`, at the same line, one plainly
and one under grad) are one use. A reuse names the line that made the key (the seed, or the
state's constructor that holds it) besides the line where it came back.

Cannot see: keys split inside a jitted function from a reused key and consumed there are judged
by that key; consumers libraries reach through jax._src; `jax.checkpoint` replays are fine.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import sys
import threading
import types
import weakref
import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import jax
import numpy as np

from tutor.child.doctor.hooks import Hooks, asks_donation, staging
from tutor.child.doctor.script_code import ScriptCode
from tutor.protocol import Finding, FindingCode

# jax.random functions that consume their key. fold_in is left out on purpose: JAX's own
# checker treats it as a source only, and fold_in(base_key, step) is the idiomatic pattern.
KEY_CONSUMERS = (
    "split",
    "bits",
    "normal",
    "uniform",
    "bernoulli",
    "randint",
    "categorical",
    "permutation",
    "choice",
    "truncated_normal",
    "gumbel",
    "exponential",
    "gamma",
    "beta",
    "dirichlet",
    "laplace",
    "logistic",
    "poisson",
    "multivariate_normal",
    "cauchy",
    "t",
    "ball",
    "orthogonal",
    "rademacher",
    "maxwell",
    "double_sided_maxwell",
    "pareto",
    "weibull_min",
    "loggamma",
    "chisquare",
    "f",
    "geometric",
    "lognormal",
    "triangular",
    "rayleigh",
    "wald",
    "binomial",
    "generalized_normal",
    "multinomial",
)
KEY_MAKERS = ("PRNGKey", "key")
KEY_DERIVERS = ("split", "fold_in")  # their outputs' parents, when run eagerly (for roots)
LOOPS = ("scan", "fori_loop", "while_loop")
RECENT_FRAMES = 64
KEPT_ARRAYS = 50_000
READ_BATCH = 512  # calls whose keys are read in one program, after the run  # key arrays kept to read after the run; beyond, calls are not watched

Site = tuple[str, str, int]  # (file, function, line) of the learner's


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
        self.consumed: dict[int, tuple[object, Site]] = {}  # id(key tracer) -> (it, where), in the body
        self.body_code: types.CodeType | None = None
        self.site: Site | None = None  # the learner's line that called the loop

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


class KeyReuse:
    def __init__(self, code: ScriptCode):
        self.code = code
        self.uses: list[Use] = []
        self.made: Counter = Counter()  # the key's bits -> times made by PRNGKey / key
        self.made_at: dict[bytes, list[Site]] = defaultdict(list)  # ... and where the learner made it
        self.made_seq: dict[bytes, list[tuple[int, Site]]] = defaultdict(list)  # ... and when
        self.parent: dict[bytes, bytes] = {}  # bits -> the bits they were split / folded from
        self.static: list[Finding] = []  # reuse seen in a trace, whatever the values
        self._traces: list[_Trace] = []
        self._loops: list[_Loop] = []
        self._kept = 0
        self._step_at: dict[tuple[str, int], bool] = {}  # a jitted call's line -> a state step?
        self._seq = 0
        # (recipe, site, step) -> [(seq, the argument leaf or leaves)] of every call, read after the run
        self._calls: dict[tuple, list[tuple[int, object]]] = {}
        self._inside = threading.local()  # a consumer running: the consumers it calls are not uses
        # bits -> the frame that last consumed them eagerly (the newest few: frames hold locals)
        self._frames: dict[bytes, object] = {}
        self.notes: list[Finding] = []  # keys kept constant on purpose, once each
        self._wrapped: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        # where a jitted function consumes a key it then returns unchanged -> its return line
        self.hands_back: dict[Site, Site] = {}
        # loops whose body handed back the key of its carry unsplit (a loop-constant finding):
        # the caller that gets that key back again has the same root
        self.handing_loops: set[Site] = set()
        self.call_listeners: list = []  # told of each eager call of a jitted bound method (the method)
        # batches of keys given to jitted functions that vmap over them: read after the run
        self._batches: list[tuple[object, int, Site, Site | None]] = []
        self._batch_found: set[Site] = set()

    # ------------------------------------------------------------ instrumentation

    def install(self, hooks: Hooks) -> None:
        from jax._src import random as internal  # what libraries (jax.nn.initializers) call

        def patch(name: str, make) -> None:
            original = getattr(jax.random, name, None)
            if original is None:
                return
            wrapper = make(original)
            for module in (jax.random, internal):
                if getattr(module, name, None) is original:
                    hooks.patch(module, name, wrapper)

        for name in KEY_CONSUMERS:
            patch(name, functools.partial(self._consumer, derives=name in KEY_DERIVERS))
        patch("fold_in", self._deriver)
        for name in KEY_MAKERS:
            patch(name, self._maker)
        for name in LOOPS:
            original = getattr(jax.lax, name, None)
            if original is not None:
                hooks.patch(jax.lax, name, self._loop(original, name))
        hooks.patch(jax, "jit", self._jit(jax.jit))

    def _site(self) -> Site | None:
        frame = self.code.frame_here()
        if frame is None:
            return None
        return (frame.f_code.co_filename, frame.f_code.co_name, frame.f_lineno)

    def _consumer(self, original, derives: bool):
        inside = self._inside

        @functools.wraps(original)
        def consume(key, *a, **k):
            if getattr(inside, "depth", 0):  # one consumer calling another (choice -> uniform): one use
                return original(key, *a, **k)
            site = self._site()
            if site is not None:
                try:
                    self._on_consume(key, site)
                except Exception:  # noqa: BLE001 - not a key we can read: leave it to JAX
                    pass
            inside.depth = 1
            try:
                out = original(key, *a, **k)
            finally:
                inside.depth = 0
            if derives and site is not None:
                self._derived(key, out)
            return out

        return consume

    def _deriver(self, original):
        @functools.wraps(original)
        def derive(key, data, *a, **k):
            out = original(key, data, *a, **k)
            if self._traces and isinstance(key, jax.core.Tracer):
                self._traces[-1].folded(key, data, out, self._site())
            else:
                self._derived(key, out)
            return out

        return derive

    def _derived(self, key, out) -> None:
        """Eagerly: the new keys' parent, so that a replayed chain has one root."""
        if isinstance(key, jax.core.Tracer) or staging():
            return
        try:
            parent = _bits(key)
            DEVICE_READS[0] += 1
            data = jax.random.key_data(out) if _is_typed_key(out) else out
            rows = np.asarray(data).reshape(-1, np.asarray(data).shape[-1])
            if parent is not None:
                for row in rows:
                    self.parent.setdefault(row.tobytes(), parent)
        except Exception:  # noqa: BLE001 - never break the script
            pass

    def _maker(self, original):
        @functools.wraps(original)
        def make(*a, **k):
            key = original(*a, **k)
            if not staging() and not isinstance(key, jax.core.Tracer):
                bits = _bits(key)
                if bits is not None:
                    self.made[bits] += 1
                    site = self._site()
                    if site is not None:
                        self.made_at[bits].append(site)
                        self._seq += 1
                        self.made_seq[bits].append((self._seq, site))
            return key

        return make

    def _on_consume(self, key, site: Site) -> None:
        if not _is_key(key):
            return
        if self._loops:
            self._loops[-1].drew = True
            if isinstance(key, jax.core.Tracer):  # where in the body: the line that passed it down
                self._loops[-1].consumed.setdefault(id(key), (key, self._loops[-1].line_in_body() or site))
            if self._closed_over(key):  # the one finding of this key: its other uses are that same mistake
                self.static.append(self._finding(site, site, "loop-constant"))
                return
        if not isinstance(key, jax.core.Tracer) and not staging():
            bits = _bits(key)
            if bits is not None:
                self._seq += 1
                grad = _under_grad()
                self.uses.append(Use(site, bits, step=self._eager_step(site, bits), seq=self._seq, grad=grad))
            return
        batch = _unbatched(key)
        if batch is not None:  # a key under vmap: each mapped row should be a key of its own
            self._batch_consumed(batch, site)
        if not self._traces:
            return
        trace = self._traces[-1]
        grad = _under_grad()
        if not isinstance(key, jax.core.Tracer):  # a constant key, baked into the function
            bits = _bits(key)
            if bits is not None:
                trace.traced.constants.append((bits, site, grad))
            return
        seen = trace.seen.get(id(key))
        if seen is not None and seen[0] is key:
            if seen[1] == site and seen[2] != grad:  # a value and its own gradient: one computation
                trace.seen[id(key)] = (key, site, False) if grad else seen
                return
            self.static.append(self._finding(site, seen[1], "reused"))
            return
        trace.seen[id(key)] = (key, site, grad)
        recipe = trace.recipes.get(id(key))
        if recipe is not None:
            trace.traced.inputs.setdefault(recipe, (site, grad))

    def _batch_consumed(self, batch: tuple[object, int], site: Site) -> None:
        """A batch of keys a vmap maps over: eagerly, its rows are read now; inside a jitted
        function, the argument it is is noted, and each call's batch is read after the run."""
        keys, axis = batch
        if not isinstance(keys, jax.core.Tracer):
            repeated = _repeated_rows(keys, axis)
            at = self._vmap_call() or site  # the line that hands the batch to vmap: the one to change
            if repeated and at not in self._batch_found:
                self._batch_found.add(at)
                self.static.append(dataclasses.replace(self._finding(at, site), count=repeated))
        elif self._traces:
            recipe = self._traces[-1].recipes.get(id(keys))
            if recipe is not None and recipe[0] == "leaf":
                self._traces[-1].traced.batched.setdefault(recipe[1], (site, axis))

    def _vmap_call(self) -> Site | None:
        """The learner's line, outward from here, that calls vmap (`jax.vmap(walk)(keys)`)."""
        for file, fn, line in self.code.script_lines(self.code.frame_here()):
            source = self.code.file(file)
            for call in source.calls_at(line) if source else []:
                func = call.func.func if isinstance(call.func, ast.Call) else call.func
                if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) == "vmap":
                    return (file, fn, line)
        return None

    def _closed_over(self, key) -> bool:
        """Inside a loop body: a key from outside the body (a constant, or a value of a trace the
        loop was called under) is the same key on every pass."""
        if not isinstance(key, jax.core.Tracer):
            return True
        owner = getattr(key, "_trace", None)
        return any(owner is loop.outer for loop in self._loops)

    def _eager_step(self, site: Site, bits: bytes) -> bool:
        """An eager consumption that is part of a step: the same key again on a later pass of a
        loop in the same running function (not a new call of it: a replay), under grad, or
        within a call, made in a loop, that feeds its result back."""
        frame = self.code.frame_here()
        again = self._frames.pop(bits, None)
        self._frames[bits] = frame
        while len(self._frames) > RECENT_FRAMES:
            self._frames.pop(next(iter(self._frames)))
        if again is not None and again is frame and self.code.loop_around(site[2], site[0]) is not None:
            return True
        return _under_grad() or self._called_as_step(skip_innermost=True)

    def _called_as_step(self, frame=None, skip_innermost: bool = False) -> bool:
        """Whether the nearest learner's call in a loop (outward from `frame`, by default the
        learner's innermost frame) assigns its result to a name it was given: `state = step(state, key)`."""
        frame = frame or self.code.frame_here()
        if skip_innermost and frame is not None:
            frame = frame.f_back
        for file, _fn, line in self.code.script_lines(frame) if frame is not None else []:
            source = self.code.file(file)
            if source is None:
                continue
            if source.loop_around(line) is not None:
                return source.feeds_back(line)
        return False

    # ------------------------------------------------------------ loops

    def _loop(self, original, name: str):
        place, carries = LOOP_BODIES[name]

        @functools.wraps(original)
        def loop(*a, **k):
            entry = _Loop(_current_trace())
            entry.site = self._site()
            if len(a) > place and callable(a[place]):
                a = (*a[:place], self._body(a[place], entry, carries), *a[place + 1 :])
            self._loops.append(entry)
            try:
                out = original(*a, **k)
            finally:
                self._loops.pop()
            if entry.drew:
                self._keys_into_loop(a, k)
            return out

        return loop

    def _body(self, body, entry: _Loop, carries):
        """A loop body that hands back, unsplit, a key it consumed from its carry: the same key
        on every pass (`sub = key` where `key, sub = jax.random.split(key)` was meant)."""

        entry.body_code = getattr(body, "__code__", None)

        @functools.wraps(body)
        def watched_body(*args):
            out = body(*args)
            try:
                carry_in, carry_out = carries(args, out)
                passed_back = {id(leaf) for leaf in jax.tree_util.tree_leaves(carry_out)}
                for leaf in jax.tree_util.tree_leaves(carry_in):
                    consumed = entry.consumed.get(id(leaf))
                    if consumed is not None and consumed[0] is leaf and id(leaf) in passed_back:
                        self.static.append(self._finding(consumed[1], consumed[1], "loop-constant"))
                        if entry.site is not None:  # the loop hands its caller that key back, too
                            self.handing_loops.add(entry.site)
            except Exception:  # noqa: BLE001 - never break the learner's loop
                pass
            return out

        return watched_body

    def _keys_into_loop(self, a, k) -> None:
        """A loop whose body draws random numbers consumes the keys it is given (its carry or xs):
        the consumption, for the trace or the eager code around the loop."""
        site = self._site()
        if site is None:
            return
        for leaf in jax.tree_util.tree_leaves((a[1:], k)):
            if _is_key(leaf):
                try:
                    self._on_consume(leaf, site)
                except Exception:  # noqa: BLE001
                    pass

    # ------------------------------------------------------------ jitted functions

    def _jit(self, original):
        @functools.wraps(original)
        def jit(*args, **kwargs):
            if not args and "fun" not in kwargs:  # jax.jit(static_argnums=...) as a decorator factory
                return lambda fun: jit(fun, **kwargs)
            fun = args[0] if args else kwargs.pop("fun")
            rest = args[1:]
            donates = asks_donation(kwargs)
            watched = self._watched(fun)
            return Watched(original(watched, *rest, **kwargs), self, watched, donates)

        return jit

    def _watched(self, fun):
        """`fun` as traced: its argument leaves known by identity while it is traced. One wrapper
        per function (JAX caches traces by function, and must keep doing so)."""
        if isinstance(fun, types.MethodType):
            ident: object = (id(fun.__func__), id(fun.__self__))
        elif callable(fun) and not isinstance(fun, type):  # a function, a partial, nnx's callable
            ident = id(fun)
        else:
            return fun
        known = self._wrapped.get(ident)
        if (
            known is not None
            and known.__wrapped__ is fun
            or (known is not None and isinstance(fun, types.MethodType) and known.__wrapped__ == fun)
        ):
            return known
        detector = self

        @functools.wraps(fun)
        def traced(*a, **k):
            if not staging():
                return fun(*a, **k)
            leaves, tree = jax.tree_util.tree_flatten((a, k))
            trace = _Trace(leaves)
            detector._traces.append(trace)
            try:
                out = fun(*a, **k)
                detector._handed_back(trace, out, fun)
                return out
            finally:
                detector._traces.pop()
                traced._traced[tree] = trace.traced  # type: ignore[attr-defined]

        traced._traced = {}  # type: ignore[attr-defined]  # argument structure -> Traced
        self._wrapped[ident] = traced
        return traced

    def _handed_back(self, trace: _Trace, out, fun) -> None:
        """A jitted function that consumes a key it was given and returns that same key (the
        caller's next step gets it again): remembered by where it consumes it, with the learner's
        line that returns it, which is the line to change."""
        try:
            for leaf in jax.tree_util.tree_leaves(out):
                seen = trace.seen.get(id(leaf)) if isinstance(leaf, jax.core.Tracer) else None
                if seen is None or seen[0] is not leaf or trace.recipes.get(id(leaf), ("",))[0] != "leaf":
                    continue
                code = self.code._learners_code(fun)
                source = self.code.file(code.co_filename) if code is not None else None
                line = source.return_line(code.co_firstlineno) if code is not None and source is not None else None
                if code is not None and line is not None:
                    self.hands_back[seen[1]] = (code.co_filename, code.co_name, line)
        except Exception:  # noqa: BLE001 - never break the learner's trace
            pass

    def on_nested(self, watched, args, kwargs) -> None:
        """A jitted function called while another is traced: what it consumes of its arguments
        (learned when it was traced) is consumed, from the outer trace, where it consumes it."""
        table = getattr(watched, "_traced", None)
        if not table or not self._traces:
            return
        leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
        traced = table.get(tree)
        if traced is None:
            return
        outer = self._traces[-1]
        for recipe, (site, grad) in traced.inputs.items():
            if recipe[0] == "leaf":
                if recipe[1] < len(leaves):
                    self._on_consume(leaves[recipe[1]], site)
                continue
            mapped = _substitute(recipe, lambda i: outer.recipe_of(leaves[i]) if i < len(leaves) else None)
            if mapped is not None:
                outer.traced.inputs.setdefault(mapped, (site, grad))
        outer.traced.constants.extend(traced.constants)

    def on_call(self, watched, args, kwargs, donates: bool, before: bool, frame) -> None:
        """One call of a jitted function (eager): the keys it consumes, from its arguments. Kept
        as the arrays themselves, read after the run (this runs on every step: kept cheap)."""
        table = getattr(watched, "_traced", None)
        if not table:
            return
        leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
        traced = table.get(tree)
        if traced is None or not (traced.inputs or traced.constants or traced.batched):
            return
        step, call = self._step_of(frame)
        for leaf, (site, axis) in traced.batched.items():
            if leaf < len(leaves) and len(self._batches) < READ_BATCH and not isinstance(leaves[leaf], jax.core.Tracer):
                self._batches.append((leaves[leaf], axis, site, call))
        self._seq += 1
        # A key the function takes is its caller's to vary: a reuse is reported where the call
        # passes it, and judged (one place or several) by where the function consumes it.
        for recipe, site, grad, needed in traced.planned():
            if not needed or needed[-1] >= len(leaves) or isinstance(leaves[needed[0]], jax.core.Tracer):
                continue  # (a Tracer: called while some other trace runs, not a call with values)
            given = leaves[needed[0]] if len(needed) == 1 else tuple(leaves[i] for i in needed)
            if donates or before:  # its arrays may be gone after the call: read now
                use = Use(site, step=step or grad, seq=self._seq, at=call, grad=grad)
                use.array = (recipe, _by_leaf(needed, given))
                self._resolve(use)
                self.uses.append(use)
            elif self._kept < KEPT_ARRAYS:
                self._kept += 1
                bucket = self._calls.get((recipe, site, step or grad, call, grad))
                if bucket is None:
                    bucket = self._calls[(recipe, site, step or grad, call, grad)] = []
                bucket.append((self._seq, given))
        for bits, site, grad in traced.constants:
            self.uses.append(Use(site, bits, step=step or grad, seq=self._seq, grad=grad))

    def _step_of(self, frame) -> tuple[bool, Site | None]:
        """Whether a jitted call (from `frame`, or the learner's frame outside it) is a state step,
        judged once per call site (a loop calls from the same line), and that site."""
        owns = self.code.owns
        while frame is not None and not owns(frame.f_code.co_filename):
            frame = frame.f_back
        if frame is None:
            return False, None
        code = frame.f_code
        at = (code.co_filename, frame.f_lineno)
        step = self._step_at.get(at)
        if step is None:
            source = self.code.file(at[0])
            step = self._step_at[at] = bool(source and source.feeds_back(at[1])) or self._called_as_step(frame)
        return step, (code.co_filename, code.co_name, frame.f_lineno)

    # ------------------------------------------------------------ findings

    def _finding(self, site: Site, first: Site, code: FindingCode = "reused") -> Finding:
        file, fn, line = site
        return Finding("key-reuse", code, self.code.shown(file), line, function=fn, first_line=first[2])

    def _resolve(self, use: Use) -> None:
        """A call's key, from the arrays it was given (after the run: no sync while it runs)."""
        if use.array is None:  # read already
            return
        recipe, leaves = use.array
        use.array = None
        try:
            key = _evaluate(recipe, leaves)
        except Exception:  # noqa: BLE001 - an array donated or deleted since: not known
            return
        use.bits = _bits(key)
        if recipe[0] == "fold_in" and use.bits is not None:
            parent = _bits(_evaluate(recipe[1], leaves))
            if parent is not None:
                self.parent.setdefault(use.bits, parent)

    def _read(self) -> None:
        """Every call's key, read after the run: READ_BATCH calls at a time, one stacked program
        each (not a dispatch per call); then every use in the order it happened."""
        for (recipe, site, step, call, grad), calls in self._calls.items():
            needed = tuple(sorted(_leaves_of(recipe)))
            for start in range(0, len(calls), READ_BATCH):
                chunk = calls[start : start + READ_BATCH]
                uses = [Use(site, step=step, seq=seq, at=call, grad=grad) for seq, _ in chunk]
                for use, (_, given) in zip(uses, chunk):
                    use.array = (recipe, _by_leaf(needed, given))
                try:
                    self._read_batch(recipe, uses)
                except Exception:  # noqa: BLE001 - one by one: a donated array fails alone
                    for use in uses:
                        if use.array is not None:
                            self._resolve(use)
                self.uses += uses
        self._calls.clear()
        self.uses.sort(key=lambda use: use.seq)

    def _read_batch(self, recipe: Recipe, chunk: list[Use]) -> None:
        """A chunk of calls' keys: an argument's bits are copied out directly (stacking typed keys
        in JAX costs 0.3 ms a key); a key folded from arguments is computed for the whole chunk
        in one vmapped program."""
        needed = sorted(_leaves_of(recipe))
        data = {i: _data([use.array[1][i] for use in chunk]) for i in needed}  # type: ignore[index]
        if recipe[0] == "leaf":
            rows = [bits.tobytes() for bits, _impl in data[recipe[1]]]
            parents = None
        else:
            stacked = {i: (np.stack([d for d, _ in column]), column[0][1]) for i, column in data.items()}

            def run(part: Recipe) -> list[bytes]:
                def one(values):
                    leaves = {
                        i: jax.random.wrap_key_data(v, impl=stacked[i][1]) if stacked[i][1] else v
                        for i, v in values.items()
                    }
                    return _evaluate(part, leaves)

                return _rows(jax.vmap(one)({i: d for i, (d, _impl) in stacked.items()}))

            rows, parents = run(recipe), run(recipe[1])
        for n, use in enumerate(chunk):
            use.bits, use.array = rows[n], None
            if parents is not None:
                self.parent.setdefault(rows[n], parents[n])

    def findings(self, failure: BaseException | None) -> list[Finding]:
        self._read()
        for keys, axis, site, call in self._batches:  # one key for every row of a vmapped batch
            try:
                repeated = _repeated_rows(keys, axis)
            except Exception:  # noqa: BLE001 - donated or deleted since: not known
                continue
            at = call or site
            if repeated and at not in self._batch_found:
                self._batch_found.add(at)
                self.static.append(dataclasses.replace(self._finding(at, site), count=repeated))
        self._batches.clear()
        by_bits: dict[bytes, list[Use]] = defaultdict(list)
        for use in self.uses:
            if use.bits is not None:
                by_bits[use.bits].append(use)
        by_bits = {bits: _one_computation(uses) for bits, uses in by_bits.items()}
        again_of = {b: self._again(b, uses) for b, uses in by_bits.items()}
        reused = {b for b, again in again_of.items() if again}
        roots: dict[bytes, list[bytes]] = defaultdict(list)
        for bits in reused:
            roots[self._ancestor(bits, reused)].append(bits)
        out = list(self.static) + self._seeded_alike(by_bits)
        self.notes = []
        for root, family in roots.items():
            own = by_bits[root]
            sites = {u.site for u in own}
            if sites & self.handing_loops:
                continue  # a loop body that hands its key back unsplit: that loop-constant finding
            if len(sites) == 1 and not any(u.step for u in own):
                site = own[0].site
                self.notes.append(dataclasses.replace(self._finding(site, site, "constant"), count=len(own)))
                continue
            first = own[0].place
            # One root, one finding: where the key first came back, counting every use beyond the
            # allowed ones, and the reuse a replayed chain of keys split from it repeats.
            again = again_of[root]
            replayed = sum(len(again_of[b]) for b in family if b != root)
            remade = self._remade_at(root)
            returned = next((self.hands_back[u.site] for u in own if u.site in self.hands_back), None)
            if remade is not None:  # the line to change is where the key is made anew, each pass
                found = self._finding(remade, first, "remade")
            elif returned is not None:  # ... or where the step hands the key it consumed back
                found = self._finding(returned, next(u.site for u in own if u.site in self.hands_back), "handed-back")
            else:
                found = self._finding(again[0].place, first)
            made = self._made_where(root)
            if found.code == "reused" and made is not None and self.code.shown(made[0]) == found.file:
                found = dataclasses.replace(found, made_line=made[2])  # the seed, or the state's constructor
            out.append(dataclasses.replace(found, count=len(again) + replayed))
        return out

    def _made_where(self, bits: bytes) -> Site | None:
        """Where the learner made this key, or the key it was split / folded from (eagerly)."""
        node: bytes | None = bits
        seen: set[bytes] = set()
        while node is not None and node not in seen:
            seen.add(node)
            places = self.made_at.get(node)
            if places:
                return places[0]
            node = self.parent.get(node)
        return None

    def _again(self, bits: bytes, uses: list[Use]) -> list[Use]:
        """The uses of a key beyond its fresh ones. A key made from a seed by the learner (or split
        from one, eagerly) is fresh once per seeding: each time a different line makes that seed
        again (separate demo cells that each seed PRNGKey(0) replay the same chain, each once),
        not each time one line makes it (PRNGKey(1) made anew on every pass is one key, reused)."""
        seed = self._seed_of(bits)
        if seed is None:
            return uses[self._fresh(bits) :]
        makes = self.made_seq[seed]
        out, seen = [], set()
        for use in uses:
            period, last = 0, None
            for seq, place in makes:
                if seq > use.seq:
                    break
                if place != last:
                    period, last = period + 1, place
            if period in seen:
                out.append(use)
            seen.add(period)
        return out

    def _seed_of(self, bits: bytes) -> bytes | None:
        """The key the learner made (by PRNGKey / key) that these bits are, or descend from."""
        node: bytes | None = bits
        seen: set[bytes] = set()
        while node is not None and node not in seen:
            seen.add(node)
            if self.made_seq.get(node) and len(self.made_seq[node]) == self.made.get(node, 0):
                return node
            node = self.parent.get(node)
        return None

    def _fresh(self, bits: bytes) -> int:
        """How many uses of a key are fresh: one per place that makes it (two cells that each seed
        PRNGKey(0) are two demos), not one per time a place makes it (PRNGKey(1) made anew on every
        pass of a loop is one key, fed to every step)."""
        places = self.made_at.get(bits) or []
        unplaced = self.made.get(bits, 0) - len(places)  # made where no frame of the learner's was
        return max(1, len(set(places)) + max(0, unplaced))

    def _remade_at(self, bits: bytes) -> Site | None:
        """The learner's line that made this key again and again (in a loop), if one did."""
        places = self.made_at.get(bits) or []
        again = [p for p in dict.fromkeys(places) if places.count(p) >= 2]
        return again[0] if again else None

    def _seeded_alike(self, by_bits: dict[bytes, list[Use]]) -> list[Finding]:
        """One line that made the same key twice (nnx.Rngs(params=0, dropout=0)) whose descendants
        are drawn from in two places: two streams that were meant to differ share their source.
        Reported where they were made."""
        children: dict[bytes, list[bytes]] = defaultdict(list)
        for child, parent in self.parent.items():
            children[parent].append(child)
        out = []
        for bits, places in self.made_at.items():
            twice = [p for p in set(places) if places.count(p) >= 2]
            if not twice:
                continue
            sites, todo, seen = set(), [bits], set()
            while todo:
                node = todo.pop()
                if node in seen:
                    continue
                seen.add(node)
                sites |= {u.site for u in by_bits.get(node, [])}
                todo.extend(children.get(node, []))
            if len(sites) >= 2:
                out += [self._finding(place, place, "same-seed") for place in twice]
        return out

    def _ancestor(self, bits: bytes, reused: set[bytes]) -> bytes:
        """The oldest reused key these bits were split or folded from (eagerly), or themselves."""
        root, node, seen = bits, bits, {bits}
        while (up := self.parent.get(node)) is not None and up not in seen:
            seen.add(up)
            if up in reused:
                root = up
            node = up
        return root


class Watched:
    """A jitted function as `jax.jit` returned it, and told of each call (the keys it consumes
    are recorded from the arguments). Everything else is the jitted function's own."""

    __slots__ = ("_jitted", "_detector", "_watched", "_donates", "_method", "__weakref__")

    def __init__(self, jitted, detector: KeyReuse, watched, donates: bool):
        self._jitted = jitted
        self._detector = detector
        self._watched = watched
        self._donates = donates
        fun = getattr(watched, "__wrapped__", watched)
        self._method = fun if isinstance(fun, types.MethodType) else None  # jax.jit(self.step)

    def __call__(self, *args, **kwargs):
        if self._method is not None and not self._detector._traces:  # a bound method: its self may be stale
            for listen in self._detector.call_listeners:
                try:
                    listen(self._method)
                except Exception:  # noqa: BLE001 - never break the learner's call
                    pass
        traced = getattr(self._watched, "_traced", None)
        if traced is None:
            return self._jitted(*args, **kwargs)
        if self._detector._traces:  # called while another watched function is traced
            out = self._jitted(*args, **kwargs)
            try:
                self._detector.on_nested(self._watched, args, kwargs)
            except Exception:  # noqa: BLE001 - never break the learner's trace
                pass
            return out
        known = bool(traced)
        if known and self._donates:
            self._tell(args, kwargs, True, sys._getframe(1))
        out = self._jitted(*args, **kwargs)
        if not (known and self._donates):
            self._tell(args, kwargs, False, sys._getframe(1))
        return out

    def _tell(self, args, kwargs, before: bool, frame) -> None:
        try:
            self._detector.on_call(self._watched, args, kwargs, self._donates, before, frame)
        except Exception:  # noqa: BLE001 - never break the learner's call
            pass

    @property
    def __wrapped__(self):
        return getattr(self._jitted, "__wrapped__", None)

    def __getattr__(self, name: str):
        return getattr(self._jitted, name)

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)

    def __repr__(self) -> str:
        return repr(self._jitted)
