"""What a function compiles to: the primitives of its jaxpr, nested sub-jaxprs (jit, cond,
scan, remat) included; never text matching on the printed program."""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator

from tutor.child.library.failures import Label, bilingual, fail
from tutor.child.library.originals import make_jaxpr
from tutor.child.library.trace_facts import CONTROL_FLOW, report_trace


def _subjaxprs(params: dict):
    for value in params.values():
        items = value if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if hasattr(item, "jaxpr") and hasattr(item, "consts"):  # ClosedJaxpr
                yield item.jaxpr
            elif hasattr(item, "eqns"):  # Jaxpr
                yield item


def _equations(jaxpr) -> Iterator:
    """Every equation of a jaxpr (or ClosedJaxpr), those of nested sub-jaxprs included."""
    if hasattr(jaxpr, "jaxpr") and hasattr(jaxpr, "consts"):
        jaxpr = jaxpr.jaxpr
    stack = [jaxpr]
    while stack:
        for eqn in stack.pop().eqns:
            yield eqn
            stack.extend(_subjaxprs(eqn.params))


def donates(jaxpr) -> bool:
    """Whether a jitted call inside the program donates an input (jax.jit(..., donate_argnums=...)):
    run for real, it would delete the caller's arrays; traced, nothing is deleted."""
    return any(any(eqn.params.get("donated_invars") or ()) for eqn in _equations(jaxpr))


def primitive_names(jaxpr) -> set[str]:
    """Every primitive name in a jaxpr, including those in nested sub-jaxprs."""
    return {eqn.primitive.name for eqn in _equations(jaxpr)}


def primitive_counts(fn: Callable, *args, **kwargs) -> collections.Counter[str]:
    """How many equations of each primitive fn's program holds on these arguments, nested
    sub-jaxprs included: a Python loop shows as one `add` per iteration, `scan` as one scan."""
    counts = collections.Counter(eqn.primitive.name for eqn in _equations(make_jaxpr(fn)(*args, **kwargs)))
    _tell_panel(fn, set(counts))
    return counts


def primitives(fn: Callable, *args, **kwargs) -> set[str]:
    """Primitive names used when fn is traced on these arguments."""
    names = primitive_names(make_jaxpr(fn)(*args, **kwargs))
    _tell_panel(fn, names)
    return names


def control_flow(jaxpr) -> tuple[str, ...]:
    """Which of scan / while / cond a program holds, nested programs included."""
    names = primitive_names(jaxpr)
    return tuple(name for name in CONTROL_FLOW if name in names)


def _tell_panel(fn: Callable, names: set[str]) -> None:
    """The trace panel hears which control flow a program the checks looked at holds."""
    name = str(getattr(fn, "__name__", None) or getattr(getattr(fn, "__wrapped__", None), "__name__", "function"))
    if not name.startswith("<"):  # a check's own lambda is not the learner's function
        report_trace(name, 0, flow=tuple(n for n in CONTROL_FLOW if n in names))


def expect_primitive(fn: Callable, args: tuple, name: str, what: Label | None = None) -> None:
    found = primitives(fn, *args)
    en, zh = bilingual(what if what else getattr(fn, "__name__", "the function"))
    if name not in found:
        fail(
            f"no `{name}` primitive in the compiled program of {en}; found only: {', '.join(sorted(found)) or 'nothing'}",
            f"{zh} 编译出的程序里没有 `{name}` 原语；只找到：{', '.join(sorted(found)) or '无'}",
        )


# Where a program consumes a PRNG key: what it draws, splits or folds data into.
KEY_USES = ("random_bits", "random_split", "random_fold_in", "threefry2x32")


