"""Metrics fetched with jax.device_get after every step, flax-example style."""
import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    def loss_fn(p):
        pred = batch["x"] @ p["w"] + p["b"]
        return jnp.mean((pred - batch["y"]) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    return params, {"loss": loss}


params = {"w": jnp.zeros(4), "b": jnp.zeros(())}
batch = {"x": jnp.ones((8, 4)), "y": jnp.ones(8)}
history = []
for epoch in range(25):
    params, metrics = train_step(params, batch)
    history.append(jax.device_get(metrics))  # finding: host-sync
print(history[-1]["loss"])
