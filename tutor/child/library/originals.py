"""The JAX functions the library calls, taken before any learner code runs: a learner's file may
monkey-patch jax (`jax.jit = ...`), and what judges it must not go through the patch."""

from __future__ import annotations

import jax

jit = jax.jit
eval_shape = jax.eval_shape
make_jaxpr = jax.make_jaxpr
device_put = jax.device_put
default_backend = jax.default_backend
default_device = jax.default_device
devices = jax.devices
canonicalize_dtype = jax.dtypes.canonicalize_dtype
tree_flatten_with_path = jax.tree_util.tree_flatten_with_path
tree_structure = jax.tree_util.tree_structure
keystr = jax.tree_util.keystr
Wrapped = jax.stages.Wrapped
Tracer = jax.core.Tracer
listen = jax.monitoring.register_event_duration_secs_listener
unlisten = jax.monitoring.unregister_event_duration_listener
