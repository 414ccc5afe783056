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

A key consumed in two functions, or twice at one line reached by two calls (two layers'
`__call__` in one trace, two constructors given one `key=`), is reported at the line to change,
not where the reuse showed (kept as the finding's noticed line): the call that handed the
consumed key down (it should split first), or the return of a function that split the key it was
given and kept the rest (a model's init: it should hand the key back). Likewise a loop body that
splits its carry's key but hands the old one back is reported at its return; a key folded from
one key with the same number again and again (fold_in(key, epoch) each step) at the fold_in; a
key the learner's vmap does not map over (in_axes None), drawn from by the learner's function
under it, at the vmap (each row draws the same numbers). One key drawn from at one place is not
kept constant on purpose when the draws differ (two shapes) or build objects (`__init__`), or in
a generator (a loader's shuffle: the same order every epoch).

Cannot see: keys split inside a jitted function from a reused key and consumed there are judged
by that key; consumers libraries reach through jax._src; `jax.checkpoint` replays are fine.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import sys
import threading
import types
import weakref
from collections import Counter, defaultdict
from collections.abc import Callable

import jax
import numpy as np

from tutor.child.doctor.hooks import Hooks, asks_donation, staging
from tutor.child.doctor.key_findings import Judging
from tutor.child.doctor.key_values import (
    DEVICE_READS,
    LOOP_BODIES,
    READ_BATCH,
    Frames,
    Site,
    Use,
    _bits,
    _by_leaf,
    _current_trace,
    _is_key,
    _is_typed_key,
    _Loop,
    _repeated_rows,
    _substitute,
    _Trace,
    _unbatched,
    _under_grad,
)
from tutor.child.doctor.owners import Calls
from tutor.child.doctor.script_code import ScriptCode
from tutor.protocol import Finding

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
CALLERS_KEPT = 8  # frames kept per eager use, to find the call that handed a key down
KEPT_ARRAYS = 50_000


class KeyReuse(Judging):
    def __init__(self, code: ScriptCode):
        self.code = code
        self.uses: list[Use] = []
        self.made: Counter = Counter()  # the key's bits -> times made by PRNGKey / key
        self.made_at: dict[bytes, list[Site]] = defaultdict(list)  # ... and where the learner made it
        self.made_seq: dict[bytes, list[tuple[int, Site]]] = defaultdict(list)  # ... and when
        self.parent: dict[bytes, bytes] = {}  # bits -> the bits they were split / folded from
        self.folded_at: dict[bytes, list[Site]] = defaultdict(list)  # bits -> where the learner's fold_in made them
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
        self.trace_listeners: list = []  # told of each top-level trace's start (the traced function)
        # told after each eager call of a jitted function whose trace recorded captured values
        # (`_captured` on the traced function), when the call did not trace it again
        self.check_captures: Callable[[list], None] | None = None
        # batches of keys given to jitted functions that vmap over them: read after the run
        self._batches: list[tuple[object, int, Site, Site | None]] = []
        self._batch_found: set[Site] = set()
        # a use's seq -> (its call into a library, that library's frames), when a library the learner
        # called consumed the key (numpyro's MCMC.run): a reuse within one such call is the library's
        self.library_calls = Calls(code.owns)
        self.entries: dict[int, tuple] = {}
        self._entered = None  # the frame that called the consumer running now

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
        hooks.patch(jax, "pmap", self._jit(jax.pmap))  # pmap-era steps take their keys as jit's do

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
                    self._entered = sys._getframe(1)  # who consumed it: the learner, or a library
                    draw = 0 if isinstance(key, jax.core.Tracer) else _draw_of(a, k)
                    self._on_consume(key, site, splits=derives, draw=draw)
                except Exception:  # noqa: BLE001 - not a key we can read: leave it to JAX
                    pass
                self._entered = None  # a frame holds its locals: not kept past this use
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
                self._derived(key, out, folded=True)
            return out

        return derive

    def _derived(self, key, out, folded: bool = False) -> None:
        """Eagerly: the new keys' parent, so that a replayed chain has one root; and where the
        learner folded a key (fold_in(base, epoch) made again each step is one key, reused)."""
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
            site = self._site() if folded and len(rows) == 1 else None
            if site is not None:
                self.folded_at[rows[0].tobytes()].append(site)
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

    def _on_consume(self, key, site: Site, splits: bool = False, draw: int = 0) -> None:
        if not _is_key(key):
            return
        if self._loops:
            self._loops[-1].drew = True
            if isinstance(key, jax.core.Tracer):  # where in the body: the line that passed it down
                line = self._loops[-1].line_in_body() or site
                self._loops[-1].consumed.setdefault(id(key), (key, line, splits))
            if self._closed_over(key):  # the one finding of this key: its other uses are that same mistake
                self.static.append(self._finding(site, site, "loop-constant"))
                return
        self._shared_by_rows(key, site)
        if not isinstance(key, jax.core.Tracer) and not staging():
            bits = _bits(key)
            if bits is not None:
                self._seq += 1
                grad = _under_grad()
                step = self._eager_step(site, bits)
                frames = self._frames_out()
                self.uses.append(Use(site, bits, step=step, seq=self._seq, grad=grad, frames=frames, draw=draw))
                self._note_library(self._entered)
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
            self.static.append(self._static_reuse(site, seen[1], trace.frames.get(id(key), ())))
            return
        trace.seen[id(key)] = (key, site, grad)
        trace.frames[id(key)] = self._frames_out()
        recipe = trace.recipes.get(id(key))
        if recipe is not None:
            trace.traced.inputs.setdefault(recipe, (site, grad))

    def _static_reuse(self, site: Site, first: Site, first_frames: Frames) -> Finding:
        """A key consumed twice within one trace: where the second use shows, or the line to
        change, when the key was handed down to the function that consumed it (the call that
        handed it down again, as for eager uses)."""
        handed = self._handed_down(first_frames, self._frames_out())
        if handed is None:
            return self._finding(site, first, "reused")
        place, code = handed
        found = self._finding(place, first, code)
        return dataclasses.replace(found, noticed_line=site[2] if place[0] == site[0] else None)

    def _frames_out(self) -> Frames:
        """The learner's frames from here outwards (a few): which call handed the key down."""
        out: list[tuple[str, str, int, int]] = []
        frame = self.code.frame_here()
        while frame is not None and len(out) < CALLERS_KEPT:
            code = frame.f_code
            if self.code.owns(code.co_filename):
                out.append((code.co_filename, code.co_name, frame.f_lineno, code.co_firstlineno))
            frame = frame.f_back
        return tuple(out)

    def _batch_consumed(self, batch: tuple[object, int], site: Site) -> None:
        """A batch of keys a vmap maps over: eagerly, its rows are read now; inside a jitted
        function, the argument it is is noted, and each call's batch is read after the run."""
        keys, axis = batch
        if not isinstance(keys, jax.core.Tracer):
            repeated = _repeated_rows(keys, axis)
            at = self._vmap_call() or site  # the line that hands the batch to vmap: the one to change
            if repeated and at not in self._batch_found:
                self._batch_found.add(at)
                self.static.append(dataclasses.replace(self._finding(at, site), count=repeated, name="vmap"))
        elif self._traces:
            recipe = self._traces[-1].recipes.get(id(keys))
            if recipe is not None and recipe[0] == "leaf":
                self._traces[-1].traced.batched.setdefault(recipe[1], (site, axis))

    def _shared_by_rows(self, key, site: Site) -> None:
        """A key consumed under the learner's vmap that the vmap does not map over (in_axes None,
        or one the function closes over): every row draws the same numbers. Reported at the line
        that calls vmap (it should map over one key per row)."""
        trace = _current_trace()
        if type(trace).__name__ != "BatchTrace":
            return
        if getattr(key, "_trace", None) is trace and isinstance(getattr(key, "batch_dim", None), int):
            return  # mapped over: its rows are judged as a batch
        frame: types.FrameType | None = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        if frame is None or not self.code.owns(frame.f_code.co_filename):
            return  # drawn by a library (flax's nn.vmap may share a key across rows on purpose)
        at = self._vmap_call()  # not the learner's vmap (jacfwd, a library's): not known to be rows
        if at is None or at in self._batch_found:
            return
        self._batch_found.add(at)
        size = getattr(getattr(trace, "axis_data", None), "size", None)
        rows = size - 1 if isinstance(size, int) and size > 1 else 1
        self.static.append(dataclasses.replace(self._finding(at, site), count=rows, name="vmap"))

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
        loop in the same running function (not a new call of it: a replay), in a generator (a
        loader's shuffle: the same key each epoch is the same order each epoch), under grad, or
        within a call, made in a loop, that feeds its result back."""
        frame = self.code.frame_here()
        again = self._frames.pop(bits, None)
        self._frames[bits] = frame
        while len(self._frames) > RECENT_FRAMES:
            self._frames.pop(next(iter(self._frames)))
        if again is not None and again is frame and self.code.loop_around(site[2], site[0]) is not None:
            return True
        if frame is not None and frame.f_code.co_flags & inspect.CO_GENERATOR:
            return True  # a generator (a data loader) is walked again each epoch to give new batches
        return _under_grad() or self._called_as_step(skip_innermost=True)

    def _called_as_step(self, frame=None, skip_innermost: bool = False) -> bool:
        """Whether the nearest learner's call in a loop (outward from `frame`, by default the
        learner's innermost frame) assigns its result to a name it was given, `state = step(state, key)`,
        or adds it to what the loop carries, `w = w + 0.01 * noise.sample()` (a fixed evaluation
        key's result is shown or kept aside, not built on)."""
        frame = frame or self.code.frame_here()
        if skip_innermost and frame is not None:
            frame = frame.f_back
        for file, _fn, line in self.code.script_lines(frame) if frame is not None else []:
            source = self.code.file(file)
            if source is None:
                continue
            if source.loop_around(line) is not None:
                return source.feeds_back(line) or source.accumulates(line)
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
            # a body that handed its carry key back unsplit is that key's one finding: the loop
            # around this one, which gets the same key back (scan forwards an unchanged carry), is not another
            if entry.drew and not entry.handed_back:
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
                        self.static.append(self._handed_back_in_carry(consumed[1], consumed[2], entry))
                        entry.handed_back = True
                        if entry.site is not None:  # the loop hands its caller that key back, too
                            self.handing_loops.add(entry.site)
            except Exception:  # noqa: BLE001 - never break the learner's loop
                pass
            return out

        return watched_body

    def _handed_back_in_carry(self, site: Site, split: bool, entry: _Loop) -> Finding:
        """A loop body handed back the key of its carry it consumed: where it consumed it (it
        should split there), or, when its split made a new key the body then dropped, the body's
        return, which hands back the old key instead of the new one (the split is where it shows)."""
        code = entry.body_code
        source = self.code.file(code.co_filename) if split and code is not None else None
        line = source.return_line(code.co_firstlineno) if source is not None and code is not None else None
        if code is None or line is None or line == site[2] or code.co_filename != site[0]:
            return self._finding(site, site, "loop-constant")
        if source is None or not source.drops_a_name(code.co_firstlineno, site[2]):
            return self._finding(site, site, "loop-constant")  # the split itself kept no new key: change it
        return dataclasses.replace(
            self._finding((code.co_filename, code.co_name, line), site, "loop-constant"), noticed_line=site[2]
        )

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
            and known._fun is fun  # type: ignore[attr-defined]
            or (known is not None and isinstance(fun, types.MethodType) and known._fun == fun)  # type: ignore[attr-defined]
        ):
            return known
        detector = self

        @functools.wraps(fun)
        def traced(*a, **k):
            if not staging():
                return fun(*a, **k)
            if not detector._traces:
                for listen in detector.trace_listeners:
                    try:
                        listen(traced)
                    except Exception:  # noqa: BLE001 - never break the learner's trace
                        pass
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
        traced._fun = fun  # type: ignore[attr-defined]
        inner = _through_partials(fun)
        if inner is not fun:  # jax.jit(partial(f, eps=...)): JAX names and places it by `f`, as without us
            traced.__wrapped__ = inner  # type: ignore[attr-defined]
            traced.__name__ = traced.__qualname__ = inner.__name__
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
        self._note_library(frame, self._seq + 1)
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

    def _note_library(self, frame, seq: int | None = None) -> None:
        """A use reached through a library the learner called: which call, and its frames."""
        try:
            entered = self.library_calls.entered(frame)
        except Exception:  # noqa: BLE001 - never break the script
            entered = None
        if entered is not None:
            self.entries[self._seq if seq is None else seq] = entered

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


def _draw_of(args: tuple, kwargs: dict) -> int:
    """What an eager consumer was asked to draw besides its key (shapes, counts, bounds), as a
    number: one key drawn twice for different shapes is two different draws, not one repeated."""
    parts: list[object] = []
    for value in (*args, *kwargs.values()):
        shape = getattr(value, "shape", None)
        parts.append(tuple(shape) if shape is not None else value if isinstance(value, (int, float, str, tuple)) else 0)
    parts += sorted(kwargs)
    try:
        return hash(tuple(parts)) or 1
    except TypeError:  # a tuple holding an unhashable value
        return 1


def _through_partials(fun):
    """The plain function inside `functools.partial`s (JAX unwraps them to name a function and
    say where it was defined), or `fun` itself."""
    inner = fun
    while isinstance(inner, functools.partial):
        inner = inner.func
    return inner if inner is not fun and isinstance(inner, types.FunctionType) else fun


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
        check = self._detector.check_captures
        if check is None:
            return self._call(*args, **kwargs)
        before = getattr(self._watched, "_captured", None)
        out = self._call(*args, **kwargs)
        if before is not None and getattr(self._watched, "_captured", None) is before and not self._detector._traces:
            try:
                check(before)
            except Exception:  # noqa: BLE001 - never break the learner's call
                pass
        return out

    def _call(self, *args, **kwargs):
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
