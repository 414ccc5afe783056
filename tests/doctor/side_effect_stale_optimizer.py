"""The optimizer a jitted step reads as a global is rebound at step 50 (a smaller rate, the same
state's structure): the step never traces again and keeps the first one."""
import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-2)


@jax.jit
def train_step(params, opt_state, x):
    loss, g = jax.value_and_grad(lambda p: jnp.mean((p * x - 1.0) ** 2))(params)
    updates, opt_state = optimizer.update(g, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


params = jnp.zeros(3)
opt_state = optimizer.init(params)
x = jnp.arange(3.0)
for i in range(100):
    if i == 50:
        optimizer = optax.adam(1e-3)  # finding: side-effect
    params, opt_state, loss = train_step(params, opt_state, x)
print(float(loss))
