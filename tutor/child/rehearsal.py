"""The calls a run compiled, rehearsed by the next spare worker while the learner reads.

Every process compiles each jitted call once per signature: `x * lr` on a float32[3] in a new worker
traces and lowers `jnp.multiply` again (about 8 ms of CPU with the persistent cache hit), though the
previous worker of the same exercise did the same a minute ago. A check runs a handful of these
(its own comparisons, the learner's eager arithmetic): most of what a warm worker's verdict cost
beyond the same checks repeated in one process.

So a worker notes each top-level call of JAX's own jitted functions that missed its cache (which
function, the shapes and dtypes of its arrays, its static arguments) and of single primitives run
eagerly, and sends the list with its last event. The next spare gets it (a file in its run
folder, read and removed before it says ready) and makes the same calls on zeros, so the real
ones find them compiled.

What is noted is JAX's own code, never learner or checks code: a function is rehearsed only if it
is a jitted function of a `jax` module, called again by the name it is defined under. What a
rehearsal may do is bounded (REHEARSE_MAX calls, arrays of at most MAX_ELEMENTS, simple static
values), and it stops as soon as a job is waiting: it is only a speed-up, and any failure is skipped.
"""

from __future__ import annotations

import json
import math
import sys
import time

from tutor.protocol import REHEARSAL_FILE, REHEARSE_MAX

MAX_ELEMENTS = 1 << 16  # arrays rehearsed are zeros: their size is memory, not compile time
MAX_SECONDS = 5.0  # a spare's rehearsal in all (it also stops the moment a job is waiting)

_noted: dict[str, None] = {}  # this run's calls, encoded, in order (a dict: no duplicates)
_SIMPLE = (bool, int, float, str, type(None))


def note() -> None:
    """From now on, note the calls that compile (JAX's test-event hook: called on a cache miss)."""
    from jax._src import util

    before = util.test_event_listener

    def listener(name: str, *args) -> None:
        if name == "jit_cpp_cache_miss" and len(_noted) < REHEARSE_MAX:
            try:
                call = _the_call(sys._getframe(1))
            except Exception:  # noqa: BLE001 - JAX's internals moved: nothing noted, nothing lost
                call = None
            if call is not None:
                _noted[call] = None
        if before is not None:
            before(name, *args)

    util.test_event_listener = listener


def noted() -> tuple[str, ...]:
    return tuple(_noted)


def _the_call(frame) -> str | None:
    """The jitted call being compiled (the nearest), encoded; None if it is not JAX's own."""
    miss = None
    for _ in range(40):  # the nearest: a callback's own eager call runs inside an outer one
        if frame is None or miss is not None:
            break
        if frame.f_code.co_name == "cache_miss" and "jit_info" in frame.f_locals:
            miss = frame.f_locals
        frame = frame.f_back
    if miss is None:
        return None
    fun, info = miss["fun"], miss["jit_info"]
    if getattr(fun, "_apply_primitive", False):
        return _primitive_call(fun, miss["args"])
    module, name = getattr(fun, "__module__", "") or "", getattr(fun, "__qualname__", "")
    if not module.startswith("jax.") or "<" in name or _resolve(module, name) is None:
        return None
    static = set(info.static_argnums), set(info.static_argnames)
    args = [_encode(a, i in static[0]) for i, a in enumerate(miss["args"])]
    kwargs = {k: _encode(v, k in static[1]) for k, v in miss["kwargs"].items()}
    return _as_json({"f": [module, name]}, args, kwargs)


def _primitive_call(fun, args) -> str | None:
    """A primitive run eagerly (jax._src.dispatch.apply_primitive): its name and parameters."""
    cells = dict(zip(fun.__code__.co_freevars, (c.cell_contents for c in fun.__closure__ or ())))
    prim, params = cells.get("prim"), cells.get("params")
    if prim is None or not isinstance(params, dict) or _primitive(prim.name) is not prim:
        return None
    return _as_json(
        {"p": prim.name}, [_encode(a, False) for a in args], {k: _encode(v, True) for k, v in params.items()}
    )


def _as_json(what: dict, args: list, kwargs: dict) -> str | None:
    """A noted call: `what` is called (a function or a primitive) with these encoded arguments;
    None if one of them cannot be made. Keywords stay in their order: a cache keyed on keywords
    tells orders apart."""
    if any(a is None for a in args) or any(v is None for v in kwargs.values()):
        return None
    return json.dumps({**what, "a": args, "k": kwargs})


