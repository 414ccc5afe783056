"""A few small programs a spare worker runs while it waits for its job.

A worker forked from the fork server has JAX imported but nothing of it used: the first jit, grad,
vmap or scan in the process pays for Python-side set-up (lowering rules met for the first time,
MLIR op classes, the eager conversion of a NumPy float64 array) that every later run in the same
process skips. A check's first run in a fresh worker took about 25-30 ms more CPU than the same
checks repeated in one process (pure-scale 119 -> 95 ms, counter-jit 88 -> 59 ms with this
warm-up). A spare runs these while the learner is still reading, so a check does not; a worker
whose job is already waiting (a fresh fork for a run, verify, grade) skips them: they cost 0.18 s.
Nothing here is learner code or touches what a check inspects: the programs are the tutor's own.
"""

from __future__ import annotations


def run() -> None:
    """The warm-up: each of the transformations checks use, once, on tiny inputs."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    x = jnp.asarray(np.arange(4, dtype=np.float64))  # a host float64 array, converted as checks do
    step = jax.jit(lambda p, lr: jax.tree.map(lambda a: a - lr * a, p))
    step({"w": x, "b": jnp.float32(1.0)}, 0.1)
    jax.grad(lambda w: jnp.sum((w * x - 1.0) ** 2))(x)
    jax.vmap(lambda a, b: a * b + 1.0, in_axes=(0, None))(x, 2.0)
    jax.jit(lambda c: lax.scan(lambda c, _: (c + 1, c), c, None, length=3))(jnp.int32(0))
    jax.make_jaxpr(lambda a: jnp.tanh(a) @ a)(x)
    jax.random.normal(jax.random.split(jax.random.key(0))[0], (2,)).block_until_ready()
