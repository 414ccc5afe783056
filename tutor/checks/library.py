"""The check library: what check code in the course YAML calls. Runs inside the worker.

Every helper judges meaning (values, trace counts, jaxpr primitives, gradients, structure)
and, when it fails, raises CheckFailed with an English and a Chinese message that says
what was expected, what came back, and where (which leaf, which call, which step).
"""

from __future__ import annotations

import functools
import inspect
import math
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np

from tutor.sandbox.channel import metric  # noqa: F401  (re-exported for check code)

# Originals, kept before any learner code runs: learners may monkey-patch jax.
_jit = jax.jit
_make_jaxpr = jax.make_jaxpr
_grad = jax.grad
_tree_flatten_with_path = jax.tree_util.tree_flatten_with_path
_tree_structure = jax.tree_util.tree_structure
_keystr = jax.tree_util.keystr
_Wrapped = jax.stages.Wrapped
_Tracer = jax.core.Tracer


class CheckFailed(Exception):
    """The learner's solution does not have the checked property."""

    def __init__(self, en: str, zh: str | None = None):
        super().__init__(en)
        self.en = en
        self.zh = zh or en


def fail(en: str, zh: str | None = None):
    raise CheckFailed(en, zh)


def expect(condition: Any, en: str, zh: str | None = None) -> None:
    if not condition:
        raise CheckFailed(en, zh)


# ---------------------------------------------------------------- values

def _fmt(x: Any) -> str:
    arr = np.asarray(x)
    if arr.size <= 6:
        return np.array2string(arr, precision=6, separator=", ") if arr.ndim else f"{arr.item():.6g}"
    flat = arr.reshape(-1)
    return f"array{arr.shape}[{', '.join(f'{v:.4g}' for v in flat[:4])}, ...]"


def _leaves(tree: Any) -> list[tuple[str, Any]]:
    flat, _ = _tree_flatten_with_path(tree)
    return [(_keystr(path), leaf) for path, leaf in flat]


