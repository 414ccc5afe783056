"""A 1-D GAN: a generator and a discriminator, each with its own optax optimizer, updated in
turn by two jitted steps; the latent noise key is split every step."""
import jax
import jax.numpy as jnp
import numpy as np
import optax


def mlp_init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        (jax.random.normal(k, (a, b)) / jnp.sqrt(a), jnp.zeros(b)) for k, a, b in zip(keys, sizes[:-1], sizes[1:])
    ]


def mlp(params, x):
    for w, b in params[:-1]:
        x = jax.nn.leaky_relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def d_loss(d_params, g_params, real, z):
    fake = mlp(g_params, z)
    real_logit, fake_logit = mlp(d_params, real), mlp(d_params, fake)
    return jnp.mean(jax.nn.softplus(-real_logit) + jax.nn.softplus(fake_logit))


def g_loss(g_params, d_params, z):
    return jnp.mean(jax.nn.softplus(-mlp(d_params, mlp(g_params, z))))


g_opt, d_opt = optax.adam(2e-3, b1=0.5), optax.adam(2e-3, b1=0.5)


@jax.jit
def d_step(d_params, d_state, g_params, real, z):
    grads = jax.grad(d_loss)(d_params, g_params, real, z)
    updates, d_state = d_opt.update(grads, d_state)
    return optax.apply_updates(d_params, updates), d_state


@jax.jit
def g_step(g_params, g_state, d_params, z):
    loss, grads = jax.value_and_grad(g_loss)(g_params, d_params, z)
    updates, g_state = g_opt.update(grads, g_state)
    return optax.apply_updates(g_params, updates), g_state, loss


rng = np.random.default_rng(0)
key = jax.random.PRNGKey(0)
key, gk, dk = jax.random.split(key, 3)
g_params, d_params = mlp_init(gk, [4, 16, 1]), mlp_init(dk, [1, 16, 1])
g_state, d_state = g_opt.init(g_params), d_opt.init(d_params)
for step in range(200):
    real = rng.normal(3.0, 0.5, (64, 1)).astype(np.float32)
    key, zd, zg = jax.random.split(key, 3)
    d_params, d_state = d_step(d_params, d_state, g_params, real, jax.random.normal(zd, (64, 4)))
    g_params, g_state, loss = g_step(g_params, g_state, d_params, jax.random.normal(zg, (64, 4)))
    if step % 50 == 0:
        print(f"step {step}: generator loss {float(loss):.3f}")
key, zk = jax.random.split(key)
print("generated mean", float(jnp.mean(mlp(g_params, jax.random.normal(zk, (512, 4))))))
