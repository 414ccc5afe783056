"""How often JAX traces the learner's function, and why it traced again: a fresh counting jit
(`traced`), every trace in a block whatever jit it belongs to (`TraceEvents`), and whether a
function's results come out of a compiled program."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Literal

import jax
import jax.numpy as jnp

from tutor.child.library import trace_facts
from tutor.child.library.failures import CheckError, expect, fail
from tutor.child.library.jaxprs import control_flow
from tutor.child.library.originals import (
    Tracer,
    Wrapped,
    jit,
    keystr,
    listen,
    make_jaxpr,
    tree_flatten_with_path,
    unlisten,
)
from tutor.child.library.trace_facts import report_trace
from tutor.child.library.values import type_of
from tutor.i18n import Bilingual
from tutor.jax_signals import TRACE_EVENT


def is_jitted(f: Any) -> bool:
    return isinstance(f, Wrapped)


class TraceCounter:
    """A fresh jit of the learner's Python function that counts and records its traces."""

    def __init__(self, fn: Callable, name: str | None = None):
        self.name = name if name else getattr(fn, "__name__", "function")
        self.count = 0
        self.signatures: list[list[tuple[str, str]]] = []
        options: dict[str, Any] = {}
        inner = fn
        if is_jitted(fn):
            # jit caches by function object, so counting needs a new jit of the inner
            # function, rebuilt with the learner's own static/donate choices.
            inner = getattr(fn, "__wrapped__", None) or fn._fun  # type: ignore[attr-defined]
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
        self._quiet = False  # tracing for the panel's facts (control flow): not one of the learner's traces

        # wraps() keeps the learner's name (in JAX errors) and signature (for static_argnames).
        @functools.wraps(inner)
        def counting(*args, **kwargs):
            if not counter._quiet:
                counter.count += 1
                counter.signatures.append(counter._signature(args, kwargs))
            return inner(*args, **kwargs)

        self._jitted = jit(counting, **options)

    def __call__(self, *args, **kwargs):
        before = self.count
        try:
            return self._jitted(*args, **kwargs)
        finally:
            if self.count != before:  # it traced: the trace panel hears of it now, before any verdict
                self._report(args, kwargs)

    def _report(self, args, kwargs) -> None:
        flow: tuple[str, ...] = ()
        self._quiet = trace_facts.panel_tracing = True
        try:
            flow = control_flow(self._jitted.trace(*args, **kwargs).jaxpr)
        except Exception:  # noqa: BLE001 - the panel goes without it; the learner's error is the call's
            pass
        finally:
            self._quiet = trace_facts.panel_tracing = False
        en, zh = self.reason(len(self.signatures) - 1)
        report_trace(self.name, self.count, self.signatures[-1], Bilingual(zh=zh, en=en) if en else None, flow)

    def _signature(self, args, kwargs) -> list[tuple[str, str]]:
        sig = []
        for path, leaf in tree_flatten_with_path((args, kwargs))[0]:
            if path and getattr(path[0], "idx", None) == 0 and len(path) > 1:
                pos = path[1].idx
                head = self.params[pos] if pos < len(self.params) else f"arg{pos}"
                rest = path[2:]
            elif path and len(path) > 1 and hasattr(path[1], "key"):  # a keyword argument
                head, rest = str(path[1].key), path[2:]
            else:
                head, rest = "", path[1:]
            text = head + keystr(tuple(rest))
            if isinstance(leaf, Tracer):
                sig.append((text, type_of(leaf)))
            else:
                sig.append((text, f"static {leaf!r}"))
        return sig

    def reason(self, i: int) -> tuple[str, str]:
        """Why trace i (from 0) happened, in English and Chinese; ("", "") for the first."""
        if i < 1 or i >= len(self.signatures):
            return "", ""
        before, now = dict(self.signatures[i - 1]), dict(self.signatures[i])
        diffs = [(k, before.get(k), now.get(k)) for k in dict.fromkeys([*before, *now]) if before.get(k) != now.get(k)]
        if not diffs:
            return (
                f"trace {i + 1}: same argument types as before (was the function re-created or jitted again?)",
                f"第 {i + 1} 次追踪：参数类型与上次相同（函数是否被重新创建或重新 jit？）",
            )
        parts_en, parts_zh = [], []
        for k, a, b in diffs[:3]:
            a_s, b_s = a or "absent", b or "absent"
            parts_en.append(f"{k} was {_pretty(a_s, 'en')}, now {_pretty(b_s, 'en')}")
            parts_zh.append(f"{k} 之前是 {_pretty(a_s, 'zh')}，这次是 {_pretty(b_s, 'zh')}")
        return f"trace {i + 1} happened because " + "; ".join(parts_en), f"第 {i + 1} 次追踪的原因：" + "；".join(
            parts_zh
        )

    def retrace_reasons(self) -> tuple[str, str]:
        """Why each trace after the first happened, in English and Chinese."""
        reasons = [self.reason(i) for i in range(1, len(self.signatures))]
        return " | ".join(en for en, _ in reasons), " | ".join(zh for _, zh in reasons)


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
        if (
            event == self.EVENT and not trace_facts.panel_tracing
        ):  # the panel's own look is none of the learner's traces
            name = str(kwargs.get("fun_name", "?"))
            if name not in self.EAGER_CONTROL_FLOW:
                self.names.append(name)

    def __enter__(self) -> TraceEvents:
        self.names = []
        _listen(self._listener)
        try:
            jit(lambda a: a + 1)(jnp.float32(0.0))  # a canary: a fresh function must be seen tracing
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

    def __exit__(self, *exc) -> Literal[False]:  # what the `with` body raised goes on
        _unlisten(self._listener)
        return False


