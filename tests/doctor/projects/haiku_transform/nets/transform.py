"""A tiny haiku-like `transform`: a function written with `param(...)` and `next_rng()` calls
becomes a pure (init, apply) pair over a params dict and an rng key."""
import contextlib

import jax

_FRAME = []


class _Frame:
    def __init__(self, params, rng, creating):
        self.params, self.rng, self.creating, self.count = params, rng, creating, 0


def param(name, shape, init):
    frame = _FRAME[-1]
    if frame.creating and name not in frame.params:
        frame.params[name] = init(next_rng(), shape)
    return frame.params[name]


def next_rng():
    frame = _FRAME[-1]
    frame.count += 1
    return jax.random.fold_in(frame.rng, frame.count)


@contextlib.contextmanager
def _frame(params, rng, creating):
    _FRAME.append(_Frame(params, rng, creating))
    try:
        yield _FRAME[-1]
    finally:
        _FRAME.pop()


def transform(fn):
    def init(rng, *args):
        with _frame({}, rng, True) as frame:
            fn(*args)
            return frame.params

    def apply(params, rng, *args):
        with _frame(dict(params), rng, False):
            return fn(*args)

    return init, apply
