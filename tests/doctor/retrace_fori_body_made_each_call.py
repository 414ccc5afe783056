"""An unjitted step whose lax.fori_loop body is a closure made on every call: fori_loop wraps the
body in a function of JAX's own, traced anew each call because the body is new. The wrapper is
JAX's code carrying the learner's name and line: it stands for the learner's body."""
import jax
import jax.numpy as jnp


def decay(x, rate):
    def body(i, x):
        return x * rate

    return jax.lax.fori_loop(0, 4, body, x)  # finding: retrace


x = jnp.ones(3)
for step in range(5):
    x = decay(x, jnp.float32(0.9))
print(float(x.sum()))