# Module-level names, so that a test can stand in for jax.monitoring's (un)registration.
_listen = listen
_unlisten = unlisten


def outputs_from_jit(fn: Callable, *args, **kwargs) -> bool:
    """Whether every output of fn(*args) is produced by a jitted call: true for a `jax.jit`
    result and for a thin Python wrapper that returns what a jitted function computed."""
    closed = make_jaxpr(fn)(*args, **kwargs)
    made_by = {id(v): e.primitive.name for e in closed.jaxpr.eqns for v in e.outvars}
    outs = closed.jaxpr.outvars
    return bool(outs) and all(made_by.get(id(v)) in ("jit", "pjit") for v in outs)


def expect_compiled(fn: Callable, name: str, run: Callable | None, *args) -> None:
    """fn is a `jax.jit` result, or a thin wrapper every output of which comes out of a jitted
    call: `run(*args)` calls fn on these arguments (None when the check could build none)."""
    if is_jitted(fn):
        return
    expect(
        run is not None and outputs_from_jit(run, *args),
        f"{name} is a plain {type(fn).__name__}, not compiled: it is not the result of `jax.jit`, "
        "and its results do not come out of a jitted call inside it",
        f"{name} 是普通的 {type(fn).__name__} 对象，没有经过编译：它不是 `jax.jit` 的结果，"
        "其结果也不是由它内部的 jit 调用产生的",
    )


def expect_one_program(
    run: Callable[[Any], Any], values: list, name: str, varying: tuple[str, str], example: str
) -> list:
    """The learner's function as written, called once per value (`run(value)` makes the call),
    builds one program: the first call may trace and compile, the later ones must not. The one
    owner of the "no new program per value" message; `varying` names what changes between the
    calls (plural, en and zh), `example` is a way of writing it that recompiles. Returns the
    results of every call."""
    results = [run(values[0])]
    with TraceEvents() as seen:
        results += [run(v) for v in values[1:]]
    if seen.count == 0:
        return results
    what_en, what_zh = varying
    shown = ", ".join(f"{v:g}" if isinstance(v, float) else repr(v) for v in values[1:])  # Python values
    which = ", ".join(sorted(set(seen.names)))
    if _builds_partial(run):
        fail(
            f"called directly with {len(values) - 1} new {what_en} ({shown}) after a first call, {name} traced and "
            f"compiled {seen.count} new program(s) (functions traced: {which}): your code builds a "
            "`functools.partial` on every call and hands it to jax.jit. Each partial is a new function object, "
            "and jax.jit's cache is keyed by the function, so every call traces and compiles again, whatever "
            "the values. Jit once, outside the function (`jax.jit(f)` at module level), and pass what changes "
            "as an ordinary argument",
            f"在第一次调用之后，用 {len(values) - 1} 个新的{what_zh}（{shown}）直接调用 {name}，它追踪并编译了 "
            f"{seen.count} 个新程序（被追踪的函数：{which}）：你的代码每次调用都新建一个 `functools.partial` "
            "并交给 jax.jit。每个 partial 都是一个新的函数对象，而 jax.jit 的缓存以函数为键，所以每次调用都要重新"
            "追踪和编译，与传入的值无关。请在函数外只 jit 一次（在模块顶层写 `jax.jit(f)`），并把会变的东西"
            "作为普通参数传入",
        )
    expect(
        seen.count == 0,
        f"called directly with {len(values) - 1} new {what_en} ({shown}) after a first call, {name} traced and "
        f"compiled {seen.count} new program(s) (functions traced: {which}): every new value costs a compilation. "
        f"Typical causes: a `jax.jit(...)` created inside the function (a new function on every call, so jit's "
        f"cache never hits), or a compiled function built with the value baked in or marked static, such as "
        f"{example}. Jit once, outside the function, and pass what changes as an ordinary argument",
        f"在第一次调用之后，用 {len(values) - 1} 个新的{what_zh}（{shown}）直接调用 {name}，它追踪并编译了 "
        f"{seen.count} 个新程序（被追踪的函数：{which}）：每换一个值就要编译一次。常见原因：在函数内部创建 "
        f"`jax.jit(...)`（每次调用都是新函数，jit 的缓存永远命中不了），或者编译函数把这个值固化了进去或标成了"
        f"静态参数，例如 {example}。请在函数外只 jit 一次，并把会变的东西作为普通参数传入",
    )
    return results


