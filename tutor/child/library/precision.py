"""Naming the narrow float a result was rounded through: state kept right in float32 but passed
through bfloat16 or float16 on the way (`.astype(jnp.bfloat16)`) holds only values those can
represent, so a check that sees a small drift can name that dtype instead of blaming a formula.
Runs inside the worker."""

from __future__ import annotations

from typing import Any

import jax
import ml_dtypes
import numpy as np

from tutor.child.library.values import NARROW_FLOATS

# Where close() names a narrow float by a result and its reference (values._narrow_float_note),
# this names it by the state alone: for a drift seen in what that state produced.
NARROW = tuple((name, ml_dtypes.bfloat16 if name == "bfloat16" else np.float16, bits) for name, bits in NARROW_FLOATS)


def rounded_through(tree: Any, least: int = 3) -> str | None:
    """The narrow float ("bfloat16", "float16") every float value of `tree` is exactly a value of,
    where the tree holds at least `least` nonzero finite ones; None where no such dtype explains
    them (float32 results seldom fall on bfloat16's grid by chance: 16 bits would have to be 0)."""
    values = [
        np.asarray(leaf, np.float64).ravel()
        for leaf in jax.tree.leaves(tree)
        if np.issubdtype(np.asarray(leaf).dtype, np.floating) or str(np.asarray(leaf).dtype) == "bfloat16"
    ]
    every = np.concatenate(values) if values else np.zeros(0)
    every = every[np.isfinite(every) & (every != 0)]
    if every.size < least:
        return None
    for name, kind, _ in NARROW:
        with np.errstate(all="ignore"):
            if np.array_equal(every.astype(kind).astype(np.float64), every):
                return name
    return None


def rounded_cause(dtype: str, what: tuple[str, str]) -> tuple[str, str]:
    """Why `what` (e.g. "the moments m and v") drifts, where rounded_through named `dtype`."""
    bits = dict(NARROW_FLOATS)[dtype]
    return (
        f"{what[0]} hold only values {dtype} can represent ({bits} bits of mantissa): they were rounded through "
        f"{dtype} (a cast such as .astype(jnp.{dtype})), which puts every result off by up to 2**-{bits}. Keep them "
        "in the parameter's own dtype, with no cast",
        f"{what[1]} 只包含 {dtype} 能表示的值（{bits} 位尾数）：它们经过了 {dtype} 的舍入"
        f"（例如 .astype(jnp.{dtype})），每个结果因此可能偏差到 2**-{bits}。请让它们保持参数自己的 dtype，不要转换类型",
    )
