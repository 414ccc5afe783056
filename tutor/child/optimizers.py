"""Helpers for checking an optimizer written as (init, update) against a float64 reference:
shared by the exercises whose learner writes one (adam, rmsprop). Runs inside the worker."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.library import CheckFailed, Label, close, fail, type_of
from tutor.child.library.failures import bilingual
from tutor.child.library.originals import keystr, tree_flatten_with_path


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


def state_follows_params(state: Any, params: Any, what: Label = "state") -> None:
    """Every floating leaf of an optimizer state shaped like a parameter has that parameter's
    dtype. Use params of distinct shapes and mixed dtypes (float32, bfloat16, float16): a state
    built with jnp.zeros(p.shape) is float32 whatever the parameter, which only such a test sees."""
    en, zh = bilingual(what)
    by_shape: dict = {}
    for path, p in tree_flatten_with_path(params)[0]:
        by_shape.setdefault(np.shape(p), set()).add((keystr(path), str(jnp.result_type(p))))
    for path, leaf in tree_flatten_with_path(state)[0]:
        if not hasattr(leaf, "dtype") or not jnp.issubdtype(leaf.dtype, jnp.inexact):
            continue
        mirrors = by_shape.get(np.shape(leaf))
        if not mirrors or len({d for _, d in mirrors}) != 1:
            continue  # no parameter of this shape, or several of different dtypes: nothing to say
        where, dtype = sorted(mirrors)[0]
        if str(jnp.result_type(leaf)) != dtype:
            fail(
                f"{en}{keystr(path)} is {type_of(leaf)}, but the parameter it mirrors, params{where}, is {dtype}: "
                "optimizer state must follow each parameter's dtype. Build it with jnp.zeros_like(p) (or "
                "jnp.zeros(p.shape, p.dtype)), not jnp.zeros(p.shape), which is always float32",
                f"{zh}{keystr(path)} 是 {type_of(leaf)}，但它对应的参数 params{where} 是 {dtype}："
                "优化器状态必须跟随每个参数的 dtype。请用 jnp.zeros_like(p)（或 jnp.zeros(p.shape, p.dtype)）构造，"
                "不要用 jnp.zeros(p.shape)，它总是 float32",
            )
