"""A random-walk Metropolis sampler written in plain JAX, numpyro-style: a log density over a
pytree of parameters (a Bayesian logistic regression), a kernel as init / sample functions, and
several chains run with vmap over keys split from one root key."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class RWMState(NamedTuple):
    position: dict
    log_density: jnp.ndarray
    accepted: jnp.ndarray


def make_data(key, n=200):
    kx, ky = jax.random.split(key)
    x = jax.random.normal(kx, (n, 3))
    logits = x @ jnp.array([1.5, -2.0, 0.5]) + 0.3
    return x, jax.random.bernoulli(ky, jax.nn.sigmoid(logits)).astype(jnp.float32)


def log_density(params, x, y):
    logits = x @ params["w"] + params["b"]
    prior = -0.5 * (jnp.sum(params["w"] ** 2) + params["b"] ** 2) / 4.0
    return prior + jnp.sum(y * jax.nn.log_sigmoid(logits) + (1 - y) * jax.nn.log_sigmoid(-logits))


def init(position, x, y):
    return RWMState(position, log_density(position, x, y), jnp.zeros((), jnp.int32))


def sample(key, state, x, y, step_size=0.08):
    move_key, accept_key = jax.random.split(key)
    leaves, tree = jax.tree_util.tree_flatten(state.position)
    keys = jax.random.split(move_key, len(leaves))
    moved = [p + step_size * jax.random.normal(k, p.shape) for p, k in zip(leaves, keys)]
    proposal = jax.tree_util.tree_unflatten(tree, moved)
    proposal_ld = log_density(proposal, x, y)
    accept = jnp.log(jax.random.uniform(accept_key)) < proposal_ld - state.log_density
    position = jax.tree_util.tree_map(lambda new, old: jnp.where(accept, new, old), proposal, state.position)
    return RWMState(position, jnp.where(accept, proposal_ld, state.log_density), state.accepted + accept)


def run_chain(key, x, y, num_samples):
    state = init({"w": jnp.zeros(3), "b": jnp.zeros(())}, x, y)

    def one(state, key):
        state = sample(key, state, x, y)
        return state, state.position

    state, positions = jax.lax.scan(one, state, jax.random.split(key, num_samples))
    return positions, state.accepted / num_samples


def main(num_chains=4, num_samples=2000):
    x, y = make_data(jax.random.PRNGKey(0))
    chains = jax.jit(jax.vmap(run_chain, in_axes=(0, None, None, None)), static_argnums=3)
    positions, rate = chains(jax.random.split(jax.random.PRNGKey(1), num_chains), x, y, num_samples)
    w = positions["w"][:, num_samples // 2 :]
    print("posterior mean w", jnp.round(w.mean(axis=(0, 1)), 2), "acceptance", jnp.round(rate, 2))
    print("between-chain spread", jnp.round(w.mean(axis=1).std(axis=0), 3))


if __name__ == "__main__":
    main()