def close(got: Any, want: Any, what: str = "result", rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Compare got against a float64 NumPy reference, leaf by leaf, with explicit tolerance."""
    got_leaves, want_leaves = _leaves(got), _leaves(want)
    if len(got_leaves) != len(want_leaves) or _tree_structure(got) != _tree_structure(want):
        structure(got, want, what)
    for (path, g), (_, w) in zip(got_leaves, want_leaves):
        where = _where(what, path)
        try:
            g_arr = np.asarray(g, dtype=np.float64)
        except (TypeError, ValueError):
            fail(f"{where} should be a number or array, got {type(g).__name__}",
                 f"{where} 应当是数值或数组,实际是 {type(g).__name__}")
        w_arr = np.asarray(w, dtype=np.float64)
        if g_arr.shape != w_arr.shape:
            fail(f"{where} has shape {g_arr.shape}, expected {w_arr.shape}",
                 f"{where} 的形状是 {g_arr.shape},应为 {w_arr.shape}")
        if not np.all(np.isfinite(g_arr) | ~np.isfinite(w_arr)):
            fail(f"{where} contains NaN or inf: got {_fmt(g_arr)}, expected {_fmt(w_arr)}",
                 f"{where} 中出现 NaN 或 inf:得到 {_fmt(g_arr)},应为 {_fmt(w_arr)}")
        if not np.allclose(g_arr, w_arr, rtol=rtol, atol=atol, equal_nan=True):
            err = np.abs(g_arr - w_arr)
            idx = np.unravel_index(int(np.nanargmax(err)), err.shape) if err.ndim else ()
            at = f" (largest error at index {tuple(int(i) for i in idx)})" if idx else ""
            at_zh = f"(误差最大处在下标 {tuple(int(i) for i in idx)})" if idx else ""
            fail(f"{where}: expected {_fmt(w_arr)}, got {_fmt(g_arr)}{at}; tolerance rtol={rtol:g}, atol={atol:g}",
                 f"{where}:应为 {_fmt(w_arr)},得到 {_fmt(g_arr)}{at_zh};容差 rtol={rtol:g}, atol={atol:g}")


def _where(what: str, path: str) -> str:
    """`state[0]` for a variable-like label, `grads at w=2 (leaf ['b'])` for a description."""
    if not path:
        return what
    return f"{what}{path}" if what.replace("_", "").replace(".", "").isalnum() else f"{what} (leaf {path})"


def structure(got: Any, like: Any, what: str = "result") -> None:
    """The PyTree structure of got equals that of like."""
    gs, ls = _tree_structure(got), _tree_structure(like)
    if gs != ls:
        fail(f"{what} has PyTree structure {gs}, expected {ls}",
             f"{what} 的 PyTree 结构是 {gs},应为 {ls}")


def dtypes(got: Any, want: Any, what: str = "result") -> None:
    """Every leaf of got has the dtype (and weak-type flag) of the matching leaf of want."""
    structure(got, want, what)
    for (path, g), (_, w) in zip(_leaves(got), _leaves(want)):
        gt, wt = type_of(g), type_of(w)
        if gt != wt:
            fail(f"{_where(what, path)} is {gt}, expected {wt}{_weak_note(gt, wt, 'en')}",
                 f"{_where(what, path)} 的类型是 {gt},应为 {wt}{_weak_note(gt, wt, 'zh')}")


def type_of(x: Any) -> str:
    """JAX's abstract type of x, e.g. 'float32[3]' or '~int32[]' (~ marks a weak type)."""
    try:
        return str(jax.typeof(x))
    except Exception:
        return f"{type(x).__name__}"


def _weak_note(a: str, b: str, lang: str) -> str:
    if a.lstrip("~") == b.lstrip("~") and a != b:
        if lang == "zh":
            return "(只差弱类型标记 ~:Python 标量得到的是弱类型)"
        return " (only the weak-type mark ~ differs: Python scalars give weak types)"
    return ""


def learner_attr(module: Any, name: str) -> Any:
    """A name the learner's file must define."""
    if not hasattr(module, name):
        fail(f"your file does not define `{name}`", f"你的文件里没有定义 `{name}`")
    return getattr(module, name)


# ---------------------------------------------------------------- tracing

def is_jitted(f: Any) -> bool:
    return isinstance(f, _Wrapped)


class TraceCounter:
    """A fresh jit of the learner's Python function that counts and records its traces."""

    def __init__(self, fn: Callable, name: str | None = None):
        self.name = name or getattr(fn, "__name__", "function")
        self.count = 0
        self.signatures: list[list[tuple[str, str]]] = []
        options: dict[str, Any] = {}
        inner = fn
        if is_jitted(fn):
            # jit caches by function object, so counting needs a new jit of the inner
            # function, rebuilt with the learner's own static/donate choices.
            inner = getattr(fn, "__wrapped__", None) or getattr(fn, "_fun")
            info = getattr(fn, "_jit_info", None)
            for key in ("static_argnums", "static_argnames", "donate_argnums", "donate_argnames"):
                value = getattr(info, key, None)
                if value:
                    options[key] = value
        self.options = options
        try:
            self.params = list(inspect.signature(inner).parameters)
        except (TypeError, ValueError):
            self.params = []
        counter = self

        # wraps() keeps the learner's name (in JAX errors) and signature (for static_argnames).
        @functools.wraps(inner)
        def counting(*args, **kwargs):
            counter.count += 1
            counter.signatures.append(counter._signature(args, kwargs))
            return inner(*args, **kwargs)

        self._jitted = _jit(counting, **options)

    def __call__(self, *args, **kwargs):
        return self._jitted(*args, **kwargs)

    def _signature(self, args, kwargs) -> list[tuple[str, str]]:
        sig = []
        for path, leaf in _tree_flatten_with_path((args, kwargs))[0]:
            if path and getattr(path[0], "idx", None) == 0 and len(path) > 1:
                pos = path[1].idx
                head = self.params[pos] if pos < len(self.params) else f"arg{pos}"
                rest = path[2:]
            elif path and len(path) > 1 and hasattr(path[1], "key"):  # a keyword argument
                head, rest = str(path[1].key), path[2:]
            else:
                head, rest = "", path[1:]
            label = head + _keystr(tuple(rest))
            if isinstance(leaf, _Tracer):
                sig.append((label, type_of(leaf)))
            else:
                sig.append((label, f"static {leaf!r}"))
        return sig

    def retrace_reasons(self) -> tuple[str, str]:
        """Why each trace after the first happened, in English and Chinese."""
        en, zh = [], []
        for i in range(1, len(self.signatures)):
            before, now = dict(self.signatures[i - 1]), dict(self.signatures[i])
            diffs = [(k, before.get(k), now.get(k)) for k in dict.fromkeys([*before, *now]) if before.get(k) != now.get(k)]
            if not diffs:
                en.append(f"trace {i + 1}: same argument types as before (was the function re-created or jitted again?)")
                zh.append(f"第 {i + 1} 次追踪:参数类型与上次相同(函数是否被重新创建或重新 jit?)")
                continue
            parts_en, parts_zh = [], []
            for k, a, b in diffs[:3]:
                a_s, b_s = a or "absent", b or "absent"
                parts_en.append(f"{k} was {_pretty(a_s, 'en')}, now {_pretty(b_s, 'en')}")
                parts_zh.append(f"{k} 之前是 {_pretty(a_s, 'zh')},这次是 {_pretty(b_s, 'zh')}")
            en.append(f"trace {i + 1} happened because " + "; ".join(parts_en))
            zh.append(f"第 {i + 1} 次追踪的原因:" + ";".join(parts_zh))
        return " | ".join(en), " | ".join(zh)


def _pretty(t: str, lang: str) -> str:
    if t.startswith("~"):
        return f"{t} (weak)" if lang == "en" else f"{t}(弱类型)"
    if t.startswith("static "):
        return f"{t[7:]} (static)" if lang == "en" else f"{t[7:]}(静态参数)"
    return t


def traced(fn: Callable, name: str | None = None) -> TraceCounter:
    return TraceCounter(fn, name)


def expect_traces(counter: TraceCounter, expected: int, calls: int | None = None) -> None:
    """The counted function was traced exactly `expected` times."""
    if counter.count == expected:
        return
    why_en, why_zh = counter.retrace_reasons()
    calls_en = f" over {calls} calls" if calls else ""
    calls_zh = f"(共调用 {calls} 次)" if calls else ""
    fail(f"`{counter.name}` was traced {counter.count} times{calls_en}, expected {expected}. {why_en}".strip(),
         f"`{counter.name}` 被追踪了 {counter.count} 次{calls_zh},应为 {expected} 次。{why_zh}".strip())


# ---------------------------------------------------------------- jaxprs

def _subjaxprs(params: dict):
    for value in params.values():
        items = value if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if hasattr(item, "jaxpr") and hasattr(item, "consts"):  # ClosedJaxpr
                yield item.jaxpr
            elif hasattr(item, "eqns"):  # Jaxpr
                yield item


def primitive_names(jaxpr) -> set[str]:
    """Every primitive name in a jaxpr, including those in nested sub-jaxprs."""
    if hasattr(jaxpr, "jaxpr") and hasattr(jaxpr, "consts"):
        jaxpr = jaxpr.jaxpr
    names: set[str] = set()
    stack = [jaxpr]
    while stack:
        current = stack.pop()
        for eqn in current.eqns:
            names.add(eqn.primitive.name)
            stack.extend(_subjaxprs(eqn.params))
    return names


def primitives(fn: Callable, *args, **kwargs) -> set[str]:
    """Primitive names used when fn is traced on these arguments."""
    return primitive_names(_make_jaxpr(fn)(*args, **kwargs))


def expect_primitive(fn: Callable, args: tuple, name: str, what: str | None = None) -> None:
    found = primitives(fn, *args)
    label = what or getattr(fn, "__name__", "the function")
    if name not in found:
        fail(f"no `{name}` primitive in the compiled program of {label}; found only: {', '.join(sorted(found)) or 'nothing'}",
             f"{label} 编译出的程序里没有 `{name}` 原语;只找到:{', '.join(sorted(found)) or '无'}")


# ---------------------------------------------------------------- exceptions and gradients

def raises(fn: Callable, *args, types: tuple[str, ...] = (), match: str | None = None, **kwargs) -> BaseException | None:
    """Call fn; return the exception if it raised one whose class (or a base) is named in types."""
    try:
        fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - the point is to look at any exception
        names = {c.__name__ for c in type(exc).__mro__}
        if types and not names & set(types):
            raise
        if match and match not in str(exc):
            raise
        return exc
    return None


def grad_check(f: Callable, x: Any, grads: Any, what: str = "gradient", eps: float = 1e-3,
               directions: int = 3, rtol: float = 2e-2, seed: int = 0) -> None:
    """Compare grads (a PyTree like x) with central finite differences of f along random directions."""
    rng = np.random.default_rng(seed)
    x_leaves = _leaves(x)
    g_flat = np.concatenate([np.asarray(g, np.float64).reshape(-1) for _, g in _leaves(grads)]) if x_leaves else np.zeros(0)
    treedef = _tree_structure(x)
    for k in range(directions):
        d_leaves = [rng.standard_normal(np.shape(leaf)) for _, leaf in x_leaves]
        d_flat = np.concatenate([d.reshape(-1) for d in d_leaves])
        d_flat /= np.linalg.norm(d_flat) or 1.0
        parts, offset = [], 0
        for _, leaf in x_leaves:
            n = int(np.size(leaf))
            parts.append(d_flat[offset:offset + n].reshape(np.shape(leaf)))
            offset += n
        plus = treedef.unflatten([jnp.asarray(np.asarray(l, np.float64) + eps * d, jnp.result_type(l)) for (_, l), d in zip(x_leaves, parts)])
        minus = treedef.unflatten([jnp.asarray(np.asarray(l, np.float64) - eps * d, jnp.result_type(l)) for (_, l), d in zip(x_leaves, parts)])
        numeric = (float(f(plus)) - float(f(minus))) / (2 * eps)
        analytic = float(np.dot(g_flat, d_flat))
        scale = max(abs(numeric), abs(analytic), 1e-3)
        if not math.isfinite(analytic) or abs(numeric - analytic) > rtol * scale:
            fail(f"{what} disagrees with finite differences along random direction {k + 1}: "
                 f"directional derivative {analytic:.6g} from your gradient, {numeric:.6g} numerically",
                 f"{what} 与有限差分不一致(随机方向 {k + 1}):你的梯度给出方向导数 {analytic:.6g},数值差分为 {numeric:.6g}")


def exports() -> dict[str, Any]:
    """The names check code sees."""
    from jax import lax

    return {
        "jax": jax, "jnp": jnp, "np": np, "lax": lax, "math": math,
        "CheckFailed": CheckFailed, "fail": fail, "expect": expect, "close": close,
        "structure": structure, "dtypes": dtypes, "type_of": type_of, "is_jitted": is_jitted,
        "traced": traced, "expect_traces": expect_traces, "primitives": primitives,
        "primitive_names": primitive_names, "expect_primitive": expect_primitive,
        "raises": raises, "grad_check": grad_check, "metric": metric,
    }
