"""The check library: what each exercise's `checks.py` imports. Runs inside the worker.

Every helper judges meaning (values, trace counts, jaxpr primitives, gradients, structure)
and, when it fails, raises CheckFailed with an English and a Chinese message that says
what was expected, what came back, and where (which leaf, which call, which step).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import inspect
import math
import re
import types
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from tutor.child.channel import metric  # noqa: F401 - part of the library: a training check streams its loss with it
from tutor.jax_signals import DONATION_UNUSABLE, TRACE_EVENT

# Originals, kept before any learner code runs: learners may monkey-patch jax.
_jit = jax.jit
_make_jaxpr = jax.make_jaxpr
_grad = jax.grad
_tree_flatten_with_path = jax.tree_util.tree_flatten_with_path
_tree_structure = jax.tree_util.tree_structure
_keystr = jax.tree_util.keystr
_Wrapped = jax.stages.Wrapped
_Tracer = jax.core.Tracer
_listen = jax.monitoring.register_event_duration_secs_listener
_unlisten = jax.monitoring.unregister_event_duration_listener

# A label for a value in messages: one str for both languages, or a pair (English, Chinese).
Label = str | tuple[str, str]


class CheckFailed(Exception):
    """The learner's solution does not have the checked property."""

    def __init__(self, en: str, zh: str | None = None):
        super().__init__(en)
        self.en = en
        self.zh = _tight(zh) if zh else en


def _tight(zh: str) -> str:
    """A label that ends in （…） is followed by a template's " 的…": no space after a full-width mark."""
    return _SPACE_AFTER_MARK.sub("", zh)


_SPACE_AFTER_MARK = re.compile("(?<=[）：，；]) (?=[\u4e00-\u9fff])")


class CheckError(Exception):
    """The check itself cannot judge (the tutor's fault, not the learner's): reported as error."""

    def __init__(self, en: str, zh: str | None = None):
        super().__init__(en)
        self.en = en
        self.zh = zh or en


def fail(en: str, zh: str | None = None):
    raise CheckFailed(en, zh)


def expect(condition: Any, en: str, zh: str | None = None) -> None:
    if not condition:
        raise CheckFailed(en, zh)


# ---------------------------------------------------------------- declaring checks


class CheckDef(NamedTuple):
    """What `@check` says about a check function (the loader reads the same from the source)."""

    id: str
    depends: tuple[str, ...]
    plots: bool


def check(check_id: str, *, depends: tuple[str, ...] | list[str] = (), plots: bool = False):
    """Declare a check of an exercise: `@check("counts-up", depends=["defines"])` on a function
    whose parameters name what it needs from the learner's file (`learner` is the module itself).
    It passes when it returns; it fails when a helper raises CheckFailed or the learner's code
    raises. `depends`: skipped unless these earlier checks passed; `plots`: it streams `metric`
    points (the exercise's chart). Its name and advice are prose, in exercise.yaml."""

    def register(fn: Callable) -> Callable:
        fn.__check__ = CheckDef(check_id, tuple(depends), plots)
        return fn

    return register


def is_defined(**named: Any) -> None:
    """Each value (a name from the learner's file) is a function or a class."""
    for name, value in named.items():
        expect(
            callable(value),
            f"`{name}` should be a function or class, got {type(value).__name__}",
            f"`{name}` 应当是函数或类，实际是 {type(value).__name__}",
        )


def _label(what: Label) -> tuple[str, str]:
    """(English, Chinese) of a label given as one str (both languages) or as a pair."""
    if isinstance(what, str):
        return what, what
    if isinstance(what, (tuple, list)) and len(what) == 2 and all(isinstance(w, str) for w in what):
        return what[0], what[1]
    raise CheckError(f"a label is a str or a pair (en, zh) of str, got {what!r}")


@contextlib.contextmanager
def on_failure(en: str, zh: str | None = None) -> Iterator[None]:
    """Append a sentence to the message of any check failure raised inside the block:
    `with on_failure("Each step starts from the last result", "每一步都从上一步的结果出发"): close(...)`."""
    try:
        yield
    except CheckFailed as exc:
        raise CheckFailed(_append(exc.en, en, "en"), _append(exc.zh, zh or en, "zh")) from None


