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
`np.sum.__dict__`), numpy's and Python's global random generators, `jax.config`, the settings
every module shares (`sys.argv`, `sys.path`, the decimal context, numpy's print options), and files in the
run folder or the temporary folder. So are the objects every module reaches through a library's
registry: a logger (`logging.getLogger('opt').steps`, a MemoryHandler's buffer), the running thread,
the standard streams; and the process's warning filters, recursion limit and numpy's error handling.
Names a library had before the learner's file ran, and values a library sets lazily (None to an
object), are not the learner's and are left alone; so are the handlers the judge and the libraries
log through, and a logger or handler first made during the call (basicConfig's): output, not state.
"""

from __future__ import annotations

import builtins
import decimal
import gc
import logging
import operator
import os
import random
import sys
import tempfile
import threading
import types
import warnings
from typing import Any

import jax
import numpy as np

from tutor.child import reach

_BUILTINS = dict(vars(builtins))  # as the worker had them, before any learner code
_before_learner: dict[str, Any] = {
    "modules": frozenset(sys.modules),
    "main": frozenset(),
    "names": {},
    "loaded": {},
    "objects": {},
    "handlers": frozenset(),
}
_JUDGE = ("tutor", "exercise_checks", "learner", "__main__", "builtins")  # the judge's own, or walked elsewhere
# Values a counter or a log is kept in; a library's lazy global goes from None to an object instead.
_DATA = (int, float, complex, str, bytes, tuple, list, dict, set, np.ndarray, np.generic, jax.Array)
_MAX_FILES = 500  # entries of one folder that are looked at
_SHARED_FOLDERS = frozenset(("/tmp", "/var/tmp", "/dev/shm", "/"))


def learner_loading() -> None:
    """Called just before the learner's file runs: what the process holds now is not the learner's."""
    main = sys.modules.get("__main__")
    _before_learner["modules"] = frozenset(sys.modules)
    _before_learner["main"] = frozenset(vars(main)) if main is not None else frozenset()
    _before_learner["names"] = {n: frozenset(d) for n, d in _module_dicts().items()}
    objects = _shared_objects()
    _before_learner["objects"] = {id(obj): frozenset(vars(obj)) for obj in objects.values()}
    _before_learner["handlers"] = frozenset(
        id(h) for obj in objects.values() if isinstance(obj, logging.Logger) for h in obj.handlers
    )


def learner_loaded(module: types.ModuleType) -> None:
    """Called once the learner's file has run: the modules it imported, with what they hold now
    (a library's names, and whatever the file itself put there: told apart by `_DATA` later)."""
    names = _before_learner["names"]
    _before_learner["loaded"] = {n: frozenset(d) for n, d in _module_dicts().items() if n not in names}
    _before_learner["reached"] = _reached_classes(module)


def _judge(name: str) -> bool:
    return name.partition(".")[0] in _JUDGE


def _module_dicts() -> dict[str, dict]:
    return {
        n: d
        for n, m in list(sys.modules.items())
        if n.partition(".")[0] not in _JUDGE and isinstance(d := getattr(m, "__dict__", None), dict)
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


def _added_names(home: str) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """(names added to a module the process had before the learner's file ran, the names of the
    modules its file imported), each {module: {name: value}} of what may be the learner's state.
    A module whose size is what it was adds nothing (its rebound names are the library's): the
    usual case, told by one len() per module."""
    had_by_module, loaded = _before_learner["names"], _before_learner["loaded"]
    added: dict[str, dict[str, Any]] = {}
    imported: dict[str, dict[str, Any]] = {}
    for name, attrs in _module_dicts().items():
        had = had_by_module.get(name)
        if had is not None:
            if len(attrs) == len(had):
                continue
            new = {n: attrs[n] for n in attrs.keys() - had if n in attrs and _learners(n, attrs[n])}
            if new and not _made_at_run_time(name, sys.modules.get(name), home):
                added[name] = new
        elif name in loaded and not _made_at_run_time(name, sys.modules.get(name), home):
            imported[name] = {n: v for n, v in list(attrs.items()) if _learners(n, v)}
    return added, imported


def _namespaces(home: str, added: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each shared namespace the learner's code may write, as {place prefix: {name: value}}."""
    spaces: dict[str, dict[str, Any]] = {}
    spaces["builtins."] = {n: v for n, v in vars(builtins).items() if _BUILTINS.get(n, _BUILTINS) is not v}
    main = sys.modules.get("__main__")
    if main is not None:
        spaces["__main__."] = {
            n: v for n, v in vars(main).items() if n not in _before_learner["main"] and not n.startswith("__")
        }
    for name in sys.modules.keys() - _before_learner["modules"]:
        module = sys.modules.get(name)
        if _made_at_run_time(name, module, home):
            attrs = getattr(module, "__dict__", None)
            if isinstance(attrs, dict):
                spaces[f"sys.modules[{name!r}]."] = {n: v for n, v in attrs.items() if not n.startswith("__")}
    # Names the learner's code added to a library's module (`jax._calls = []`): walked at any depth
    spaces.update({f"{name}.": names for name, names in added.items()})
    return spaces


def _learners(name: str, value: Any) -> bool:
    """A module attribute that may be the learner's state: not a dunder, not a submodule the import
    system binds in its package, not a function or class a library defines lazily."""
    return not name.startswith("__") and not isinstance(value, (types.ModuleType, type, types.FunctionType))


def _shallow(added: dict[str, dict[str, Any]], imported: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Every module's names (added by the learner's code, or data rebound in a module its file
    imported) and the attributes of the classes and functions its file names: {place: value}."""
    return {f"{m}.{n}": v for names in (added, imported) for m, attrs in names.items() for n, v in attrs.items()}


def _owners() -> list[dict[str, Any]]:
    """A copy of the attributes of each class and function the learner's file names (a C copy:
    each is compared name by name only where one differs)."""
    return [dict(vars(owner)) for _, owner in _before_learner.get("reached", ())]


def _owners_changed(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    """The places, `fractions.Fraction.calls`, whose attribute the learner's code added or rebound
    (data for data: a class's lazy cache goes from None to an object)."""
    places = []
    for (place, _), b, a in zip(_before_learner.get("reached", ()), before, after):
        if len(a) == len(b) and not any(map(operator.is_not, a.values(), b.values())):
            continue
        for n in sorted(set(a) | set(b)):
            if n.startswith("__") and n.endswith("__"):
                continue
            was, now = b.get(n, _learners), a.get(n, _learners)
            if was is _learners and now is not _learners:
                places.append(f"{place}.{n}")
            elif was is not _learners and now is not _learners and _rebound(was, now, False):
                places.append(f"{place}.{n}")
    return places


# A logger's own bookkeeping: its level cache fills as it logs, and its name, parent and manager
# are the registry's. The lock of a handler is taken and released by every record.
_REGISTRY_OWN = frozenset(("_cache", "parent", "manager", "name", "lock", "_name"))


def _shared_objects() -> dict[str, Any]:
    """Objects any module reaches through a library's registry, by the place a learner writes:
    each logger (`logging.getLogger('opt').steps`), the running thread
    (`threading.current_thread().calls`), the standard streams (`sys.stdout.log`)."""
    out: dict[str, Any] = {"logging.getLogger()": logging.root}
    for name, logger in list(logging.Logger.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger):
            out[f"logging.getLogger({name!r})"] = logger
    out["threading.current_thread()"] = threading.current_thread()
    for stream in ("stdout", "stderr", "stdin"):
        out[f"sys.{stream}"] = getattr(sys, stream)
    return {place: obj for place, obj in out.items() if isinstance(getattr(obj, "__dict__", None), dict)}


def _registered(spaces: dict[str, dict[str, Any]], shallow: dict[str, Any]) -> frozenset[str]:
    """Adds what the learner's code may keep on a registry's objects: an attribute added since its
    file began to load, walked at any depth; the handlers its code added (a MemoryHandler's buffer;
    the judge's and the libraries' handlers write output, not state), and all of a logger made
    since; and, data for data, the attributes such an object had (`setLevel` as a counter).
    Returns the places of the objects, each ending in a dot: one first seen in a call is skipped
    by changed_since (basicConfig's handler, a logger first asked for)."""
    had_by_object = _before_learner["objects"]
    places = []
    for place, obj in _shared_objects().items():
        attrs = dict(vars(obj))
        had = had_by_object.get(id(obj))
        is_logger = isinstance(obj, logging.Logger)
        if had is None and not is_logger:
            continue  # a stream the judge put in place to capture output
        had = had or frozenset()
        places.append(f"{place}.")
        spaces[f"{place}."] = {n: v for n, v in attrs.items() if n not in had and n not in _REGISTRY_OWN}
        shallow.update({f"{place}.{n}": v for n, v in attrs.items() if n in had and n not in _REGISTRY_OWN})
        for i, handler in enumerate(attrs.get("handlers", ()) if is_logger else ()):
            handler_attrs = getattr(handler, "__dict__", None)
            if isinstance(handler_attrs, dict) and id(handler) not in _before_learner["handlers"]:
                places.append(f"{place}.handlers[{i}].")
                spaces[f"{place}.handlers[{i}]."] = {n: v for n, v in handler_attrs.items() if n not in _REGISTRY_OWN}
    return frozenset(places)


_SETTINGS = (
    "numpy's global random generator (np.random.*)",
    "Python's global random generator (random.*)",
    "sys.argv",
    "sys.path",
    "the process's decimal context (decimal.getcontext())",
    "numpy's print options (np.set_printoptions)",
    "numpy's floating-point error handling (np.seterr)",
    "the warning filters (warnings.filters)",
    "sys.warnoptions",
    "the recursion limit (sys.setrecursionlimit)",
)


def _generators() -> dict[str, Any]:
    """The process's global random generators, JAX's configuration and the settings every module
    shares (sys.argv, sys.path, the decimal context, numpy's print options: a list appended to, or a
    setting stepped as a counter), by the place a learner writes."""
    key = np.random.get_state(legacy=False)
    return {
        "numpy's global random generator (np.random.*)": (key["state"]["key"].tobytes(), key["state"]["pos"]),
        "Python's global random generator (random.*)": hash(random.getstate()),
        **{f"jax.config.{n}": repr(v) for n, v in getattr(jax.config, "values", {}).items()},
        "sys.argv": tuple(sys.argv),
        "sys.path": tuple(sys.path),
        "the process's decimal context (decimal.getcontext())": repr(decimal.getcontext()),
        "numpy's print options (np.set_printoptions)": repr(sorted(np.get_printoptions().items())),
        "numpy's floating-point error handling (np.seterr)": repr(sorted(np.geterr().items())),
        "the warning filters (warnings.filters)": repr(warnings.filters),
        "sys.warnoptions": tuple(sys.warnoptions),
        "the recursion limit (sys.setrecursionlimit)": sys.getrecursionlimit(),
        "gc.garbage": len(gc.garbage),
    }


def is_setting(place: str) -> bool:
    """Whether a place changed_since names is one of the process's settings (a random generator,
    JAX's configuration, sys.argv, sys.path, the decimal context, numpy's print options), not a
    name kept in a namespace (the environment, builtins, another module)."""
    return place in _SETTINGS or place.startswith("jax.config.")


def _files() -> dict[str, tuple[int, int]]:
    """The files of the run folder and the temporary folder: a log written to a file is state too.
    Not a folder every process shares (/tmp itself, where no run folder's TMPDIR is set): what
    another program writes there is not the learner's."""
    out: dict[str, tuple[int, int]] = {}
    for folder in dict.fromkeys((os.getcwd(), tempfile.gettempdir())):
        if os.path.realpath(folder) in _SHARED_FOLDERS:
            continue
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


# A setting written with the same value on every call (`decimal.getcontext().prec = 12`,
# `np.random.seed(0)`) changes nothing a before/after comparison sees once an earlier call has
# written it. So a watched call starts from the judge's own values, ones no program writes: any
# write to them shows. The course's checks read none of these.
_JUDGES_DECIMAL = {"prec": 41, "rounding": decimal.ROUND_05UP}
_JUDGES_SEED = 0x6A5C


def _from_the_judges_settings() -> None:
    context = decimal.getcontext()
    for name, value in _JUDGES_DECIMAL.items():
        setattr(context, name, value)
    random.seed(_JUDGES_SEED)
    np.random.seed(_JUDGES_SEED)


def snapshot(home: str) -> dict:
    """What a call could change in the shared places, for `changed_since`, the settings every
    module shares set to the judge's own values first. `home` is the learner module's name (its
    functions and classes, wherever they are kept, are walked into)."""
    _from_the_judges_settings()
    return _taken(home)


def _taken(home: str) -> dict:
    added, imported = _added_names(home)
    spaces = _namespaces(home, added)
    registered: dict[str, Any] = {}
    registry = _registered(spaces, registered)
    bound = {prefix + n: id(v) for prefix, names in spaces.items() for n, v in names.items()}
    made = [
        n for n in sys.modules.keys() - _before_learner["modules"] if _made_at_run_time(n, sys.modules.get(n), home)
    ]
    bound.update({f"sys.modules[{n!r}]": id(sys.modules.get(n)) for n in made})
    roots = {prefix + n: v for prefix, names in spaces.items() for n, v in names.items()}
    return {
        "environ": dict(os.environ),
        "bound": bound,
        "deep": reach.snapshot_of(roots, home),
        "shallow": {**_shallow(added, imported), **registered},
        "owners": _owners(),
        "generators": _generators(),
        "files": _files(),
        "registry": registry,
    }


def _rebound(was: Any, now: Any, added_since_load: bool) -> bool:
    """Whether a shallow place was rebound by the learner's code: any rebinding of a name it added,
    data for data elsewhere (a count; a library's lazy global goes from None to an object)."""
    if was is now:
        return False
    if added_since_load:
        return True
    return isinstance(was, _DATA) and isinstance(now, _DATA)


def changed_since(home: str, before: dict) -> list[str]:
    """The places, as a learner writes them, that changed since `before = snapshot(home)`."""
    after = _taken(home)
    places: list[str] = []
    env_b, env_a = before["environ"], after["environ"]
    for key in sorted(set(env_b) | set(env_a)):
        if env_b.get(key) != env_a.get(key):
            places.append(f"os.environ[{key!r}]")
    bound_b, bound_a = before["bound"], after["bound"]
    made_since = tuple(after["registry"] - before["registry"])  # a logger or handler made in this call
    for place in sorted(set(bound_b) | set(bound_a)):
        if bound_b.get(place) != bound_a.get(place) and not place.startswith(made_since):
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
        if _rebound(shallow_b[place], shallow_a[place], module in names):
            places.append(place)
    places += _owners_changed(before["owners"], after["owners"])
    gen_b, gen_a = before["generators"], after["generators"]
    places += [p for p in gen_b if gen_b[p] != gen_a.get(p)]
    files_b, files_a = before["files"], after["files"]
    places += [f"the file {p}" for p in sorted(set(files_b) | set(files_a)) if files_b.get(p) != files_a.get(p)]
    for change in reach.changed_since(None, before["deep"], after["deep"]):
        if not any(change.path == p or change.path.startswith(p + ".") for p in places):
            places.append(change.path)
    return places
