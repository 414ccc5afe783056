"""NamedTuple made with the functional syntax, and update_state a lambda over _replace with jnp.add."""

import typing

import jax
import jax.numpy as jnp

StateHolder = typing.NamedTuple("StateHolder", [("value", jax.Array)])

update_state = lambda state, increment: state._replace(value=jnp.add(state.value, increment))  # noqa: E731
