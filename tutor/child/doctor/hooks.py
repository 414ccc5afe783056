"""What every detector needs to instrument a run and take it back afterwards: patching an
attribute or a JAX option with its undo, and whether JAX is staging a jaxpr right now."""

from __future__ import annotations

import functools
from collections.abc import Callable

import jax


class Hooks:
    """The instrumentation of one run: each change is recorded with its undo, undone in reverse."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], object]] = []

    def patch(self, owner, name: str, value) -> None:
        """Replace owner.name (a class's own attribute, or a module's) by `value`."""
        old = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        setattr(owner, name, value)
        self.on_undo(lambda: setattr(owner, name, old))

    def option(self, name: str, value) -> None:
        """Set a jax.config option for the run."""
        old = jax.config.values.get(name, False)
        jax.config.update(name, value)
        self.on_undo(functools.partial(jax.config.update, name, old))

    def on_undo(self, undo: Callable[[], object]) -> None:
        self._undo.append(undo)

    def undo(self) -> None:
        while self._undo:
            try:
                self._undo.pop()()
            except Exception:  # noqa: BLE001 - undo everything we can
                pass


def staging() -> bool:
    """Whether JAX is tracing into a jaxpr right now (jit, scan bodies...), not running eagerly:
    the current trace, or one it sits on (grad or vmap inside a jit), stages a jaxpr."""
    try:
        from jax._src import core
        from jax._src.interpreters import partial_eval as pe

        trace = core.trace_ctx.trace
        for _ in range(64):
            if trace is None:
                return False
            if isinstance(trace, pe.DynamicJaxprTrace):
                return True
            trace = getattr(trace, "parent_trace", None)
        return True
    except (ImportError, AttributeError):  # an older or newer JAX: fall back to "any trace"
        from jax._src import core

        return not core.trace_state_clean()


def asks_donation(jit_kwargs: dict) -> bool:
    """Whether a jax.jit call asks to donate (donate_argnums=0 is a request too)."""
    return any(jit_kwargs.get(name) not in (None, (), []) for name in ("donate_argnums", "donate_argnames"))
