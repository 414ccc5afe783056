"""State the whole process keeps outside the learner's module, and what a call changed in it.

The purity walk (tutor.child.reach) starts at the learner's globals and does not enter other
modules. A step count or a call log fits just as well in places every module shares:
`os.environ`, a name added to `builtins`, an attribute of `__main__`, or a module made at run time
and put in `sys.modules`. This witness records those places before the learner's function runs
and says, by place ("os.environ['RMSPROP_STEPS']"), what changed after. (A ContextVar, a weakref
dictionary and a cached zero-argument function that the learner's module holds are followed by
the walk itself.) Names the worker and JAX had before the learner's file ran are the judge's and
the libraries'; only what the learner's code added, or rebound, is walked.
"""

from __future__ import annotations

import builtins
import os
import sys
import types
from typing import Any

from tutor.child import reach

_BUILTINS = dict(vars(builtins))  # as the worker had them, before any learner code
_before_learner: dict[str, frozenset[str]] = {"modules": frozenset(sys.modules), "main": frozenset()}


def learner_loading() -> None:
    """Called just before the learner's file runs: what the process holds now is not the learner's."""
    main = sys.modules.get("__main__")
    _before_learner["modules"] = frozenset(sys.modules)
    _before_learner["main"] = frozenset(vars(main)) if main is not None else frozenset()


def _made_at_run_time(name: str, module: Any, home: str) -> bool:
    """A module the learner's code made and put in sys.modules: new since its file began to load,
    and not imported from a file by the import system (a library it imports has a spec)."""
    return (
        name not in _before_learner["modules"]
        and name not in (home, "learner", "__main__", "exercise_checks")
        and isinstance(module, types.ModuleType)
        and getattr(module, "__spec__", None) is None
    )


def _namespaces(home: str) -> dict[str, dict[str, Any]]:
    """Each shared namespace the learner's code may write, as {place prefix: {name: value}}."""
    spaces: dict[str, dict[str, Any]] = {}
    added = {n: v for n, v in vars(builtins).items() if _BUILTINS.get(n, _BUILTINS) is not v}
    spaces["builtins."] = added
    main = sys.modules.get("__main__")
    if main is not None:
        spaces["__main__."] = {
            n: v for n, v in vars(main).items() if n not in _before_learner["main"] and not n.startswith("__")
        }
    for name, module in list(sys.modules.items()):
        if _made_at_run_time(name, module, home):
            spaces[f"sys.modules[{name!r}]."] = {n: v for n, v in vars(module).items() if not n.startswith("__")}
    return spaces


def snapshot(home: str) -> dict:
    """What a call could change in the shared places, for `changed_since`. `home` is the learner
    module's name (its functions and classes, wherever they are kept, are walked into)."""
    spaces = _namespaces(home)
    bound = {prefix + n: id(v) for prefix, names in spaces.items() for n, v in names.items()}
    bound.update({f"sys.modules[{n!r}]": id(m) for n, m in list(sys.modules.items()) if _made_at_run_time(n, m, home)})
    roots = {prefix + n: v for prefix, names in spaces.items() for n, v in names.items()}
    return {"environ": dict(os.environ), "bound": bound, "deep": reach.snapshot_of(roots, home)}


def changed_since(home: str, before: dict) -> list[str]:
    """The places, as a learner writes them, that changed since `before = snapshot(home)`."""
    after = snapshot(home)
    places: list[str] = []
    env_b, env_a = before["environ"], after["environ"]
    for key in sorted(set(env_b) | set(env_a)):
        if env_b.get(key) != env_a.get(key):
            places.append(f"os.environ[{key!r}]")
    bound_b, bound_a = before["bound"], after["bound"]
    for place in sorted(set(bound_b) | set(bound_a)):
        if bound_b.get(place) != bound_a.get(place):
            places.append(place)
    for change in reach.changed_since(None, before["deep"], after["deep"]):
        if not any(change.path == p or change.path.startswith(p + ".") for p in places):
            places.append(change.path)
    return places