def _append(message: str, sentence: str, lang: str) -> str:
    message = message.rstrip()
    if lang == "zh":
        return message + ("" if message.endswith(("。", "!", "?", ":", ";", ".")) else "。") + sentence
    return message + (" " if message.endswith((".", "!", "?", ":", ";")) else ". ") + sentence


# ---------------------------------------------------------------- values


def _fmt(x: Any) -> str:
    arr = np.asarray(x)
    if arr.size <= 6:
        return np.array2string(arr, precision=6, separator=", ") if arr.ndim else f"{arr.item():.6g}"
    flat = arr.reshape(-1)
    return f"array{arr.shape}[{', '.join(f'{v:.4g}' for v in flat[:4])}, ...]"


def _fmt_int(arr: np.ndarray) -> str:
    """Whole numbers as whole numbers ("3", not "3.0"), for counts and steps."""
    if arr.ndim == 0 and np.isfinite(arr) and arr == np.round(arr):
        return f"{arr.item():.0f}"
    return _fmt(arr)


def _leaves(tree: Any) -> list[tuple[str, Any]]:
    flat, _ = _tree_flatten_with_path(tree)
    return [(_keystr(path), leaf) for path, leaf in flat]


def close(got: Any, want: Any, what: Label = "result", rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Compare got against a float64 NumPy reference, leaf by leaf, with explicit tolerance."""
    got_leaves, want_leaves = _leaves(got), _leaves(want)
    if len(got_leaves) != len(want_leaves) or _tree_structure(got) != _tree_structure(want):
        structure(got, want, what)
    for (path, g), (_, w) in zip(got_leaves, want_leaves):
        where, where_zh = _where(what, path)
        try:
            g_arr = np.asarray(g, dtype=np.float64)
        except (TypeError, ValueError):
            fail(
                f"{where} should be a number or array, got {type(g).__name__}",
                f"{where_zh} 应当是数值或数组，实际是 {type(g).__name__}",
            )
        w_arr = np.asarray(w, dtype=np.float64)
        if g_arr.shape != w_arr.shape:
            fail(
                f"{where} has shape {g_arr.shape}, expected {w_arr.shape}",
                f"{where_zh} 的形状是 {g_arr.shape}，应为 {w_arr.shape}",
            )
        if np.asarray(g).dtype.kind in "iub":
            # Integers are counted, not measured: compare exactly, with no tolerance in the message.
            if not np.array_equal(g_arr, w_arr):
                bad = np.argwhere(g_arr != w_arr)
                at = f" (first at index {tuple(int(i) for i in bad[0])})" if g_arr.ndim and len(bad) else ""
                at_zh = f"（首个不同处在下标 {tuple(int(i) for i in bad[0])}）" if g_arr.ndim and len(bad) else ""
                fail(
                    f"{where}: expected {_fmt_int(w_arr)}, got {_fmt_int(g_arr)}{at}",
                    f"{where_zh}：应为 {_fmt_int(w_arr)}，得到 {_fmt_int(g_arr)}{at_zh}",
                )
            continue
        if not np.all(np.isfinite(g_arr) | ~np.isfinite(w_arr)):
            fail(
                f"{where} contains NaN or inf: got {_fmt(g_arr)}, expected {_fmt(w_arr)}",
                f"{where_zh} 中出现 NaN 或 inf：得到 {_fmt(g_arr)}，应为 {_fmt(w_arr)}",
            )
        if not np.allclose(g_arr, w_arr, rtol=rtol, atol=atol, equal_nan=True):
            err = np.abs(g_arr - w_arr)
            idx = np.unravel_index(int(np.nanargmax(err)), err.shape) if err.ndim else ()
            at = f" (largest error at index {tuple(int(i) for i in idx)})" if idx else ""
            at_zh = f"（误差最大处在下标 {tuple(int(i) for i in idx)}）" if idx else ""
            fail(
                f"{where}: expected {_fmt(w_arr)}, got {_fmt(g_arr)}{at}; tolerance rtol={rtol:g}, atol={atol:g}",
                f"{where_zh}：应为 {_fmt(w_arr)}，得到 {_fmt(g_arr)}{at_zh}；容差 rtol={rtol:g}, atol={atol:g}",
            )


def _where(what: Label, path: str) -> tuple[str, str]:
    """(English, Chinese) names of one leaf: `state[0]` for a variable-like label,
    `grads at w=2 (leaf ['b'])` / `w=2 处的梯度(叶子 ['b'])` for a description."""
    en, zh = _label(what)
    if not path:
        return en, zh
    return (
        f"{en}{path}" if _variable_like(en) else f"{en} (leaf {path})",
        f"{zh}{path}" if _variable_like(zh) else f"{zh}（叶子 {path}）",
    )


def _variable_like(label: str) -> bool:
    """`state`, `opt.mu`: a leaf path reads naturally right after it."""
    bare = label.replace("_", "").replace(".", "")
    return bare.isascii() and bare.isalnum()


def structure(got: Any, like: Any, what: Label = "result") -> None:
    """The PyTree structure of got equals that of like."""
    gs, ls = _tree_structure(got), _tree_structure(like)
    if gs != ls:
        en, zh = _label(what)
        fail(f"{en} has PyTree structure {gs}, expected {ls}", f"{zh} 的 PyTree 结构是 {gs}，应为 {ls}")


def dtypes(got: Any, want: Any, what: Label = "result") -> None:
    """Every leaf of got has the dtype (and weak-type flag) of the matching leaf of want."""
    structure(got, want, what)
    for (path, g), (_, w) in zip(_leaves(got), _leaves(want)):
        gt, wt = type_of(g), type_of(w)
        if gt != wt:
            where, where_zh = _where(what, path)
            fail(
                f"{where} is {gt}, expected {wt}{_weak_note(gt, wt, 'en')}",
                f"{where_zh} 的类型是 {gt}，应为 {wt}{_weak_note(gt, wt, 'zh')}",
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


def learner_attr(module: Any, name: str) -> Any:
    """A name the learner's file must define."""
    if not hasattr(module, name):
        fail(f"your file does not define `{name}`", f"你的文件里没有定义 `{name}`")
    return getattr(module, name)


# ---------------------------------------------------------------- side effects


def _contents(value: Any) -> tuple | None:
    """What a call could change inside value without rebinding it. Contained objects are kept
    and later compared with `is`, so replacing an element counts even when it compares equal."""
    if isinstance(value, (types.ModuleType, jax.Array)):
        return None  # a module is followed through its own globals only; a jax.Array is immutable
    if isinstance(value, np.ndarray):
        return ("bytes", value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, bytearray):
        return ("bytes", bytes(value))
    if isinstance(value, dict):
        return ("items", [o for kv in value.items() for o in kv])
    if isinstance(value, (list, set, collections.deque)):
        return ("items", list(value))
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, (dict, types.MappingProxyType)):  # functions, classes, instances
        return ("items", [o for kv in attrs.items() for o in kv])
    return None


