"""Judging values: every leaf of a PyTree against a NumPy float64 reference (`close`), its
structure, dtypes and weak types, NaN and inf; each failure names the leaf and the index."""

from __future__ import annotations

import re
from typing import Any

import jax
import numpy as np

from tutor.child.library.failures import Label, bilingual, fail
from tutor.child.library.originals import (
    NUMPY_SCALARS,
    ArrayImpl,
    absolute,
    add,
    canonicalize_dtype,
    default_backend,
    device_put,
    equal,
    errstate,
    every,
    isfinite,
    isnan,
    keystr,
    less_equal,
    logical_and,
    logical_or,
    multiply,
    np_array,
    np_asarray,
    subtract,
    tree_flatten_with_path,
    tree_structure,
)


def fmt(x: Any) -> str:
    """A value as a message shows it: whole for six numbers or fewer, else its shape and first four."""
    arr = np.asarray(x)
    if arr.size <= 6:
        return np.array2string(arr, precision=6, separator=", ") if arr.ndim else f"{arr.item():.6g}"
    flat = arr.reshape(-1)
    return f"array{arr.shape}[{', '.join(f'{v:.4g}' for v in flat[:4])}, ...]"


def _fmt_int(arr: np.ndarray) -> str:
    """Whole numbers as whole numbers ("3", not "3.0"), for counts and steps."""
    if arr.ndim == 0 and np.isfinite(arr) and arr == np.round(arr):
        return f"{arr.item():.0f}"
    return fmt(arr)


def leaves(tree: Any) -> list[tuple[str, Any]]:
    """(path as JAX writes it, leaf) for every leaf of a PyTree: `['w']`, `[0]`, `.mu`."""
    flat, _ = tree_flatten_with_path(tree)
    return [(keystr(path), leaf) for path, leaf in flat]


# How closely the default backend's float32 arithmetic can follow a float64 reference. A TPU's exp,
# log, pow and tanh agree to 4-5 digits, and a cancellation magnifies that: Adam's 1 - b2**t at step
# 2 is 0.001999, and its reference solution's step-2 update came out 2.8e-4 off on a TPU v5e (JAX
# 0.10.2). The checks are about state, not precision: there they allow this much. CPUs, and GPUs
# (judging workers set matmul precision "highest"), follow the reference as tightly as asked.
BACKEND_RTOL = {"tpu": 1e-3}


def device_rtol(rtol: float) -> float:
    """`rtol`, or what the default backend can promise where that is looser."""
    return max(rtol, BACKEND_RTOL.get(default_backend(), 0.0))


