"""Judging a gradient against central finite differences along random directions."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from tutor.child.library.failures import Label, bilingual, fail
from tutor.child.library.originals import default_backend, default_device, device_put, devices, tree_structure
from tutor.child.library.values import leaves


def grad_check(
    f: Callable,
    x: Any,
    grads: Any,
    what: Label = "gradient",
    eps: float = 1e-3,
    directions: int = 3,
    rtol: float = 2e-2,
    seed: int = 0,
) -> None:
    """Compare grads (a PyTree like x) with central finite differences of f along random directions."""
    rng = np.random.default_rng(seed)
    x_leaves = leaves(x)
    g_flat = (
        np.concatenate([np.asarray(g, np.float64).reshape(-1) for _, g in leaves(grads)]) if x_leaves else np.zeros(0)
    )
    treedef = tree_structure(x)
    on = _differences_device()
    for k in range(directions):
        d_leaves = [rng.standard_normal(np.shape(leaf)) for _, leaf in x_leaves]
        d_flat = np.concatenate([d.reshape(-1) for d in d_leaves])
        d_flat /= np.linalg.norm(d_flat) or 1.0
        parts, offset = [], 0
        for _, leaf in x_leaves:
            n = int(np.size(leaf))
            parts.append(d_flat[offset : offset + n].reshape(np.shape(leaf)))
            offset += n
        with default_device(on) if on is not None else contextlib.nullcontext():
            plus = treedef.unflatten([_moved(l, eps * d) for (_, l), d in zip(x_leaves, parts)])
            minus = treedef.unflatten([_moved(l, -eps * d) for (_, l), d in zip(x_leaves, parts)])
            numeric = (float(f(plus)) - float(f(minus))) / (2 * eps)
        analytic = float(np.dot(g_flat, d_flat))
        scale = max(abs(numeric), abs(analytic), 1e-3)
        if not math.isfinite(analytic) or abs(numeric - analytic) > rtol * scale:
            en, zh = bilingual(what)
            fail(
                f"{en} disagrees with finite differences along random direction {k + 1}: "
                f"directional derivative {analytic:.6g} from your gradient, {numeric:.6g} numerically",
                f"{zh} 与有限差分不一致（随机方向 {k + 1}）：你的梯度给出方向导数 {analytic:.6g}，数值差分为 {numeric:.6g}",
            )


def _differences_device():
    """Where the finite differences are taken: the CPU when the default backend is an accelerator.
    A central difference divides the function's own rounding by 2 * eps, and a TPU's float32
    tanh and exp agree with float64 to only 4-5 digits: the rnn's reference solution was 3 % off
    along a direction there (TPU v5e, JAX 0.10.2). None: the default device (the CPU already)."""
    if default_backend() == "cpu":
        return None
    return devices("cpu")[0]


def _moved(leaf: Any, step: np.ndarray) -> Any:
    """leaf + step, worked out in float64 and rounded by NumPy to the leaf's dtype, then put on the
    device (jnp.asarray(..., dtype) compiles a conversion program for every new shape)."""
    return device_put(np.asarray(np.asarray(leaf, np.float64) + step, jnp.result_type(leaf)))
