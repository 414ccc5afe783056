"""Edge inputs, where a shortcut that is right on ordinary inputs goes wrong: gradients that jump
after small ones (an optimizer's update then exceeds lr, so a clip shows), values holding inf and
NaN (a masked blend or a nansum shows) and a running statistic stepped from a count of 0. A check
asks for them by name and judges the answer against its own float64 reference; each generator
says what its input is for, so the message can name it. Runs inside the worker."""

from __future__ import annotations

from typing import Any

import numpy as np

from tutor.child.library.failures import Label, bilingual, fail
from tutor.child.library.values import device_rtol, fmt

# The values a buffer or a batch is given where the task defines what happens to them.
SPECIALS = (("inf", np.inf), ("-inf", -np.inf), ("NaN", np.nan))


def jumping_gradients(
    shapes: dict[str, tuple[int, ...]], quiet_steps: int, seed: int = 0, stacked: bool = False
) -> Any:
    """quiet_steps gradient trees of small entries (|g| about 1e-2, random signs), then one where
    every entry jumps to about 1 and one small again, as float64 dicts of `shapes`. After such a
    jump Adam with b1 < b2 has |m_hat| > sqrt(v_hat), and RMSProp with rho near 1 divides by
    about sqrt(1 - rho) * |g|: both move by several times lr, which a clipped update cannot.
    stacked: the same values as one array per key, steps first (a long run is not split into
    thousands of little dicts)."""
    rng = np.random.default_rng(seed)
    scale = np.r_[np.full(quiet_steps, 1e-2), 1.0, 1e-2]  # drawn at once: an edge may run 10,000 steps
    drawn = {
        k: rng.choice((-1.0, 1.0), size=(scale.size, *s)) * rng.uniform(0.5, 1.5, size=(scale.size, *s))
        for k, s in shapes.items()
    }
    if stacked:
        return {k: v * scale.reshape(-1, *(1,) * len(shapes[k])) for k, v in drawn.items()}
    return [{k: v[t] * scale[t] for k, v in drawn.items()} for t in range(scale.size)]


def moving_average(values: Any, keep: float) -> np.ndarray:
    """y[t] = keep * y[t - 1] + (1 - keep) * values[t] along the first axis, from y[-1] = 0, in
    float64: an optimizer's moment over a long edge, for its reference. In closed form block by
    block (y = keep**k * (carry + cumsum(keep**-j * x)), each block short enough that keep**-k
    stays below 1e150), not step by step: 10,000 steps in milliseconds, with no scipy to import."""
    x = (1 - keep) * np.asarray(values, np.float64)
    if keep == 0:
        return x
    out = np.empty_like(x)
    span = max(1, int(150 / max(-np.log10(keep), 1e-12)))
    carry = np.zeros(x.shape[1:])
    for start in range(0, len(x), span):
        block = x[start : start + span]
        k = np.arange(1, len(block) + 1, dtype=np.float64).reshape(-1, *(1,) * (x.ndim - 1))
        out[start : start + len(block)] = keep**k * (carry + np.cumsum(block * keep**-k, axis=0))
        carry = out[start + len(block) - 1]
    return out


def stacked_steps(seq: Any) -> dict[str, np.ndarray]:
    """A trajectory as one float64 array per key, steps first: from a list of update trees (dicts
    of arrays), or from such arrays already."""
    if isinstance(seq, dict):
        return {k: np.asarray(v, np.float64) for k, v in seq.items()}
    return {k: np.stack([np.asarray(tree[k], np.float64) for tree in seq]) for k in seq[0]}


def largest_step(updates_seq: Any, lr: float) -> float:
    """The largest |update| / lr over a sequence of update trees (dicts of arrays), or over a
    stacked trajectory (stacked_steps)."""
    return max(float(np.max(np.abs(v) / lr)) for v in stacked_steps(updates_seq).values())


