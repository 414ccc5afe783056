"""Which of JAX's transformations, and which random generators outside JAX, the learner's code
really ran.

A task that says "built with jax.vmap" or "take the derivative with jax.grad" is not proved by the
numbers (`lax.map` or a hand-written broadcast give the same predictions; `2 * x` is the gradient
of x²), nor by the text of the file (a `jax.grad` in a self-test proves nothing; a correct
`@jax.grad` decorator is not a call). So the worker wraps JAX's transformations before the
learner's file is loaded, and a check asks which of them ran while it called the learner's code.

Randomness a task says must follow a key is judged the same way: a draw from Python's `random` or
NumPy's generators runs while jit traces a step, so its numbers are frozen into the program, and a
generator seeded inside the step repeats them on every trace, whatever the key (no key of JAX's is
involved for a jaxpr to follow, and no two traces differ). What is wrapped: the functions of the
`random` and `numpy.random` modules (seeding, drawing, `default_rng`), and a `random.Random` made
with a seed; not NumPy's generator classes (`np.random.RandomState(0)` or `Generator(PCG64(0))` made
inside a step and drawn from are not seen: they are C types whose methods cannot be wrapped).
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Iterator

import jax
import numpy as np

# Transformations that make a function; what is recorded is that the made function ran.
MAKERS = ("vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian")
# Transformations that compute at once: recorded when they are called.
DOERS = ("vjp", "jvp", "linearize")
DIFFERENTIATION = frozenset(MAKERS + DOERS) - {"vmap"}
# What a draw outside JAX is recorded as: "random.seed", "numpy.random.default_rng"...
OUTSIDE_JAX = ("random.", "numpy.random.")

_listening: list[set[str]] = []


def _note(name: str) -> None:
    for seen in _listening:
        seen.add(name)


def _maker(name: str, real):
    @functools.wraps(real)
    def transform(fun, *args, **kwargs):
        made = real(fun, *args, **kwargs)

        @functools.wraps(made)
        def run(*a, **k):
            _note(name)
            return made(*a, **k)

        return run

    transform.tutor_witness = True  # type: ignore[attr-defined]
    return transform


def _doer(name: str, real):
    @functools.wraps(real)
    def transform(*args, **kwargs):
        _note(name)
        return real(*args, **kwargs)

    transform.tutor_witness = True  # type: ignore[attr-defined]
    return transform


def _generators() -> Iterator[tuple[object, str, str]]:
    """(module, attribute, recorded name) of each function that seeds or draws outside JAX: those
    of Python's `random` (methods of its one hidden generator), NumPy's legacy module functions
    (methods of its global RandomState), and NumPy's `seed`, `set_state` and `default_rng`."""
    np_own = ("default_rng", "seed", "set_state")
    for module, prefix, owner in (
        (random, "random.", random._inst),
        (np.random, "numpy.random.", np.random.mtrand._rand),
    ):
        for attr in dir(module):
            if attr.startswith("_") or attr in ("getstate", "get_state", "get_bit_generator"):  # reading is no draw
                continue
            fn = getattr(module, attr)
            if getattr(fn, "__self__", None) is owner or (module is np.random and attr in np_own):
                yield module, attr, prefix + attr


def install() -> None:
    """Wrap jax's transformations and the random generators outside JAX (once per process), before
    the learner's file is loaded, so that `from jax import grad` or `from random import sample`
    in that file gets the wrapped one too."""
    for names, wrap in ((MAKERS, _maker), (DOERS, _doer)):
        for name in names:
            real = getattr(jax, name, None)
            if real is not None and not getattr(real, "tutor_witness", False):
                setattr(jax, name, wrap(name, real))
    for module, attr, name in list(_generators()):
        real = getattr(module, attr)
        if not getattr(real, "tutor_witness", False):
            setattr(module, attr, _doer(name, real))
    if not getattr(random.Random.seed, "tutor_witness", False):
        random.Random.seed = _seeded("random.Random", random.Random.seed)  # type: ignore[method-assign]


def _seeded(name: str, real):
    """A generator object's `seed`, which its constructor calls: noted only for a seed given (a
    `random.Random(0)` repeats; `Random()`, as tempfile makes one, draws from the OS)."""

    @functools.wraps(real)
    def seed(self, a=None, *args, **kwargs):
        if a is not None:
            _note(name)
        return real(self, a, *args, **kwargs)

    seed.tutor_witness = True  # type: ignore[attr-defined]
    return seed


@contextlib.contextmanager
def ran(eager: bool = True) -> Iterator[set[str]]:
    """The names of the transformations and generators whose functions ran inside the block. The
    block runs with jit disabled, so a jitted function runs its Python again instead of a cached
    program; `eager=False` leaves jit on, for a block that traces anew anyway (a fresh jit)."""
    seen: set[str] = set()
    _listening.append(seen)
    try:
        with jax.disable_jit() if eager else contextlib.nullcontext():
            yield seen
    finally:
        _listening.remove(seen)


def outside_jax(seen: set[str]) -> list[str]:
    """The generators outside JAX among what ran, sorted: ["numpy.random.default_rng", "random.seed"]."""
    return sorted(name for name in seen if name.startswith(OUTSIDE_JAX))
