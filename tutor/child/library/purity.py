"""Side effects a call leaves behind: a snapshot of a module's globals (or any object's
attributes) and what changed since, rebound or changed in place."""

from __future__ import annotations

import collections
import types
from typing import Any

import jax
import numpy as np


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
