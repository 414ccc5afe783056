"""The old state is read after it was donated to the step."""
import jax
import jax.numpy as jnp


def step(state):
    return {"w": state["w"] * 0.5, "n": state["n"] + 1}


step = jax.jit(step, donate_argnums=0)
state = {"w": jnp.ones(4), "n": jnp.int32(0)}
new_state = step(state)
print("old w sum", state["w"].sum())  # finding: donation
