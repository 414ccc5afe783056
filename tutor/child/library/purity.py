"""Side effects a call leaves behind: a snapshot of a module's globals (or any object's
attributes) and what changed since, rebound or changed in place; and a copy of a PyTree the
caller passed in, to say which leaf a call changed under it."""

from __future__ import annotations

import collections
import contextlib
import types
from collections.abc import Iterable, Iterator
from typing import Any

import jax
import numpy as np

from tutor.child import reach
from tutor.child.library import outside
from tutor.child.library.failures import Label, append, bilingual, expect
from tutor.child.library.originals import tree_structure
from tutor.child.library.outside import is_setting
from tutor.child.library.values import leaves


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
        # not dunders: Python adds a class's `__annotations__` the first time anything reads it
        # (inspect.signature does, when JAX traces an instance's __call__)
        return (
            "items",
            [
                o
                for k, v in attrs.items()
                if not (isinstance(k, str) and k.startswith("__") and k.endswith("__"))
                for o in (k, v)
            ],
        )
    return None


def _same_contents(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None:
        return a is b
    if a[0] != b[0] or a[0] == "bytes":
        return a == b
    return len(a[1]) == len(b[1]) and all(x is y for x, y in zip(a[1], b[1]))


DEEP = "\x00reach"  # the snapshot's entry for everything a module's code can reach (tutor.child.reach)
PROCESS = "\x00outside"  # and for what the whole process keeps outside it (tutor.child.library.outside)


def global_snapshot(module: Any, process: bool = True) -> dict:
    """Record a module's globals (or any object's attributes; none for an object without `__dict__`,
    such as a NamedTuple), for global_changes after calling learner code. For a module, also
    everything its code can reach and change: containers at any depth, its functions' default
    arguments, closure cells and attributes, its classes and instances, Refs; and what the process
    keeps outside it (os.environ, builtins, __main__, modules made at run time), unless `process`
    is false (the snapshot after the calls: outside.changed_since takes that one itself, and a
    snapshot of it would set the process's settings back to the judge's)."""
    names = vars(module) if hasattr(module, "__dict__") else {}
    shot: dict = {n: (v, _contents(v)) for n, v in names.items() if not n.startswith("__")}
    if isinstance(module, types.ModuleType):
        shot[DEEP] = reach.snapshot(module)
        if process:
            shot[PROCESS] = outside.snapshot(module.__name__)
    return shot


class Changes:
    """What changed between a snapshot and now. False when nothing changed. `en` / `zh` say what
    happened ("reassigned total; changed the contents or attributes of history"), `names` lists
    every name concerned."""

    def __init__(
        self,
        added: list[str],
        removed: list[str],
        rebound: list[str],
        mutated: list[str],
        tracers: Iterable[str] = (),
        outside: Iterable[str] = (),
    ):
        self.added, self.removed, self.rebound, self.mutated = added, removed, rebound, mutated
        self.tracers, self.outside = list(tracers), list(outside)
        self.names = sorted({*added, *removed, *rebound, *mutated, *self.outside})
        en, zh = [], []
        settings = [p for p in self.outside if is_setting(p)]
        kept = [p for p in self.outside if not is_setting(p)]
        if settings:
            en.append(
                f"changed {', '.join(f'`{p}`' for p in settings[:4])}, a setting the whole process shares (every "
                "module that reads it sees the change): like a global, it remembers past calls"
            )
            zh.append(
                f"改动了 {'、'.join(f'`{p}`' for p in settings[:4])}，这是整个进程共用的设置（读取它的每个模块都会"
                "看到这个改动）：它和全局变量一样会记住以往的调用"
            )
        if kept:
            en.append(
                f"changed {', '.join(f'`{p}`' for p in kept[:4])}, which the whole process keeps outside your module "
                "(the environment, builtins, another module): like a global, it remembers past calls"
            )
            zh.append(
                f"改动了 {'、'.join(f'`{p}`' for p in kept[:4])}，这是整个进程在你的模块之外保存的状态"
                "（环境变量、builtins、另一个模块）：它和全局变量一样会记住以往的调用"
            )
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
        if any("'s default " in m for m in mutated):
            en.append("a mutable default argument remembers past calls just like a global does")
            zh.append("可变的默认参数和全局变量一样会记住以往的调用")
        if any("(closed over by " in m for m in mutated):
            en.append("a variable a function closes over remembers past calls just like a global does")
            zh.append("函数通过闭包引用的变量和全局变量一样会记住以往的调用")
        if any(m.endswith(".get()") for m in mutated):
            en.append("a ContextVar's value, once set, stays for the whole context just like a global does")
            zh.append("ContextVar 的值一旦 set，就会像全局变量一样在整个上下文里一直保留")
        if self.tracers:
            en.append(
                ", ".join(self.tracers) + " now holds tracers: values of a jax.jit trace that escaped it, "
                "not numbers (they exist only while tracing)"
            )
            zh.append(
                "、".join(self.tracers)
                + " 里现在存着追踪值：从 jax.jit 追踪中逃出来的值，而不是数（它们只在追踪时存在）"
            )
        self.en, self.zh = "; ".join(en), "；".join(zh)

    def __bool__(self) -> bool:
        return bool(self.names)

    def __repr__(self) -> str:
        return f"Changes({self.en or 'none'})"


def global_changes(module: Any, before: dict) -> Changes:
    """What calls since `before = global_snapshot(module)` did to the module's globals (or the
    object's attributes): names created, deleted or rebound, and lists, dicts, sets, deques,
    NumPy arrays, Refs or object attributes changed in place, however deep (for a module)."""
    after = global_snapshot(module, process=False)
    process_before = before.pop(PROCESS, None)
    deep_before, deep_after = before.pop(DEEP, None), after.pop(DEEP, None)
    common = sorted(set(before) & set(after))
    rebound = [n for n in common if before[n][0] is not after[n][0]]
    mutated = [n for n in common if before[n][0] is after[n][0] and not _same_contents(before[n][1], after[n][1])]
    added, removed = sorted(set(after) - set(before)), sorted(set(before) - set(after))
    tracers = []
    if deep_before is not None and deep_after is not None:
        seen = {*added, *removed, *rebound}
        for change in reach.changed_since(module, deep_before, deep_after):
            if change.tracers:
                tracers.append(change.path)
            path = f"{change.path}.get()" if change.kind == "contextvar" else change.path
            if change.path not in seen and path not in mutated:
                mutated.append(path)  # "LOG['runs']['calls']", "f's default _log", ...
        before[DEEP] = deep_before  # the snapshot can be compared again
    places: list[str] = []
    if process_before is not None:
        places = outside.changed_since(module.__name__, process_before)
        before[PROCESS] = process_before
    return Changes(added, removed, rebound, mutated, tracers, places)


def changed_what(changed: Changes) -> tuple[str, str]:
    """What a call changed, in a few words, for the start of a failure: the module's globals, or,
    where every change is outside the module, a process setting or state kept outside it."""
    if changed.names != sorted(changed.outside):
        return ("changed your module's globals", "改动了模块的全局变量")
    if all(is_setting(p) for p in changed.outside):
        return ("left a change behind in the process", "在进程里留下了改动")
    return ("changed state outside your module", "改动了模块之外的状态")


@contextlib.contextmanager
def keeps_globals(learner: Any, doing: Label, advice: Label | None = None) -> Iterator[None]:
    """The learner's code called inside the block leaves the module's globals as they were:

        with keeps_globals(learner, ("calling scaled", "调用 scaled"), advice=(...)):
            call(learner.scaled, x, 2.0)

    A failure says what changed ("it reassigned total") and then the advice. An exception
    from inside the block goes on unjudged."""
    before = global_snapshot(learner)
    yield
    changed = global_changes(learner, before)
    doing_en, doing_zh = bilingual(doing)
    what_en, what_zh = changed_what(changed)
    en, zh = f"{doing_en} {what_en}: it {changed.en}", f"{doing_zh} {what_zh}：它{changed.zh}"
    if advice is not None:
        advice_en, advice_zh = bilingual(advice)
        en, zh = append(en, advice_en, "en"), append(zh, advice_zh, "zh")
    expect(not changed, en, zh)


class TreeCopy:
    """A PyTree as the caller passed it: its structure and a float64 copy of every leaf, to say
    afterwards whether a call changed it in place (`state['m'] = ...` on the caller's dict)."""

    def __init__(self, tree: Any):
        self.structure = tree_structure(tree)
        self.leaves = [(path, np.array(leaf, np.float64)) for path, leaf in leaves(tree)]

    def first_change(self, tree: Any) -> tuple[str, np.ndarray, Any] | None:
        """(leaf path, value it had, value now) of the first leaf of tree (of the same structure)
        whose value differs, or None. A buffer deleted since was donated to a jitted call:
        consumed, not modified."""
        for (path, old), (_, leaf) in zip(self.leaves, leaves(tree)):
            if isinstance(leaf, jax.Array) and leaf.is_deleted():
                continue
            if not np.array_equal(np.asarray(leaf, np.float64), old):
                return path, old, leaf
        return None
