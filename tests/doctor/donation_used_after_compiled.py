"""The old state is read after it was donated, with its sum already compiled (JAX's fast path)."""
import jax
import jax.numpy as jnp

print(jnp.ones(4).sum())
def step(state):
    return {"w": state["w"] * 0.5, "n": state["n"] + 1}


step = jax.jit(step, donate_argnums=0)
state = {"w": jnp.ones(4), "n": jnp.int32(0)}
new_state = step(state)
print("old w sum", state["w"].sum())  # finding: donation
