"""Donated buffers: which ones JAX said it could not reuse (on CPU it only warns)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from tutor.jax_signals import DONATION_UNUSABLE


def aval_text(x: Any) -> str:
    """How JAX names an array's type in its messages: float32[128,1]."""
    return f"{jnp.result_type(x)}[{','.join(str(d) for d in np.shape(x))}]"


def donation_warnings(fn: Callable, *args, **kwargs) -> tuple[Any, list[str]]:
    """Call fn; return (its result, the array types JAX said it could not reuse although they
    were donated). On CPU JAX only warns about these; here they become findings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    unusable: list[str] = []
    for w in caught:
        m = DONATION_UNUSABLE.search(str(w.message))
        if m:
            unusable += [t.strip() for t in m.group(1).split(", ") if t.strip()]
    return out, unusable
