"""Detector: a PRNG key consumed more often than it was made. Not `jax_debug_key_reuse`: it
raises (the script would stop), sees typed keys only and on JAX 0.10.2 misses reuse across
jitted calls. Instead the public jax.random consumers report the key's bits each time they
run: read directly when eager, through `jax.debug.callback` inside jit / scan / vmap."""

from __future__ import annotations

import functools
from collections import Counter, defaultdict

import jax
import numpy as np

from tutor.child.doctor.hooks import Hooks, staging
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


def _fingerprint(data) -> bytes:
    return np.asarray(data).tobytes()


def _is_typed_key(key) -> bool:
    dtype = getattr(key, "dtype", None)
    return dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key)


class KeyReuse:
    def __init__(self, code: ScriptCode):
        self.code = code
        self.consumed: list[tuple[bytes, tuple[str, int]]] = []  # (the key's bits, (function, line))
        self.made: Counter = Counter()  # the key's bits -> times made by PRNGKey / key

    def install(self, hooks: Hooks) -> None:
        random = jax.random
        for name in KEY_CONSUMERS:
            original = getattr(random, name, None)
            if original is not None:
                hooks.patch(random, name, self._consumer(original))
        for name in KEY_MAKERS:
            original = getattr(random, name, None)
            if original is not None:
                hooks.patch(random, name, self._maker(original))

    def _consumer(self, original):
        @functools.wraps(original)
        def consume(key, *a, **k):
            frame = self.code.frame_here()
            if frame is not None:
                try:
                    self._watch(key, (frame.f_code.co_name, frame.f_lineno))
                except Exception:  # noqa: BLE001 - not a key we can read: leave it to JAX
                    pass
            return original(key, *a, **k)

        return consume

    def _maker(self, original):
        @functools.wraps(original)
        def make(*a, **k):
            key = original(*a, **k)
            if not staging() and not isinstance(key, jax.core.Tracer):
                try:
                    data = jax.random.key_data(key) if _is_typed_key(key) else key
                    self.made[_fingerprint(data)] += 1
                except Exception:  # noqa: BLE001 - a key we cannot read is left to JAX; never break the script
                    pass
            return key

        return make

    def _watch(self, key, site: tuple[str, int]) -> None:
        """Record the key's bits each time this consumption actually runs (eagerly, or as a
        callback inside compiled code), so that reuse is judged on values, across calls. A
        jitted function that consumes a key so carries a host callback (a slower dispatch)."""
        data = jax.random.key_data(key) if _is_typed_key(key) else key
        if not hasattr(data, "dtype") or data.dtype != np.uint32:
            return
        seen = self.consumed
        if isinstance(data, jax.core.Tracer):
            jax.debug.callback(lambda bits: seen.append((_fingerprint(bits), site)), data)
        else:  # eager: read the bits now, no callback to dispatch
            seen.append((_fingerprint(data), site))

    def findings(self, failure: BaseException | None) -> list[Finding]:
        """Every consumption of a key beyond the number of times it was made (once, if never)."""
        uses: dict[bytes, list[tuple[str, int]]] = defaultdict(list)
        for bits, site in self.consumed:
            uses[bits].append(site)
        out = []
        for bits, sites in uses.items():
            allowed = max(1, self.made.get(bits, 0))
            for fn, line in sites[allowed:]:
                out.append(Finding("key-reuse", "reused", self.code.name, line, function=fn, first_line=sites[0][1]))
        return out
