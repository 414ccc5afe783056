"""Helpers for checking an optimizer written as (init, update) against a float64 reference:
shared by the exercises whose learner writes one (adam, rmsprop). Runs inside the worker."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from tutor.child.library import CheckFailed, close


def unpack(opt):
    """(init, update) of an Optimizer-like object or a pair (the `optimizer` check says which)."""
    return (opt.init, opt.update) if hasattr(opt, "init") else tuple(opt)


def same_updates(got_seq, want_seq, rtol=1e-4, atol=1e-6) -> bool:
    """Whether every update tree of a sequence matches its reference (leaf by leaf, float64)."""
    try:
        for got, want in zip(got_seq, want_seq):
            close(got, want, rtol=rtol, atol=atol)
    except CheckFailed:
        return False
    return True


def run_updates(update, init, params, grads_seq):
    """The learner's updates for each gradient tree, through jax.jit(update), state carried."""
    state = init(params)
    step = jax.jit(update)
    got = []
    for g in grads_seq:
        updates, state = step(jax.tree.map(lambda a: jnp.asarray(a, jnp.float32), g), state, params)
        got.append(updates)
    return got