def _builds_partial(run: Callable) -> bool:
    """Whether learner code reached from run (its closure, the functions and globals that code
    names, a few levels deep) names both functools.partial and jit in one function body: a
    partial made per call is a new function to jax.jit on every call. Read from the compiled
    code, not run."""
    here = inspect.getsourcefile(_builds_partial) or ""
    package = here.rsplit("/tutor/", 1)[0] + "/tutor/"
    todo, seen = [(run, 0)], set()
    while todo:
        obj, depth = todo.pop()
        if id(obj) in seen or depth > 4:
            continue
        seen.add(id(obj))
        obj = getattr(obj, "__wrapped__", obj)
        for cell in getattr(obj, "__closure__", None) or ():
            try:
                todo.append((cell.cell_contents, depth + 1))
            except ValueError:  # an empty cell
                pass
        code = getattr(obj, "__code__", None)
        if code is None:
            continue
        learner = not code.co_filename.startswith(package) and "site-packages" not in code.co_filename
        codes = [code]
        while codes:
            c = codes.pop()
            if learner and "partial" in c.co_names and "jit" in c.co_names:  # jax.jit(partial(...)) in one body
                return True
            codes += [k for k in c.co_consts if inspect.iscode(k)]
            scope = getattr(obj, "__globals__", {})
            todo += [(scope[n], depth + 1) for n in c.co_names if callable(scope.get(n)) and learner]
    return False


def expect_programs_reused(run: Callable[[Any], Any], values: list, name: str, varying: tuple[str, str]) -> list:
    """The learner's function as written keeps the program of every value it has seen: `run(value)`
    is called once per value (each may compile), then again for each in another order, where
    none may trace. A cache that keeps only the latest program (`lru_cache(maxsize=1)`, one
    global "last compiled") passes a check that repeats one value, and fails this one. Returns
    the results of the second round, in the order of `values`."""
    for value in values:
        run(value)
    again: dict[int, Any] = {}
    for i in [*range(len(values))][::-1]:
        with TraceEvents() as seen:
            again[i] = run(values[i])
        if seen.count:
            what_en, what_zh = varying
            shown = ", ".join(repr(v) for v in values)
            earlier = ", ".join(repr(v) for v in [*values[i + 1 :][::-1], values[-1]][:-1] or values[-1:])
            expect(
                False,
                f"{name} was called with {what_en} {shown}, then with {values[i]!r} again (after {earlier}): "
                f"it compiled again ({seen.count} program(s): {', '.join(sorted(set(seen.names)))}), "
                "although it had compiled this value before. A cache that keeps only the latest program "
                "(functools.lru_cache(maxsize=1), one global `last` function) forgets it as soon as another "
                "value comes: let jax.jit keep every program (static_argnames), or keep one per value",
                f"先用{what_zh} {shown} 调用 {name}，然后（在 {earlier} 之后）再次用 {values[i]!r} 调用："
                f"它又编译了一次（{seen.count} 个程序：{'、'.join(sorted(set(seen.names)))}），"
                "尽管这个值之前已经编译过。只保留最近一个程序的缓存（functools.lru_cache(maxsize=1)、"
                "一个全局的 `last` 函数）在别的值出现时就把它忘了：让 jax.jit 保留每个程序（static_argnames），"
                "或者为每个值各存一个",
            )
    return [again[i] for i in range(len(values))]