def _same_contents(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None:
        return a is b
    if a[0] != b[0] or a[0] == "bytes":
        return a == b
    return len(a[1]) == len(b[1]) and all(x is y for x, y in zip(a[1], b[1]))


def global_snapshot(module: Any) -> dict:
    """Record a module's globals (or any object's attributes; none for an object without `__dict__`,
    such as a NamedTuple), for global_changes after calling learner code."""
    names = vars(module) if hasattr(module, "__dict__") else {}
    return {n: (v, _contents(v)) for n, v in names.items() if not n.startswith("__")}


class Changes:
    """What changed between a snapshot and now. False when nothing changed. `en` / `zh` say what
    happened ("reassigned total; changed the contents or attributes of history"), `names` lists
    every name concerned."""

    def __init__(self, added: list[str], removed: list[str], rebound: list[str], mutated: list[str]):
        self.added, self.removed, self.rebound, self.mutated = added, removed, rebound, mutated
        self.names = sorted({*added, *removed, *rebound, *mutated})
        en, zh = [], []
        if added:
            en.append("created " + ", ".join(added))
            zh.append("新建了 " + "、".join(added))
        if removed:
            en.append("deleted " + ", ".join(removed))
            zh.append("删除了 " + "、".join(removed))
        if rebound:
            en.append("reassigned " + ", ".join(rebound))
            zh.append("重新赋值了 " + "、".join(rebound))
        if mutated:
            en.append("changed the contents or attributes of " + ", ".join(mutated))
            zh.append("修改了 " + "、".join(mutated) + " 的内容或属性")
        self.en, self.zh = "; ".join(en), "；".join(zh)

    def __bool__(self) -> bool:
        return bool(self.names)

    def __repr__(self) -> str:
        return f"Changes({self.en or 'none'})"


def global_changes(module: Any, before: dict) -> Changes:
    """What calls since `before = global_snapshot(module)` did to the module's globals (or the
    object's attributes): names created, deleted or rebound, and lists, dicts, sets, deques,
    NumPy arrays or object attributes changed in place (one level deep)."""
    after = global_snapshot(module)
    common = sorted(set(before) & set(after))
    rebound = [n for n in common if before[n][0] is not after[n][0]]
    mutated = [n for n in common if before[n][0] is after[n][0] and not _same_contents(before[n][1], after[n][1])]
    return Changes(sorted(set(after) - set(before)), sorted(set(before) - set(after)), rebound, mutated)


# ---------------------------------------------------------------- calling learner code


def call(fn: Callable, *args, label: Label | None = None, **kwargs) -> Any:
    """fn(*args, **kwargs), for learner code: an exception names the call that raised it
    (`label`, default the function's name), and the harness reports it as a failure."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        if getattr(exc, "_tutor_call", None) is None:  # an inner call's label is more precise
            try:
                exc._tutor_call = (_label(label or f"{_name_of(fn)}(...)"), fn)
            except (AttributeError, TypeError):
                pass
        raise


def _name_of(fn: Any) -> str:
    return fn.name if isinstance(fn, TraceCounter) else getattr(fn, "__name__", "the function")


def _static_params(fn: Any) -> list[str]:
    """The parameters a jitted fn (or a traced() counter of one) marks static."""
    if isinstance(fn, TraceCounter):
        options, params = fn.options, fn.params
    elif is_jitted(fn):
        info = getattr(fn, "_jit_info", None)
        options = {k: getattr(info, k, None) for k in ("static_argnums", "static_argnames")}
        try:
            params = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            params = []
    else:
        return []
    static = [params[i] if 0 <= i < len(params) else f"argument {i}" for i in options.get("static_argnums") or ()]
    return static + [n for n in options.get("static_argnames") or () if n not in static]


_UNHASHABLE = re.compile(r"hash an object of type <class '([\w.]+)'>")


class Explanation(NamedTuple):
    """What the library can add to an exception raised while check code used learner code."""

    label_en: str = ""  # the `call` that raised it, e.g. "update_counter(0, 7)"
    label_zh: str = ""
    name: str = ""  # the called function's name
    hint_en: str = ""  # the cause of a JAX error that has one generic cause
    hint_zh: str = ""


def explain_error(exc: BaseException) -> Explanation:
    """The label of the `call` that raised exc, and a hint for JAX errors with one generic cause."""
    label_en = label_zh = name = hint_en = hint_zh = ""
    fn = None
    tagged = getattr(exc, "_tutor_call", None)
    if tagged is not None:
        (label_en, label_zh), fn = tagged
        name = _name_of(fn)
    text = str(exc)
    if "Non-hashable static arguments" in text:
        found = _UNHASHABLE.search(text)
        kind = found.group(1).rsplit(".", 1)[-1] if found else "value"
        kind = "jax.Array" if kind in ("ArrayImpl", "Array") else kind
        static = _static_params(fn) if fn is not None else []
        which_en = f": {name} marks {', '.join(f'`{p}`' for p in static)} static" if static else ""
        which_zh = f"：{name} 把 {'、'.join(f'`{p}`' for p in static)} 标成了静态参数" if static else ""
        hint_en = (
            f"jax.jit received a {kind} for an argument marked static (static_argnums / static_argnames)"
            f"{which_en}. A static argument is a compile-time setting and must be a hashable Python value "
            "(an int, a float, a str, a tuple of them); arrays, and lists, dicts or PyTrees holding them, "
            "are data, not settings: keep those arguments dynamic (traced)"
        )
        hint_zh = (
            f"jax.jit 在一个标成静态（static_argnums / static_argnames）的参数上收到了 {kind}{which_zh}。"
            "静态参数是编译期的设置，必须是可哈希的 Python 值（int、float、str 或由它们组成的元组）；"
            "数组以及装着数组的列表、字典或 PyTree 是数据，不是设置：让这些参数保持动态（被追踪）"
        )
    return Explanation(label_en, label_zh, name, hint_en, hint_zh)


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
            inner = getattr(fn, "__wrapped__", None) or fn._fun
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
            diffs = [
                (k, before.get(k), now.get(k)) for k in dict.fromkeys([*before, *now]) if before.get(k) != now.get(k)
            ]
            if not diffs:
                en.append(
                    f"trace {i + 1}: same argument types as before (was the function re-created or jitted again?)"
                )
                zh.append(f"第 {i + 1} 次追踪：参数类型与上次相同（函数是否被重新创建或重新 jit？）")
                continue
            parts_en, parts_zh = [], []
            for k, a, b in diffs[:3]:
                a_s, b_s = a or "absent", b or "absent"
                parts_en.append(f"{k} was {_pretty(a_s, 'en')}, now {_pretty(b_s, 'en')}")
                parts_zh.append(f"{k} 之前是 {_pretty(a_s, 'zh')}，这次是 {_pretty(b_s, 'zh')}")
            en.append(f"trace {i + 1} happened because " + "; ".join(parts_en))
            zh.append(f"第 {i + 1} 次追踪的原因：" + "；".join(parts_zh))
        return " | ".join(en), " | ".join(zh)


def _pretty(t: str, lang: str) -> str:
    if t.startswith("~"):
        return f"{t} (weak)" if lang == "en" else f"{t}（弱类型）"
    if t.startswith("static "):
        return f"{t[7:]} (static)" if lang == "en" else f"{t[7:]}（静态参数）"
    return t


def traced(fn: Callable, name: str | None = None) -> TraceCounter:
    return TraceCounter(fn, name)


def expect_traces(counter: TraceCounter, expected: int, calls: int | None = None) -> None:
    """The counted function was traced exactly `expected` times."""
    if counter.count == expected:
        return
    why_en, why_zh = counter.retrace_reasons()
    calls_en = f" over {calls} calls" if calls else ""
    calls_zh = f"（共调用 {calls} 次）" if calls else ""
    fail(
        f"`{counter.name}` was traced {counter.count} times{calls_en}, expected {expected}. {why_en}".strip(),
        f"`{counter.name}` 被追踪了 {counter.count} 次{calls_zh}，应为 {expected} 次。{why_zh}".strip(),
    )


class TraceEvents:
    """Counts the traces JAX performs while active, whatever jit they belong to (one the learner
    builds inside a function, a wrapper's inner jit...):

        with TraceEvents() as ev:
            fn(x, 0.1); fn(x, 0.2)
        ev.count, ev.names   # number of traces, names of the traced functions

    Eager `lax.cond` / `while_loop` / `fori_loop` / `scan` trace their bodies on every call
    whatever the arguments (JAX's doing, not the learner's), so they are not counted. Entering
    checks that JAX still reports traces, and raises CheckError if it does not: a renamed
    monitoring event must not turn into a silent pass."""

    EVENT = TRACE_EVENT
    EAGER_CONTROL_FLOW = ("cond", "while", "scan")

    def __init__(self):
        self.names: list[str] = []
        self._listener = self._on_event  # one bound method, so that unregistering finds it

    @property
    def count(self) -> int:
        return len(self.names)

    def _on_event(self, event: str, duration: float, **kwargs) -> None:
        if event == self.EVENT:
            name = str(kwargs.get("fun_name", "?"))
            if name not in self.EAGER_CONTROL_FLOW:
                self.names.append(name)

    def __enter__(self) -> TraceEvents:
        self.names = []
        _listen(self._listener)
        try:
            _jit(lambda a: a + 1)(jnp.float32(0.0))  # a canary: a fresh function must be seen tracing
        except BaseException:
            _unlisten(self._listener)
            raise
        if not self.names:
            _unlisten(self._listener)
            raise CheckError(
                f"jax.monitoring reported no {self.EVENT} event for a fresh jit on JAX {jax.__version__}: "
                "traces cannot be counted, so this check cannot judge (the tutor needs updating)",
                f"在 JAX {jax.__version__} 上，一个新的 jit 函数没有产生 jax.monitoring 事件 {self.EVENT}："
                "无法统计追踪次数，这项检查无法评判（需要更新本教程）",
            )
        self.names = []
        return self

    def __exit__(self, *exc) -> bool:
        _unlisten(self._listener)
        return False


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


def expect_primitive(fn: Callable, args: tuple, name: str, what: Label | None = None) -> None:
    found = primitives(fn, *args)
    en, zh = _label(what or getattr(fn, "__name__", "the function"))
    if name not in found:
        fail(
            f"no `{name}` primitive in the compiled program of {en}; found only: {', '.join(sorted(found)) or 'nothing'}",
            f"{zh} 编译出的程序里没有 `{name}` 原语；只找到：{', '.join(sorted(found)) or '无'}",
        )


def outputs_from_jit(fn: Callable, *args, **kwargs) -> bool:
    """Whether every output of fn(*args) is produced by a jitted call: true for a `jax.jit`
    result and for a thin Python wrapper that returns what a jitted function computed."""
    closed = _make_jaxpr(fn)(*args, **kwargs)
    made_by = {id(v): e.primitive.name for e in closed.jaxpr.eqns for v in e.outvars}
    outs = closed.jaxpr.outvars
    return bool(outs) and all(made_by.get(id(v)) in ("jit", "pjit") for v in outs)


# ---------------------------------------------------------------- exceptions and gradients


def raises(
    fn: Callable, *args, types: tuple[str, ...] = (), match: str | None = None, **kwargs
) -> BaseException | None:
    """Call fn; return the exception if it raised one whose class (or a base) is named in types."""
    try:
        fn(*args, **kwargs)
    except Exception as exc:
        names = {c.__name__ for c in type(exc).__mro__}
        if types and not names & set(types):
            raise
        if match and match not in str(exc):
            raise
        return exc
    return None


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
    x_leaves = _leaves(x)
    g_flat = (
        np.concatenate([np.asarray(g, np.float64).reshape(-1) for _, g in _leaves(grads)]) if x_leaves else np.zeros(0)
    )
    treedef = _tree_structure(x)
    for k in range(directions):
        d_leaves = [rng.standard_normal(np.shape(leaf)) for _, leaf in x_leaves]
        d_flat = np.concatenate([d.reshape(-1) for d in d_leaves])
        d_flat /= np.linalg.norm(d_flat) or 1.0
        parts, offset = [], 0
        for _, leaf in x_leaves:
            n = int(np.size(leaf))
            parts.append(d_flat[offset : offset + n].reshape(np.shape(leaf)))
            offset += n
        plus = treedef.unflatten(
            [jnp.asarray(np.asarray(l, np.float64) + eps * d, jnp.result_type(l)) for (_, l), d in zip(x_leaves, parts)]
        )
        minus = treedef.unflatten(
            [jnp.asarray(np.asarray(l, np.float64) - eps * d, jnp.result_type(l)) for (_, l), d in zip(x_leaves, parts)]
        )
        numeric = (float(f(plus)) - float(f(minus))) / (2 * eps)
        analytic = float(np.dot(g_flat, d_flat))
        scale = max(abs(numeric), abs(analytic), 1e-3)
        if not math.isfinite(analytic) or abs(numeric - analytic) > rtol * scale:
            en, zh = _label(what)
            fail(
                f"{en} disagrees with finite differences along random direction {k + 1}: "
                f"directional derivative {analytic:.6g} from your gradient, {numeric:.6g} numerically",
                f"{zh} 与有限差分不一致（随机方向 {k + 1}）：你的梯度给出方向导数 {analytic:.6g}，数值差分为 {numeric:.6g}",
            )


# ---------------------------------------------------------------- optimizer state


def state_follows_params(state: Any, params: Any, what: Label = "state") -> None:
    """Every floating leaf of an optimizer state shaped like a parameter has that parameter's
    dtype. Use params of distinct shapes and mixed dtypes (float32, bfloat16, float16): a state
    built with jnp.zeros(p.shape) is float32 whatever the parameter, which only such a test sees."""
    en, zh = _label(what)
    by_shape: dict = {}
    for path, p in _tree_flatten_with_path(params)[0]:
        by_shape.setdefault(np.shape(p), set()).add((_keystr(path), str(jnp.result_type(p))))
    for path, leaf in _tree_flatten_with_path(state)[0]:
        if not hasattr(leaf, "dtype") or not jnp.issubdtype(leaf.dtype, jnp.inexact):
            continue
        mirrors = by_shape.get(np.shape(leaf))
        if not mirrors or len({d for _, d in mirrors}) != 1:
            continue  # no parameter of this shape, or several of different dtypes: nothing to say
        where, dtype = sorted(mirrors)[0]
        if str(jnp.result_type(leaf)) != dtype:
            fail(
                f"{en}{_keystr(path)} is {type_of(leaf)}, but the parameter it mirrors, params{where}, is {dtype}: "
                "optimizer state must follow each parameter's dtype. Build it with jnp.zeros_like(p) (or "
                "jnp.zeros(p.shape, p.dtype)), not jnp.zeros(p.shape), which is always float32",
                f"{zh}{_keystr(path)} 是 {type_of(leaf)}，但它对应的参数 params{where} 是 {dtype}："
                "优化器状态必须跟随每个参数的 dtype。请用 jnp.zeros_like(p)（或 jnp.zeros(p.shape, p.dtype)）构造，"
                "不要用 jnp.zeros(p.shape)，它总是 float32",
            )


def finite(tree: Any, what: Label = "result") -> None:
    """Fail naming the first leaf and index holding NaN or inf, before any check of direction or value."""
    en, zh = _label(what)
    for path, leaf in _tree_flatten_with_path(tree)[0]:
        arr = np.asarray(leaf, np.float64)
        bad = np.argwhere(~np.isfinite(arr))
        if len(bad):
            at = f"[{', '.join(str(int(i)) for i in bad[0])}]" if arr.ndim else ""
            value = arr[tuple(bad[0])] if arr.ndim else arr.item()
            fail(
                f"{en}{_keystr(path)}{at} is {value}: the first NaN or inf appears here",
                f"{zh}{_keystr(path)}{at} 是 {value}：第一个 NaN 或 inf 出现在这里",
            )


# ---------------------------------------------------------------- keys and donation


def key_reuse_checker():
    """JAX's key-reuse checker as a context manager (`jax.debug_key_reuse(True)`) and the error it
    raises. Verified on JAX 0.10.2 and 0.12.0.1: run eagerly (under jax.disable_jit()) it raises
    KeyReuseError for a key consumed twice in one call and for a key consumed in one call and
    again in the next. Where this JAX has no checker, the check reports error, never a pass."""
    manager = getattr(jax, "debug_key_reuse", None)
    error = getattr(jax.errors, "KeyReuseError", None)
    if manager is None or error is None or "jax_debug_key_reuse" not in jax.config.values:
        raise CheckError(
            f"JAX {jax.__version__} has no key-reuse checker (jax.debug_key_reuse)",
            f"JAX {jax.__version__} 没有 key 重用检查器（jax.debug_key_reuse）",
        )
    return manager(True), error


@functools.cache
def checker_sees_across_jit_calls() -> bool:
    """Whether this JAX's checker also follows a consumed key out of one jitted call into the next
    (0.12.0.1 does, 0.10.2 does not); where it does not, a check runs the steps eagerly instead."""
    manager, error = key_reuse_checker()

    @jax.jit
    def keeps_used_subkey(key):
        _, sub = jax.random.split(key)
        return sub, jax.random.bits(sub)

    with manager:
        key, _ = keeps_used_subkey(jax.random.key(0))
        try:
            keeps_used_subkey(key)
        except error:
            return True
    return False


def fresh_key(key: Any) -> Any:
    """A new, never-consumed typed key with the same bits (raw uint32 keys become typed)."""
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return jax.random.wrap_key_data(jax.random.key_data(key))
    return jax.random.wrap_key_data(jnp.asarray(key, jnp.uint32))


def aval_text(x: Any) -> str:
    """How JAX names an array's type in its messages: float32[128,1]."""
    return f"{jnp.result_type(x)}[{','.join(str(d) for d in np.shape(x))}]"


def donation_warnings(fn: Callable, *args, **kwargs) -> tuple[Any, list[str]]:
    """Call fn; return (its result, the array types JAX said it could not reuse although they
    were donated). On CPU JAX only warns about these; here they become findings."""
    import warnings as _warnings

    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    unusable: list[str] = []
    for w in caught:
        m = DONATION_UNUSABLE.search(str(w.message))
        if m:
            unusable += [t.strip() for t in m.group(1).split(", ") if t.strip()]
    return out, unusable