def expect_steps_beyond_lr(
    got_seq: Any, want_seq: Any, lr: float, label: str, rtol=1e-4, atol=1e-7, judged_from: int = 1
) -> None:
    """The learner's updates for jumping_gradients against the float64 reference, step by step:
    the failure names a clip where the learner's updates never exceed what the reference exceeds.
    `rtol` is at least what the backend can promise (device_rtol: a TPU's float32 sqrt and
    division put a correct Adam's update 3e-4 off the reference there). Steps before
    `judged_from` (counted from 1) are not compared: where the formula itself is ill-conditioned
    in float32 there, the difference is the backend's, not the learner's."""
    rtol = device_rtol(rtol)
    # every step at once (an edge runs thousands), then the first step and leaf that differs
    got_all, want_all = stacked_steps(got_seq), stacked_steps(want_seq)
    steps = len(next(iter(want_all.values())))
    off = {}
    for k, w in want_all.items():
        close_enough = np.isclose(got_all[k], w, rtol=rtol, atol=atol).reshape(steps, -1).all(axis=1)
        close_enough[: max(judged_from - 1, 0)] = True
        if not close_enough.all():
            off[k] = int(np.argmin(close_enough))
    if not off:
        return
    k, first = min(off.items(), key=lambda item: item[1])
    t, g, w = first + 1, got_all[k][first], want_all[k][first]
    theirs, ours = largest_step(got_all, lr), largest_step(want_all, lr)
    there = max(float(np.max(np.abs(v[first]) / lr)) for v in got_all.values())
    clip_en = clip_zh = ""
    if theirs < 0.9 * ours and theirs >= 0.999 * there:
        clip_en = (
            f" None of your updates is larger than {theirs:.3g} × lr, where the formula's reach "
            f"{ours:.3g} × lr: the update looks clipped (or bounded). The formula has no clip: after small "
            "gradients a large one moves a parameter by more than lr, and that is right"
        )
        clip_zh = (
            f"你的增量没有一个超过 {theirs:.3g} × lr，而公式给出的可达 {ours:.3g} × lr：增量像是被截断"
            "（或被限制）了。公式里没有截断：一串小梯度之后来一个大梯度，参数移动超过 lr，这是对的"
        )
    fail(
        f"{label}, gradients of about 0.01 for {steps - 2} steps, then about 1 (a jump), then 0.01: "
        f"at step {t} updates['{k}'] is {fmt(g)}, expected {fmt(w)} (float64 reference).{clip_en}",
        f"{label}，梯度先是约 0.01（{steps - 2} 步），然后跳到约 1，再回到 0.01："
        f"第 {t} 步 updates['{k}'] 是 {fmt(g)}，应为 {fmt(w)}（float64 参考）。{clip_zh}",
    )


def planted(values: np.ndarray, keep: int) -> np.ndarray:
    """A float64 copy of a 1-D array with inf, -inf and NaN planted at the first positions other
    than `keep` (a write's target, say): whatever a write leaves as it was must stay so exactly."""
    out = np.array(values, np.float64, copy=True)
    spots = [i for i in range(out.size) if i != keep % max(out.size, 1)]
    for i, (_, special) in zip(spots, SPECIALS):
        out[i] = special
    return out


def special_where(got: Any, want: Any, what: Label, cause: Label) -> None:
    """got equals want where want holds inf or NaN (NaN against NaN, inf of the same sign) and is
    close elsewhere; the failure names the first entry and `cause`, the likely shortcut."""
    g, w = np.asarray(got, np.float64).reshape(-1), np.asarray(want, np.float64).reshape(-1)
    en, zh = bilingual(what)
    cause_en, cause_zh = bilingual(cause)
    for i, (a, b) in enumerate(zip(g, w)):
        same = (np.isnan(a) and np.isnan(b)) or a == b or (np.isfinite(b) and abs(a - b) <= 1e-6 + 1e-5 * abs(b))
        if not same:
            at = f" at index {i}" if g.size > 1 else ""
            at_zh = f"下标 {i} 处" if g.size > 1 else ""
            fail(
                f"{en}: {fmt(g)}, expected {fmt(w)}: {a:g}{at} instead of {b:g}. {cause_en}",
                f"{zh}：{fmt(g)}，应为 {fmt(w)}：{at_zh}是 {a:g} 而不是 {b:g}。{cause_zh}",
            )


def finite_twin(values: Any, stand_in: float = 5.0) -> np.ndarray:
    """values with every inf and NaN replaced by stand_in: the same input without the edge. A check
    runs the twin first, and judges the edge only where the twin comes out right, so that an edge
    fails only what the special values change (another bug is another check's to name)."""
    arr = np.array(values, np.float64, copy=True)
    arr[~np.isfinite(arr)] = stand_in
    return arr
