"""Activations kept for a plot by appending them to a module-level list inside jit, used later."""
import jax
import jax.numpy as jnp

activations = []


@jax.jit
def forward(w, x):
    h = jnp.tanh(x @ w)
    activations.append(h)  # finding: side-effect
    return jnp.sum(h)


w = jnp.ones((3, 2))
x = jnp.ones((4, 3))
print(forward(w, x))
print(jnp.mean(activations[0]))  # finding: crash
