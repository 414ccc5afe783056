"""Which of JAX's transformations the learner's code really ran.

A task that says "built with jax.vmap" or "take the derivative with jax.grad" is not proved by the
numbers (`lax.map` or a hand-written broadcast give the same predictions; `2 * x` is the gradient
of x²), nor by the text of the file (a `jax.grad` in a self-test proves nothing; a correct
`@jax.grad` decorator is not a call). So the worker wraps JAX's transformations before the
learner's file is loaded, and a check asks which of them ran while it called the learner's code.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator

import jax

# Transformations that make a function; what is recorded is that the made function ran.
MAKERS = ("vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian")
# Transformations that compute at once: recorded when they are called.
DOERS = ("vjp", "jvp", "linearize")
DIFFERENTIATION = frozenset(MAKERS + DOERS) - {"vmap"}

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


def install() -> None:
    """Wrap jax's transformations (once per process), before the learner's file is loaded, so
    that `from jax import grad` in that file gets the wrapped one too."""
    for names, wrap in ((MAKERS, _maker), (DOERS, _doer)):
        for name in names:
            real = getattr(jax, name, None)
            if real is not None and not getattr(real, "tutor_witness", False):
                setattr(jax, name, wrap(name, real))


@contextlib.contextmanager
def ran() -> Iterator[set[str]]:
    """The names of the transformations whose functions ran inside the block. The block runs
    with jit disabled, so a jitted function runs its Python again instead of a cached program."""
    seen: set[str] = set()
    _listening.append(seen)
    try:
        with jax.disable_jit():
            yield seen
    finally:
        _listening.remove(seen)
