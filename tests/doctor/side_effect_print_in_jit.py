"""print inside a jitted loss: it prints a tracer, once, then never again."""
import jax
import jax.numpy as jnp


@jax.jit
def loss_fn(w, x):
    loss = jnp.sum((w * x) ** 2)
    print("loss is", loss)  # finding: side-effect
    return loss


for i in range(3):
    loss_fn(jnp.float32(i), jnp.ones(3))
