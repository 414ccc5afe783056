"""A training check's live chart: `metric` streams points to it (batched, cheap), and
`run_training` runs the learner's steps, streaming each loss, until NaN, inf or the end."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from tutor.child.channel import metric
from tutor.child.library.failures import fail


def run_training(
    step: Callable, carry: Any, steps: int, series: str = "loss", long: bool = False
) -> tuple[Any, list[float]]:
    """Call `carry, loss = step(carry)` until `steps` losses came back, each streamed to the chart
    (`series`); a step may return one loss or a chunk of them (a scan over several steps). Fails
    naming the step at which the loss first became NaN or inf. Returns (carry, losses)."""
    losses: list[float] = []
    if long:
        step = optimized(step, carry)
    while len(losses) < steps:
        carry, chunk = step(carry)
        for value in np.asarray(chunk, np.float64).reshape(-1).tolist():
            metric(series, len(losses), value)
            if not math.isfinite(value):
                fail(
                    f"the loss became NaN or inf during training (first at step {len(losses)})",
                    f"训练过程中损失变成了 NaN 或 inf（第一次出现在第 {len(losses)} 步）",
                )
            losses.append(value)
    return carry, losses


def optimized(step: Callable, carry: Any) -> Callable:
    """`step` (a jax.jit function of the carry) compiled with LLVM's full optimization, for a loop
    long enough to repay it: judging workers compile at -O0 (compile_flags), which suits programs
    run a few times. `step` itself where it cannot be compiled ahead for this carry (not a
    jax.jit function, or a later carry of other types), so that its own errors are the ones seen."""
    lower = getattr(step, "lower", None)  # a jax.jit function's
    if lower is None:
        return step
    try:
        compiled = lower(carry).compile(compiler_options={"xla_backend_optimization_level": 3})
    except Exception:  # noqa: BLE001 - the plain call below raises whatever is the learner's to see
        return step

    def run(carry):
        try:
            return compiled(carry)
        except TypeError:  # the carry's types changed: the plain jit function compiles for them
            return step(carry)

    return run