def _encode(value, static: bool):
    """An argument as JSON: an array's shape, dtype and weak type; a static value itself; a Python
    scalar passed as an array, its type. None: not something a rehearsal can make."""
    import numpy as np

    if isinstance(value, (tuple, list)):
        items = [_encode(v, static) for v in value]
        return None if any(i is None for i in items) else {"seq": items, "tuple": isinstance(value, tuple)}
    if static:
        if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
            return {"dtype": np.dtype(value).name}
        if isinstance(value, _SIMPLE) and not (isinstance(value, float) and not math.isfinite(value)):
            return {"v": value}
        return None
    if value is None:
        return {"v": None}
    if isinstance(value, (bool, int, float, complex)):
        return {"py": type(value).__name__}
    from jax._src import core

    if isinstance(value, core.Tracer):
        return None  # a call under vmap or grad outside jit: what compiles is the transformed program
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None or not isinstance(dtype, np.dtype) or dtype.kind not in "biufc":
        return None  # keys, tracers of other kinds, objects: not rehearsed
    weak = bool(getattr(getattr(value, "aval", None), "weak_type", False))
    # A host array as JAX holds it while converting one (jax._src.literals.TypedNdArray): jit tells
    # it from a plain NumPy array, so a rehearsal must make the same kind.
    host = "typed" if type(value).__name__ == "TypedNdArray" else isinstance(value, np.ndarray)
    return {"shape": list(shape), "dtype": dtype.name, "weak": weak, "np": host}


def rehearse_file(run_dir: str, waiting) -> int:
    """Read and remove the run folder's rehearsal, and make its calls until `waiting()` (a job came); how many ran."""
    import os

    path = os.path.join(run_dir, REHEARSAL_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            calls = json.load(f)
    except (OSError, ValueError):
        return 0  # none: the first run of this sandbox, or a fresh fork
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
    return rehearse(calls if isinstance(calls, list) else [], waiting)


def rehearse(calls: list, waiting) -> int:
    """Make each call on zeros; `waiting`: a job came (the rest is left)."""
    ran = 0
    start = time.monotonic()
    for call in calls[:REHEARSE_MAX]:
        if time.monotonic() - start > MAX_SECONDS or waiting():
            break  # a job is waiting: it comes first
        try:
            ran += _make(json.loads(call))
        except Exception:  # noqa: BLE001 - only a speed-up: a call that no longer works is skipped
            pass
    return ran


def _make(call: dict) -> int:
    if "p" in call:
        prim = _primitive(call["p"])
        if prim is None:
            return 0
        prim.bind(*[_decode(a) for a in call["a"]], **{k: _decode(v) for k, v in call["k"].items()})
        return 1
    module, name = call["f"]
    fun = _resolve(module, name)
    if fun is None:
        return 0
    fun(*[_decode(a) for a in call["a"]], **{k: _decode(v) for k, v in call["k"].items()})
    return 1


def _decode(encoded: dict):
    import numpy as np

    if "seq" in encoded:
        items = [_decode(e) for e in encoded["seq"]]
        return tuple(items) if encoded.get("tuple") else items
    if "dtype" in encoded and "shape" not in encoded:
        return np.dtype(encoded["dtype"])
    if "v" in encoded:
        value = encoded["v"]
        if not isinstance(value, _SIMPLE):
            raise ValueError("not a simple value")
        return value
    if "py" in encoded:
        return {"bool": False, "int": 0, "float": 0.0, "complex": 0j}[encoded["py"]]
    shape = tuple(int(n) for n in encoded["shape"])
    if math.prod(shape) > MAX_ELEMENTS or any(n < 0 for n in shape):
        raise ValueError("too big to rehearse")
    zeros = np.zeros(shape, np.dtype(encoded["dtype"]))
    if encoded.get("np") == "typed":
        from jax._src import core, literals

        return literals.TypedNdArray(zeros, core.ShapedArray(shape, zeros.dtype, weak_type=bool(encoded.get("weak"))))
    if encoded.get("np"):
        return zeros
    import jax
    from jax._src.lax import lax

    if encoded.get("weak"):  # an array typed from a Python scalar
        return lax._convert_element_type(zeros, zeros.dtype, weak_type=True)
    return jax.device_put(zeros)


def _resolve(module: str, name: str):
    """JAX's jitted function `name` of `module`, if that module is imported and it is one."""
    target = sys.modules.get(module)
    for part in name.split("."):
        target = getattr(target, part, None)
    # a jitted function, or a jax.numpy ufunc (jnp.multiply: its call is a jitted one)
    if target is None or not module.startswith("jax.") or type(target).__name__ not in ("PjitFunction", "ufunc"):
        return None
    return target


_primitives: dict[str, object] = {}


def _primitive(name: str):
    """The primitive of this name among lax's (those a program runs eagerly)."""
    if not _primitives:
        from jax._src import core
        from jax._src.lax import lax, slicing, special

        for module in (lax, slicing, special):
            for value in vars(module).values():
                if isinstance(value, core.Primitive):
                    _primitives.setdefault(value.name, value)
    return _primitives.get(name)
