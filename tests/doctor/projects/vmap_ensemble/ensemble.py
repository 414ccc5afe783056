"""A deep ensemble of small regressors trained at once with jax.vmap (the "ensembling with vmap"
tutorial's shape): one params pytree with a leading member axis, optax.adam over all of them,
a config dataclass for the noise and the weight decay, and the members' validation losses
checked once per round to drop the worst member's influence when predicting."""

import argparse
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class Config:
    members: int = 5
    hidden: int = 16
    weight_decay: float = 1e-3
    noise: float = 0.05


def init_member(key, hidden):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (1, hidden)) * 0.5,
        "b1": jnp.zeros(hidden),
        "w2": jax.random.normal(k2, (hidden, 1)) * 0.5,
        "b2": jnp.zeros(1),
    }


def predict(params, x):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def make_train_step(cfg, optimizer):
    def member_loss(params, x, y, key):
        x = x + cfg.noise * jax.random.normal(key, x.shape)
        mse = jnp.mean((predict(params, x) - y) ** 2)
        l2 = sum(jnp.sum(p**2) for p in jax.tree_util.tree_leaves(params))
        return mse + cfg.weight_decay * l2

    @jax.jit
    def train_step(params, opt_state, x, y, key):
        keys = jax.random.split(key, cfg.members)
        losses, grads = jax.vmap(jax.value_and_grad(member_loss), in_axes=(0, None, None, 0))(params, x, y, keys)
        updates, opt_state = optimizer.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, losses

    return train_step


@jax.jit
def validate(params, x, y):
    return jax.vmap(lambda p: jnp.mean((predict(p, x) - y) ** 2))(params)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=25)
    args = parser.parse_args()
    cfg = Config()

    key = jax.random.key(7)
    data_key, init_key, train_key = jax.random.split(key, 3)
    x = jnp.linspace(-2.0, 2.0, 128)[:, None]
    y = x**3 - x + 0.1 * jax.random.normal(data_key, x.shape)
    xv, yv = x[::3] + 0.01, y[::3]
    params = jax.vmap(init_member, in_axes=(0, None))(jax.random.split(init_key, cfg.members), cfg.hidden)
    optimizer = optax.adam(1e-2)
    opt_state = optimizer.init(params)
    train_step = make_train_step(cfg, optimizer)
    weights = jnp.ones(cfg.members) / cfg.members
    for r in range(args.rounds):
        for _ in range(args.steps):
            train_key, step_key = jax.random.split(train_key)
            params, opt_state, losses = train_step(params, opt_state, x, y, step_key)
        val = validate(params, xv, yv)
        weights = jax.nn.softmax(-val / jnp.mean(val))
        print(f"round {r}: mean member loss {float(jnp.mean(losses)):.4f}")
    preds = jax.vmap(predict, in_axes=(0, None))(params, xv)
    ensemble = jnp.einsum("m,mnk->nk", weights, preds)
    print("ensemble val mse", float(jnp.mean((ensemble - yv) ** 2)))


if __name__ == "__main__":
    main()
