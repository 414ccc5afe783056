"""An optimizer made anew on every step and passed to an eqx.filter_jit step: equinox keeps
non-array arguments static, and a new optax chain is never equal to the last one, so every
step compiles again."""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@eqx.filter_jit
def make_step(params, opt_state, x, optim):
    grads = jax.grad(lambda p: jnp.sum((p * x - 1.0) ** 2))(params)
    updates, opt_state = optim.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


params = jnp.ones(3)
opt_state = optax.chain(optax.clip(1.0), optax.adam(1e-2)).init(params)
for step in range(6):
    optim = optax.chain(optax.clip(1.0), optax.adam(1e-2))
    params, opt_state = make_step(params, opt_state, jnp.arange(3.0), optim)  # finding: retrace
print(params)
