"""Where a NaN / inf was made, not where JAX's check fired (the nans detector's second look).

`jax_debug_nans` stops at the first op whose *checked* output is bad. A `where` that hides
log(0) from a jitted loss keeps the loss finite, so the check fires in the backward pass (a
`div`, at the `jax.grad` call). After the script stopped, the call on the learner's innermost
line is traced again with the arguments its frame still holds (the failing step's inputs), and
its jaxpr evaluated eqn by eqn: the first eqn whose output holds a NaN or an inf while its inputs
are finite made it, and its source_info names the learner's line. Anything this cannot do (a
call with computed arguments, a donated input, another JAX's jaxpr) gives None: the old line.
"""

from __future__ import annotations

import ast
import contextlib
import io
import types
from dataclasses import dataclass

import jax
import numpy as np

from tutor.child.doctor.script_code import ScriptCode

_SIMPLE = (
    ast.Name,
    ast.Attribute,
    ast.Constant,
    ast.Subscript,
    ast.Tuple,
    ast.Slice,
    ast.expr_context,
    ast.UnaryOp,
    ast.USub,
)
MAX_EQNS = 20_000  # a bound on each walk: a huge program is not searched (the old line stands)
FRAMES_TRIED = 4  # the innermost learner frame's calls, then its callers' (a few)


@dataclass(frozen=True)
class Origin:
    filename: str
    line: int
    function: str | None  # None: the script's top level
    primitive: str


def origin(failure: BaseException, code: ScriptCode) -> Origin | None:
    """The learner's line and op that made the first non-finite value of the failing call."""
    saved = {name: jax.config.values.get(name, False) for name in ("jax_debug_nans", "jax_debug_infs")}
    try:
        for name in saved:
            jax.config.update(name, False)
        # JAX's check may stop in a callee whose own call cannot show it (JAX 0.12 stops in the
        # loss, at the jitted helper's call, for a NaN of the gradient): the callers' lines too
        for frame in _learners_frames(failure, code)[:FRAMES_TRIED]:
            source = code.file(frame.f_code.co_filename)
            for call in source.calls_at(frame.f_lineno) if source is not None else ():
                try:
                    found = _search(call, frame, code)
                except Exception:  # noqa: BLE001 - not this call: the next one, or the old line
                    continue
                if found is not None:
                    return found
        return None
    finally:
        for name, value in saved.items():
            jax.config.update(name, value)


def _learners_frames(failure: BaseException, code: ScriptCode) -> list[types.FrameType]:
    """The learner's frames in the traceback, innermost first."""
    tb, frames = failure.__traceback__, []
    while tb is not None:
        if code.owns(tb.tb_frame.f_code.co_filename):
            frames.append(tb.tb_frame)
        tb = tb.tb_next
    return frames[::-1]


def _value(expr: ast.expr, frame):
    """An expression of names, attributes, constants and subscripts, evaluated in the frame; a
    call only where it makes a JAX transform (`jax.grad(loss)`). Anything else raises."""
    if isinstance(expr, ast.Call):
        fn = _value(expr.func, frame)
        if not getattr(fn, "__module__", "").startswith("jax"):
            raise ValueError("only a JAX transform is called again")
        args = [_value(a, frame) for a in expr.args]
        kwargs = {k.arg: _value(k.value, frame) for k in expr.keywords if k.arg}
        return fn(*args, **kwargs)
    if not all(isinstance(node, _SIMPLE) for node in ast.walk(expr)):
        raise ValueError("not a simple expression")
    # names, attributes and subscripts only (checked above): what the failing call was given
    return eval(compile(ast.Expression(expr), "<doctor>", "eval"), frame.f_globals, dict(frame.f_locals))


def _search(call: ast.Call, frame, code: ScriptCode) -> Origin | None:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    fn = _value(call.func, frame)
    args = [_value(a, frame) for a in call.args]
    kwargs = {k.arg: _value(k.value, frame) for k in call.keywords if k.arg}
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs))
    dynamic = [i for i, leaf in enumerate(leaves) if isinstance(leaf, (jax.Array, np.ndarray))]
    if not dynamic or any(getattr(leaves[i], "is_deleted", lambda: False)() for i in dynamic):
        return None

    def run(*arrays):
        full = list(leaves)
        for i, array in zip(dynamic, arrays):
            full[i] = array
        a, k = jax.tree_util.tree_unflatten(tree, full)
        out = fn(*a, **k)
        return [x for x in jax.tree_util.tree_leaves(out) if isinstance(x, jax.Array)]

    inputs = [leaves[i] for i in dynamic]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        closed = jax.make_jaxpr(run)(*inputs)
        eqn = _first_bad(closed.jaxpr, closed.consts, inputs, [0])
    if eqn is None:
        return None
    place = _learners_line(eqn, code)
    return None if place is None else Origin(*place, eqn.primitive.name)


def _inner(eqn):
    """The jaxpr a call-like eqn runs (jit, custom_jvp/vjp, remat), with its constants."""
    for name in ("jaxpr", "call_jaxpr", "fun_jaxpr"):
        inner = eqn.params.get(name)
        if inner is None:
            continue
        if hasattr(inner, "consts") and hasattr(inner, "jaxpr"):
            return inner.jaxpr, inner.consts
        if hasattr(inner, "eqns") and not inner.constvars:
            return inner, []
    return None


def _bad(value) -> bool:
    dtype = getattr(value, "dtype", None)
    if dtype is None or not jax.dtypes.issubdtype(dtype, np.inexact):
        return False
    return not bool(np.all(np.isfinite(np.asarray(value))))


def _first_bad(jaxpr, consts, args, count: list[int]):
    """The first eqn (inner calls walked into) whose output holds a NaN / inf while its inputs do
    not; or None. Every other eqn is bound as jax.core.eval_jaxpr binds it."""
    env: dict = {}

    def read(v):
        return v.val if type(v).__name__ == "Literal" else env[v]

    env.update(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args))
    for eqn in jaxpr.eqns:
        count[0] += 1
        if count[0] > MAX_EQNS:
            raise RuntimeError("too large to search")
        values = [read(v) for v in eqn.invars]
        inner = _inner(eqn)
        if inner is not None and len(inner[0].invars) == len(values):
            found = _first_bad(inner[0], inner[1], values, count)
            if found is not None:
                return found
        outs = _bind(eqn, values)
        if not eqn.primitive.multiple_results:
            outs = [outs]
        if inner is None and any(_bad(o) for o in outs) and not any(_bad(v) for v in values):
            return eqn
        for v, out in zip(eqn.outvars, outs):
            if type(v).__name__ != "DropVar":
                env[v] = out
    return None


def _bind(eqn, values):
    """One eqn run on concrete values, as eval_jaxpr runs it (JAX 0.10's get_bind_params gives the
    params with their subfuns; earlier ones gave a pair)."""
    bound = eqn.primitive.get_bind_params(eqn.params)
    subfuns, params = bound if isinstance(bound, tuple) else ((), bound)
    ctx = getattr(getattr(eqn, "ctx", None), "manager", None)
    with ctx if ctx is not None else contextlib.nullcontext():
        return eqn.primitive.bind(*subfuns, *values, **params)


def _learners_line(eqn, code: ScriptCode) -> tuple[str, int, str | None] | None:
    """The learner's innermost frame in the eqn's source_info (where the op was written)."""
    traceback = getattr(eqn.source_info, "traceback", None)
    for frame in getattr(traceback, "frames", None) or ():
        if code.owns(frame.file_name):
            name = frame.function_name
            return frame.file_name, frame.line_num, None if name == "<module>" else name
    return None
