"""State the whole process keeps outside the learner's module, and what a call changed in it.

The purity walk (tutor.child.reach) starts at the learner's globals and does not enter other
modules. A step count or a call log fits just as well in places every module shares:
`os.environ`, a name added to `builtins`, an attribute of `__main__`, or a module made at run time
and put in `sys.modules`. This witness records those places before the learner's function runs
and says, by place ("os.environ['RMSPROP_STEPS']"), what changed after. (A ContextVar, a weakref
dictionary and a cached zero-argument function that the learner's module holds are followed by
the walk itself.) Names the worker and JAX had before the learner's file ran are the judge's and
the libraries'; only what the learner's code added, or rebound, is walked.

Every module is a shared namespace too (`jax._calls = []`, `functools.last_scale = s`), and so are
the classes and functions of the modules the learner's file names (`fractions.Fraction.calls += 1`,
`np.sum.__dict__`), numpy's and Python's global random generators, `jax.config`, and files in the
run folder or the temporary folder. Names a library had before the learner's file ran, and values
a library sets lazily (None to an object), are not the learner's and are left alone.
"""

from __future__ import annotations

import builtins
import os
import random
import sys
import tempfile
import types
from typing import Any

import jax
import numpy as np

from tutor.child import reach

_BUILTINS = dict(vars(builtins))  # as the worker had them, before any learner code
_before_learner: dict[str, Any] = {"modules": frozenset(sys.modules), "main": frozenset(), "names": {}, "loaded": {}}
_JUDGE = ("tutor", "exercise_checks", "learner", "__main__", "builtins")  # the judge's own, or walked elsewhere
# Values a counter or a log is kept in; a library's lazy global goes from None to an object instead.
_DATA = (int, float, complex, str, bytes, tuple, list, dict, set, np.ndarray, np.generic, jax.Array)
_MAX_FILES = 500  # entries of one folder that are looked at


def learner_loading() -> None:
    """Called just before the learner's file runs: what the process holds now is not the learner's."""
    main = sys.modules.get("__main__")
    _before_learner["modules"] = frozenset(sys.modules)
    _before_learner["main"] = frozenset(vars(main)) if main is not None else frozenset()
    _before_learner["names"] = {n: frozenset(d) for n, d in _module_dicts().items()}


def learner_loaded(module: types.ModuleType) -> None:
    """Called once the learner's file has run: the modules it imported, with what they hold now
    (a library's names, and whatever the file itself put there: told apart by `_DATA` later)."""
    names = _before_learner["names"]
    _before_learner["loaded"] = {n: frozenset(d) for n, d in _module_dicts().items() if n not in names}
    _before_learner["reached"] = _reached_classes(module)


def _judge(name: str) -> bool:
    return name.split(".", 1)[0] in _JUDGE


def _module_dicts() -> dict[str, dict]:
    return {
        n: d
        for n, m in list(sys.modules.items())
        if isinstance(d := getattr(m, "__dict__", None), dict) and not _judge(n)
    }


def _reached_classes(module: types.ModuleType) -> list[tuple[str, Any]]:
    """The classes and functions (anything callable with attributes) of other modules that the learner's file names, directly or
    one module down (`from fractions import Fraction`, `np.sum`, `jax.tree_util.Partial`)."""
    out: dict[int, tuple[str, Any]] = {}
    home = module.__name__

    def take(place: str, value: Any) -> None:
        if (
            (isinstance(value, type) or (callable(value) and isinstance(getattr(value, "__dict__", None), dict)))
            and not isinstance(value, types.ModuleType)
            and getattr(value, "__module__", home) != home
        ):
            out.setdefault(id(value), (place, value))

    def module_of(place: str, mod: types.ModuleType, depth: int) -> None:
        names = [(n, v) for n, v in list(vars(mod).items()) if not n.startswith("__")]
        for n, v in names:  # `np.sum` named before `np._core.sum`
            take(f"{place}.{n}", v)
        for n, v in names if depth == 0 else ():
            if isinstance(v, types.ModuleType):
                module_of(f"{place}.{n}", v, 1)

    for n, v in list(vars(module).items()):
        if isinstance(v, types.ModuleType) and not _judge(v.__name__):
            module_of(n, v, 0)
        else:
            take(n, v)
    return list(out.values())


def _made_at_run_time(name: str, module: Any, home: str) -> bool:
    """A module the learner's code made and put in sys.modules: new since its file began to load,
    and not imported by the import system (a library it imports has a spec with a loader), or
    anything else put there in a module's place (a namespace object)."""
    if name in _before_learner["modules"] or name in (home, "learner", "__main__", "exercise_checks"):
        return False
    if not isinstance(module, types.ModuleType):
        return True
    spec = getattr(module, "__spec__", None)
    return spec is None or getattr(spec, "loader", None) is None


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
            attrs = getattr(module, "__dict__", None)
            if isinstance(attrs, dict):
                spaces[f"sys.modules[{name!r}]."] = {n: v for n, v in attrs.items() if not n.startswith("__")}
    # Names the learner's code added to a library's module (`jax._calls = []`): walked at any depth
    for name, names in _module_dicts().items():
        had = _before_learner["names"].get(name)
        if had is not None and not _made_at_run_time(name, sys.modules.get(name), home):
            added = {n: names[n] for n in names.keys() - had if n in names and _learners(n, names[n])}
            if added:
                spaces[f"{name}."] = added
    return spaces