def draws_not_from(fn: Callable, args: tuple, sources: Callable[[list], list[bool]]) -> list[str]:
    """The key uses (KEY_USES primitives) in fn's program whose key does not depend on the
    inputs `sources` marks (given the flat list of argument leaves, one bool per leaf): a key
    made inside from a constant seed (`jax.random.key(0)` in the step), or read from a global.
    Dependence is followed through every nested program (jit, scan, cond, while, custom
    derivatives); where an inner program's inputs cannot be matched to the outer ones, all
    of them count as dependent, so that an unclear case is never reported."""
    from tutor.child.library.originals import tree_flatten_with_path

    closed = make_jaxpr(fn)(*args)
    leaves = [leaf for _, leaf in tree_flatten_with_path(args)[0]]
    marked = sources(leaves)
    jaxpr = closed.jaxpr
    dep = {id(v) for v, m in zip(jaxpr.invars, marked) if m}
    found: list[str] = []
    _follow(jaxpr, dep, found)
    return found


def _inner(value) -> list:
    items = value if isinstance(value, (tuple, list)) else (value,)
    out = []
    for item in items:
        if hasattr(item, "jaxpr") and hasattr(item, "consts"):
            out.append(item.jaxpr)
        elif hasattr(item, "eqns"):
            out.append(item)
    return out


def _follow(jaxpr, dep: set[int], found: list[str]) -> list[bool]:
    """Marks in `dep` every variable of jaxpr that depends on one already there; appends to
    `found` each key use whose key does not. Returns, per output, whether it depends."""
    for eqn in jaxpr.eqns:
        ins = [id(v) in dep for v in eqn.invars]
        name = eqn.primitive.name
        if name in KEY_USES and eqn.invars and not ins[0]:
            found.append(name)
        outs = [any(ins)] * len(eqn.outvars)
        for key, value in eqn.params.items():
            for sub in _inner(value):
                operands = ins
                if name == "cond" and key == "branches":
                    operands = ins[1:]
                elif name == "while":
                    nc, nb = eqn.params.get("cond_nconsts", 0), eqn.params.get("body_nconsts", 0)
                    carry = ins[nc + nb :]
                    operands = (ins[:nc] if key == "cond_jaxpr" else ins[nc : nc + nb]) + carry
                if len(operands) != len(sub.invars):
                    operands = [any(ins)] * len(sub.invars)
                inner_dep = {id(v) for v, m in zip(sub.invars, operands) if m}
                inner_out = _follow(sub, inner_dep, found)
                if name == "scan":  # a carry that comes to depend feeds the next iteration
                    n_consts, n_carry = eqn.params.get("num_consts", 0), eqn.params.get("num_carry", 0)
                    again = list(operands)
                    for i in range(n_carry):
                        again[n_consts + i] = again[n_consts + i] or inner_out[i]
                    if again != operands:
                        inner_dep = {id(v) for v, m in zip(sub.invars, again) if m}
                        inner_out = _follow(sub, inner_dep, [])
                if name in ("cond", "while", "scan"):
                    outs = [True] * len(eqn.outvars) if any(ins) else outs
                elif len(inner_out) == len(eqn.outvars):
                    outs = inner_out
        for v, m in zip(eqn.outvars, outs):
            if m:
                dep.add(id(v))
    return [id(v) in dep for v in jaxpr.outvars]


# Primitives that hand values to Python on the host and wait for its answer (a debug print only
# shows values, it computes nothing).
HOST_CALLS = ("pure_callback", "io_callback", "callback")
LOOPS = ("scan", "while")


def host_calls_per_example(fn: Callable, *args, **kwargs) -> list[str]:
    """The host callbacks in fn's program that run once per example: inside a loop (what
    `vmap_method="sequential"` and an io_callback under vmap become, and what a lax.map makes).
    A program built with jax.vmap around one is not vectorized: the batch
    is computed in Python, one example after another."""
    found: list[str] = []

    def visit(jaxpr, looping: bool) -> None:
        for eqn in jaxpr.eqns:
            name = eqn.primitive.name
            if name in HOST_CALLS and looping:
                found.append(name)
            for sub in _subjaxprs(eqn.params):
                visit(sub, looping or name in LOOPS)

    visit(make_jaxpr(fn)(*args, **kwargs).jaxpr, False)
    return found
