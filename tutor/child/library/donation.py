"""Donated buffers: which ones JAX said it could not reuse (on CPU it only warns)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from tutor.child.library.originals import Wrapped
from tutor.jax_signals import DONATION_UNUSABLE


def aval_text(x: Any) -> str:
    """How JAX names an array's type in its messages: float32[128,1]."""
    return f"{jnp.result_type(x)}[{','.join(str(d) for d in np.shape(x))}]"


def donation_warnings(fn: Callable, *args, **kwargs) -> tuple[Any, list[str]]:
    """Call fn; return (its result, the array types JAX said it could not reuse although they
    were donated). On CPU JAX only warns about these; here they become findings. JAX warns
    when it lowers a program, so only a call with argument types fn has not seen yet tells."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, _unusable(caught)


def lowered_donation_warnings(fn: Callable, *args, **kwargs) -> list[str]:
    """The array types JAX could not reuse although donated, for a call of fn with these
    arguments: a jitted fn is only lowered (JAX warns there), not compiled nor run; any other
    fn is called. As for donation_warnings, types fn was already called with tell nothing."""
    if isinstance(fn, Wrapped):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fn.lower(*args, **kwargs)
        return _unusable(caught)
    return donation_warnings(fn, *args, **kwargs)[1]


def _unusable(caught: list[warnings.WarningMessage]) -> list[str]:
    unusable: list[str] = []
    for w in caught:
        m = DONATION_UNUSABLE.search(str(w.message))
        if m:
            unusable += [t.strip() for t in m.group(1).split(", ") if t.strip()]
    return unusable