def _learners(name: str, value: Any) -> bool:
    """A module attribute that may be the learner's state: not a dunder, not a submodule the import
    system binds in its package, not a function or class a library defines lazily."""
    return not name.startswith("__") and not isinstance(value, (types.ModuleType, type, types.FunctionType))


def _shallow(home: str) -> dict[str, tuple[Any, ...]]:
    """Every module's names (added by the learner's code, or data rebound in a module its file
    imported) and the attributes of the classes and functions its file names: {place: value}."""
    shallow: dict[str, Any] = {}
    names, loaded = _before_learner["names"], _before_learner["loaded"]
    for name, attrs in _module_dicts().items():
        had = names.get(name)
        if had is None and name not in loaded:
            continue  # imported since, by the judge or JAX: not the learner's
        if _made_at_run_time(name, sys.modules.get(name), home):
            continue  # walked whole, above
        for n in list(attrs) if had is None else attrs.keys() - had:  # not the library's own names
            v = attrs.get(n, _learners)
            if v is not _learners and _learners(n, v):
                shallow[f"{name}.{n}"] = v
    for place, owner in _before_learner.get("reached", ()):
        for n, v in list(vars(owner).items()):
            if not (n.startswith("__") and n.endswith("__")):
                shallow[f"{place}.{n}"] = v
    return shallow


def _generators() -> dict[str, Any]:
    """The process's global random generators and JAX's configuration, by the place a learner writes."""
    key = np.random.get_state(legacy=False)
    return {
        "numpy's global random generator (np.random.*)": (key["state"]["key"].tobytes(), key["state"]["pos"]),
        "Python's global random generator (random.*)": hash(random.getstate()),
        **{f"jax.config.{n}": repr(v) for n, v in getattr(jax.config, "values", {}).items()},
    }


def _files() -> dict[str, tuple[int, int]]:
    """The files of the run folder and the temporary folder: a log written to a file is state too."""
    out: dict[str, tuple[int, int]] = {}
    for folder in dict.fromkeys((os.getcwd(), tempfile.gettempdir(), "/tmp")):
        try:
            with os.scandir(folder) as entries:
                for i, entry in enumerate(entries):
                    if i >= _MAX_FILES:
                        break
                    if entry.is_file(follow_symlinks=False):
                        st = entry.stat(follow_symlinks=False)
                        out[entry.path] = (st.st_size, st.st_mtime_ns)
        except OSError:
            continue
    return out


def snapshot(home: str) -> dict:
    """What a call could change in the shared places, for `changed_since`. `home` is the learner
    module's name (its functions and classes, wherever they are kept, are walked into)."""
    spaces = _namespaces(home)
    bound = {prefix + n: id(v) for prefix, names in spaces.items() for n, v in names.items()}
    bound.update({f"sys.modules[{n!r}]": id(m) for n, m in list(sys.modules.items()) if _made_at_run_time(n, m, home)})
    roots = {prefix + n: v for prefix, names in spaces.items() for n, v in names.items()}
    return {
        "environ": dict(os.environ),
        "bound": bound,
        "deep": reach.snapshot_of(roots, home),
        "shallow": _shallow(home),
        "generators": _generators(),
        "files": _files(),
    }


def _rebound(place: str, was: Any, now: Any, added_since_load: bool) -> bool:
    """Whether a shallow place was rebound by the learner's code: any rebinding of a name it added,
    data for data elsewhere (a count; a library's lazy global goes from None to an object)."""
    if was is now:
        return False
    if added_since_load:
        return True
    return isinstance(was, _DATA) and isinstance(now, _DATA)


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
    shallow_b, shallow_a = before["shallow"], after["shallow"]
    names = _before_learner["names"]
    for place in sorted(set(shallow_b) | set(shallow_a)):
        if place in bound_a or place in bound_b:
            continue
        if place not in shallow_b or place not in shallow_a:
            if place not in shallow_b and _learners(place.rsplit(".", 1)[-1], shallow_a[place]):
                places.append(place)
            continue
        module = place.rsplit(".", 1)[0]
        if _rebound(place, shallow_b[place], shallow_a[place], module in names):
            places.append(place)
    gen_b, gen_a = before["generators"], after["generators"]
    places += [p for p in gen_b if gen_b[p] != gen_a.get(p)]
    files_b, files_a = before["files"], after["files"]
    places += [f"the file {p}" for p in sorted(set(files_b) | set(files_a)) if files_b.get(p) != files_a.get(p)]
    for change in reach.changed_since(None, before["deep"], after["deep"]):
        if not any(change.path == p or change.path.startswith(p + ".") for p in places):
            places.append(change.path)
    return places