def close(got: Any, want: Any, what: Label = "result", rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Compare got against a float64 NumPy reference, leaf by leaf, with explicit tolerance (at
    least what the backend can promise: device_rtol). The reference is copied into read-only
    arrays first, and only values of known kinds are read from got (no `__array__` of a learner
    class is called), compared with NumPy's ufuncs as taken before learner code ran."""
    rtol = device_rtol(rtol)
    want_leaves = [(path, _locked(w)) for path, w in leaves(want)]
    got_leaves = leaves(got)
    if len(got_leaves) != len(want_leaves) or tree_structure(got) != tree_structure(want):
        structure(got, want, what)
    for (path, g), (_, w_arr) in zip(got_leaves, want_leaves):
        where, where_zh = where_in(what, path)
        raw = _plain(g)
        if raw is None:
            fail(
                f"{where} should be a number or array, got {type(g).__name__}",
                f"{where_zh} 应当是数值或数组，实际是 {type(g).__name__}",
            )
        try:
            g_arr = np_array(raw, dtype=np.float64, copy=True, subok=False)
        except (TypeError, ValueError):
            fail(
                f"{where} should be a number or array, got {type(g).__name__}",
                f"{where_zh} 应当是数值或数组，实际是 {type(g).__name__}",
            )
        if g_arr.shape != w_arr.shape:
            fail(
                f"{where} has shape {g_arr.shape}, expected {w_arr.shape}",
                f"{where_zh} 的形状是 {g_arr.shape}，应为 {w_arr.shape}",
            )
        if raw.dtype.kind in "iub":
            # Integers are counted, not measured: compare exactly, with no tolerance in the message.
            if not every(equal(g_arr, w_arr), axis=None):
                bad = np.argwhere(g_arr != w_arr)
                at = f" (first at index {tuple(int(i) for i in bad[0])})" if g_arr.ndim and len(bad) else ""
                at_zh = f"（首个不同处在下标 {tuple(int(i) for i in bad[0])}）" if g_arr.ndim and len(bad) else ""
                fail(
                    f"{where}: expected {_fmt_int(w_arr)}, got {_fmt_int(g_arr)}{at}",
                    f"{where_zh}：应为 {_fmt_int(w_arr)}，得到 {_fmt_int(g_arr)}{at_zh}",
                )
            continue
        if not every(logical_or(isfinite(g_arr), ~isfinite(w_arr)), axis=None):
            fail(
                f"{where} contains NaN or inf: got {fmt(g_arr)}, expected {fmt(w_arr)}",
                f"{where_zh} 中出现 NaN 或 inf：得到 {fmt(g_arr)}，应为 {fmt(w_arr)}",
            )
        if not _all_close(g_arr, w_arr, rtol, atol):
            err = np.abs(g_arr - w_arr)
            idx = np.unravel_index(int(np.nanargmax(err)), err.shape) if err.ndim else ()
            at = f" (largest error at index {tuple(int(i) for i in idx)})" if idx else ""
            at_zh = f"（误差最大处在下标 {tuple(int(i) for i in idx)}）" if idx else ""
            narrow_en, narrow_zh = _narrow_float_note(g_arr, w_arr)
            fail(
                f"{where}: expected {fmt(w_arr)}, got {fmt(g_arr)}{at}; tolerance rtol={rtol:g}, atol={atol:g}"
                + narrow_en,
                f"{where_zh}：应为 {fmt(w_arr)}，得到 {fmt(g_arr)}{at_zh}；容差 rtol={rtol:g}, atol={atol:g}"
                + narrow_zh,
            )


# Floats narrower than float32, with the bits of their significand: a result that holds no more
# than that, and is off by about that much, was computed in it somewhere.
NARROW_FLOATS = (("bfloat16", 8), ("float16", 11))


def _narrow_float_note(got: np.ndarray, want: np.ndarray) -> tuple[str, str]:
    """Where got is want rounded to bfloat16 or float16 (every entry representable there, each
    within that rounding of want, and the entries that differ not representable in it): that dtype
    named as the cause of the drift. ("", "") otherwise."""
    import ml_dtypes

    finite = isfinite(got) & isfinite(want)
    differs = finite & ~equal(got, want)
    if not differs.any():
        return "", ""
    for name, bits in NARROW_FLOATS:
        kind = getattr(ml_dtypes, name) if name == "bfloat16" else np.float16
        with errstate(all="ignore"):
            held = np_asarray(got.astype(kind), dtype=np.float64)
            want_held = np_asarray(want.astype(kind), dtype=np.float64)
        near = absolute(subtract(got, want)) <= absolute(want) * 2.0 ** (1 - bits) + 1e-30
        if every(equal(held, got) | ~finite, axis=None) and every(near | ~finite, axis=None):
            mantissa, exponent = np.frexp(got)
            coarse = np.ldexp(np.round(mantissa * 2.0 ** (bits - 3)) / 2.0 ** (bits - 3), exponent)
            # a differing entry that needs the narrow dtype's last bits: round numbers such as 0.25
            # fit every float, and say nothing
            if (differs & ~equal(want_held, want) & ~equal(coarse, got)).any():
                return (
                    f". Every value you return fits in {name} ({bits} bits of precision, about "
                    f"{bits * 0.3:.0f} significant digits), and each is off by up to its rounding: the drift comes "
                    f"from computing in {name} somewhere (an .astype(jnp.{name}), a {name} constant or input). Keep "
                    "the computation in the state's own dtype",
                    f"。你返回的每个值都能用 {name} 表示（{bits} 位精度，约 {bits * 0.3:.0f} 位有效数字），"
                    f"而且误差都在它的舍入范围内：偏差来自某处用 {name} 计算（.astype(jnp.{name})、{name} 常量或输入）。"
                    "请用状态自己的 dtype 计算",
                )
    return "", ""


def _locked(value: Any) -> np.ndarray:
    """A float64 copy of a reference that nothing can write to: backed by bytes, so its
    writeable flag cannot be set back (learner code run while got is read cannot change it)."""
    arr = np_array(np_asarray(value, dtype=np.float64), dtype=np.float64, copy=True, subok=False)
    return np.frombuffer(arr.tobytes(), dtype=np.float64).reshape(arr.shape)


def _plain(g: Any) -> np.ndarray | None:
    """g as a NumPy array, for the kinds of value whose conversion runs none of the learner's code
    (a JAX array, a NumPy array or scalar, a Python number); None for anything else."""
    kind = type(g)
    if kind is ArrayImpl or kind is np.ndarray or kind in NUMPY_SCALARS or kind in (int, float, bool):
        return np_asarray(g)
    return None


def _all_close(g: np.ndarray, w: np.ndarray, rtol: float, atol: float) -> bool:
    """np.allclose(g, w, rtol, atol, equal_nan=True), from ufuncs alone: equal infinities and NaN
    against NaN count as close."""
    with errstate(invalid="ignore", over="ignore"):
        near = less_equal(absolute(subtract(g, w)), add(atol, multiply(rtol, absolute(w))))
    return bool(every(logical_or(logical_or(near, equal(g, w)), logical_and(isnan(g), isnan(w))), axis=None))


def where_in(what: Label, path: str) -> tuple[str, str]:
    """(English, Chinese) names of one leaf: `state[0]` for a variable-like label,
    `grads at w=2 (leaf ['b'])` / `w=2 处的梯度(叶子 ['b'])` for a description."""
    en, zh = bilingual(what)
    if not path:
        return en, zh
    return (
        f"{en}{path}" if _variable_like(en) else f"{en} (leaf {path})",
        f"{zh}{path}" if _variable_like(zh) else f"{zh}（叶子 {path}）",
    )


def _variable_like(text: str) -> bool:
    """`state`, `opt.mu`: a leaf path reads naturally right after it."""
    bare = text.replace("_", "").replace(".", "")
    return bare.isascii() and bare.isalnum()


def structure(got: Any, like: Any, what: Label = "result") -> None:
    """The PyTree structure of got equals that of like."""
    gs, ls = tree_structure(got), tree_structure(like)
    if gs != ls:
        en, zh = bilingual(what)
        kind_en, kind_zh = _container_note(got, like)
        fail(
            f"{en} has PyTree structure {gs}, expected {ls}{kind_en}",
            f"{zh} 的 PyTree 结构是 {gs}，应为 {ls}{kind_zh}",
        )


def _container_note(got: Any, like: Any) -> tuple[str, str]:
    """Where a tuple or list came where a dict was asked (or the other way round): the kinds named,
    with the keys the dict must have, since the structures' text alone hides it."""
    sequence = (tuple, list)
    if isinstance(like, dict) and isinstance(got, sequence):
        keys = ", ".join(repr(k) for k in like)
        return (
            f": a {type(got).__name__} of {len(got)} values where a dict with the keys {keys} is asked. Values "
            "matched by position are not matched by name: build the dict, {"
            + ", ".join(f"{k!r}: ..." for k in like)
            + "}",
            f"：给的是含 {len(got)} 个值的 {type(got).__name__}，而要求的是键为 {keys} 的 dict。按位置排列的值"
            "不能按名字对上：请构造这个 dict，{" + ", ".join(f"{k!r}: ..." for k in like) + "}",
        )
    if isinstance(got, dict) and isinstance(like, sequence):
        return (
            f": a dict (keys {', '.join(repr(k) for k in got)}) where a {type(like).__name__} of {len(like)} "
            "values is asked",
            f"：给的是 dict（键为 {'、'.join(repr(k) for k in got)}），而要求的是含 {len(like)} 个值的 "
            f"{type(like).__name__}",
        )
    return "", ""


def dtypes(got: Any, want: Any, what: Label = "result") -> None:
    """Every leaf of got has the dtype (and weak-type flag) of the matching leaf of want."""
    structure(got, want, what)
    for (path, g), (_, w) in zip(leaves(got), leaves(want)):
        gt, wt = type_of(g), type_of(w)
        if gt != wt:
            where, where_zh = where_in(what, path)
            x64_en, x64_zh = x64_note(gt, expected=wt)
            fail(
                f"{where} is {gt}, expected {wt}{_weak_note(gt, wt, 'en')}{x64_en}",
                f"{where_zh} 的类型是 {gt}，应为 {wt}{_weak_note(gt, wt, 'zh')}{x64_zh}",
            )


def x64_enabled() -> bool:
    """Whether 64-bit types are on where the learner's code runs (JAX_ENABLE_X64 in their shell,
    or jax_enable_x64 set in their file; the harness keeps either): then JAX's defaults are
    float64 and int64, and a Python number is a weak 64-bit type. The checks run in that mode
    too: they name every dtype they build, and judge values in float64 either way."""
    return canonicalize_dtype(np.float64) == np.float64


_WIDE = re.compile(r"\b(float|u?int|complex)(64|128)\b")


def _is_wide(x: Any) -> bool:
    """Whether x (an array, a dtype, or a type as type_of writes it) has a 64-bit (or wider) dtype."""
    if isinstance(x, str):
        return bool(_WIDE.search(x))
    try:
        return bool(_WIDE.search(str(np.dtype(getattr(x, "dtype", x)))))
    except (TypeError, ValueError):  # a PRNG key's dtype, or no dtype at all
        return False


def x64_note(*got: Any, expected: Any = None) -> tuple[str, str]:
    """(English, Chinese) to end a message about a dtype with, or ("", "") where it says nothing
    new: when 64-bit types are on and one of `got` (arrays, dtypes, or types as type_of writes
    them) is 64-bit where `expected`, if given, is not, the learner may not know their defaults
    changed: name the cause (JAX_ENABLE_X64) and the fix (name the dtype)."""
    if not x64_enabled() or not any(_is_wide(g) for g in got) or (expected is not None and _is_wide(expected)):
        return "", ""
    return (
        ". JAX_ENABLE_X64 is on (your shell or your file sets it), so JAX's default dtypes are 64-bit: "
        "jnp.zeros(n), jnp.array(0.0) and Python numbers give float64 or int64 unless the dtype is named "
        "(jnp.zeros(n, jnp.float32)) or follows an array's (jnp.zeros_like(p))",
        "。JAX_ENABLE_X64 已打开（由你的 shell 或文件设置），所以 JAX 的默认 dtype 是 64 位："
        "jnp.zeros(n)、jnp.array(0.0) 和 Python 数值都会得到 float64 或 int64，除非写明 dtype"
        "（jnp.zeros(n, jnp.float32)）或沿用某个数组的 dtype（jnp.zeros_like(p)）",
    )


def type_of(x: Any) -> str:
    """JAX's abstract type of x, e.g. 'float32[3]' or '~int32[]' (~ marks a weak type)."""
    try:
        return str(jax.typeof(x))
    except Exception:  # noqa: BLE001 - any object can reach a message; it is named, not typed
        return f"{type(x).__name__}"


def _weak_note(a: str, b: str, lang: str) -> str:
    if a.lstrip("~") == b.lstrip("~") and a != b:
        if lang == "zh":
            return "（只差弱类型标记 ~：Python 标量得到的是弱类型）"
        return " (only the weak-type mark ~ differs: Python scalars give weak types)"
    return ""


def finite(tree: Any, what: Label = "result") -> None:
    """Fail naming the first leaf and index holding NaN or inf, before any check of direction or value."""
    en, zh = bilingual(what)
    for path, leaf in leaves(tree):
        arr = np.asarray(leaf, np.float64)
        bad = np.argwhere(~np.isfinite(arr))
        if len(bad):
            at = f"[{', '.join(str(int(i)) for i in bad[0])}]" if arr.ndim else ""
            value = arr[tuple(bad[0])] if arr.ndim else arr.item()
            fail(
                f"{en}{path}{at} is {value}: the first NaN or inf appears here",
                f"{zh}{path}{at} 是 {value}：第一个 NaN 或 inf 出现在这里",
            )


def as_float32(tree: Any) -> Any:
    """Every leaf as a float32 JAX array: the learner's inputs, built from float64 references.
    Rounded by NumPy and put on the device as it is: `jnp.asarray(a, jnp.float32)` compiles an
    XLA conversion for every new shape (5-25 ms each, on a worker's first check)."""
    return jax.tree.map(lambda a: device_put(np.asarray(a, np.float32)), tree)


_HOW_MANY = {2: ("a pair", "二元组"), 3: ("three values", "三个值")}


def returns(out: Any, names: tuple[str, ...], call: str) -> tuple:
    """out as a tuple of len(names) values, or a failure naming what came back instead:
    `new_state, loss = returns(out, ("new_state", "loss"), "train_step")`."""
    if isinstance(out, (tuple, list)) and len(out) == len(names):
        return tuple(out)
    many_en, many_zh = _HOW_MANY.get(len(names), (f"{len(names)} values", f"{len(names)} 个值"))
    if isinstance(out, (tuple, list)):
        got_en, got_zh = f" of length {len(out)}", f"，长度为 {len(out)}"
    elif isinstance(out, (jax.Array, np.ndarray, np.generic, int, float)):
        got_en, got_zh = f" ({type_of(out)})", f"({type_of(out)})"
    else:
        got_en = got_zh = ""
    fail(
        f"{call} should return {many_en} ({', '.join(names)}), got {type(out).__name__}{got_en}",
        f"{call} 应返回{many_zh} ({', '.join(names)})，实际返回 {type(out).__name__}{got_zh}",
    )
