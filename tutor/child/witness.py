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
`random` and `numpy.random` modules (seeding, drawing, `default_rng`), a `random.Random` made with a
seed, and NumPy's seedable generator classes made with a seed (`RandomState(0)`, `PCG64(0)` under a
`Generator`, `SeedSequence(0)`...). Those are C types whose methods cannot be wrapped, so each is
replaced, in `numpy.random` and where `RandomState` finds its MT19937, by a subclass that notes the
seed, with a metaclass that keeps `isinstance(x, np.random.PCG64)` true for objects made before.
Draws from a NumPy generator made at import are not seen here; under jit they freeze at trace time,
which the re-trace comparison of a check sees.
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
# What a draw outside JAX is recorded as: "random.seed", "numpy.random.default_rng",
# "numpy.random.PCG64(seed)" (a generator class made with a seed)...
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
    _watch_numpy_classes()


class _AsWatched(type):
    """The metaclass of a watching subclass: isinstance and issubclass answer as for the C type it
    watches, so a PCG64 made before install (a default_rng's) is still a np.random.PCG64."""

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, cls.__bases__[0])

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, cls.__bases__[0])


# NumPy's classes that take a seed; the first argument, or one of these keywords, is it.
NUMPY_SEEDABLE = ("MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64", "SeedSequence")
_SEED_KEYWORDS = ("seed", "entropy", "key")


def _numpy_watcher(real: type) -> type:
    """A subclass of NumPy's `real` generator class whose constructor notes a seed given. Named as
    NumPy names it, in `numpy.random`, where pickle finds it again."""
    name = real.__name__

    def __init__(self, *args, **kwargs):
        if (args and args[0] is not None) or any(kwargs.get(k) is not None for k in _SEED_KEYWORDS):
            _note(f"numpy.random.{name}(seed)")
        real.__init__(self, *args, **kwargs)  # type: ignore[misc]

    space: dict[str, object] = {"__init__": __init__, "__module__": "numpy.random", "__qualname__": name}
    space["tutor_witness"] = True
    if name == "MT19937":  # RandomState(seed) makes an MT19937 and seeds it through this method

        def _legacy_seeding(self, seed):
            if seed is not None:
                _note("numpy.random.RandomState(seed)")
            return real._legacy_seeding(self, seed)  # type: ignore[attr-defined]

        space["_legacy_seeding"] = _legacy_seeding
    return _AsWatched(name, (real,), space)


def _watch_numpy_classes() -> None:
    import numpy.random.mtrand as mtrand

    for name in NUMPY_SEEDABLE:
        real = getattr(np.random, name, None)
        if real is None or getattr(real, "tutor_witness", False):
            continue
        watcher = _numpy_watcher(real)
        setattr(np.random, name, watcher)
        if name == "MT19937" and getattr(mtrand, "_MT19937", None) is real:
            mtrand._MT19937 = watcher  # type: ignore[attr-defined]


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
