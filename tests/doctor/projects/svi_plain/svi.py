"""numpyro-style variational inference written in plain JAX: a Bayesian linear regression, a
mean-field normal guide, the ELBO estimated with reparameterised samples, optimised with optax
(numpyro's SVI(model, guide, optim, Trace_ELBO()).run(key, steps, ...) in small)."""

import argparse

import jax
import jax.numpy as jnp
import optax


def log_joint(theta, x, y):
    w, log_sigma = theta[:-1], theta[-1]
    prior = -0.5 * jnp.sum(theta**2)
    sigma = jnp.exp(log_sigma)
    resid = (y - x @ w) / sigma
    return prior + jnp.sum(-0.5 * resid**2 - log_sigma)


def elbo(guide, key, x, y, num_particles=4):
    eps = jax.random.normal(key, (num_particles, guide["loc"].shape[0]))
    scale = jax.nn.softplus(guide["raw_scale"])
    thetas = guide["loc"] + scale * eps
    entropy = jnp.sum(jnp.log(scale))
    return jnp.mean(jax.vmap(log_joint, (0, None, None))(thetas, x, y)) + entropy


class SVI:
    def __init__(self, optim):
        self.optim = optim

    def init(self, dim):
        guide = {"loc": jnp.zeros(dim), "raw_scale": jnp.full(dim, -2.0, jnp.float32)}
        return guide, self.optim.init(guide)

    def make_update(self):
        optim = self.optim

        @jax.jit
        def update(guide, opt_state, key, x, y):
            loss, grads = jax.value_and_grad(lambda g: -elbo(g, key, x, y))(guide)
            updates, opt_state = optim.update(grads, opt_state)
            return optax.apply_updates(guide, updates), opt_state, loss

        return update

    def run(self, key, steps, x, y):
        guide, opt_state = self.init(x.shape[1] + 1)
        update = self.make_update()
        losses = []
        for _ in range(steps):
            key, sub = jax.random.split(key)
            guide, opt_state, loss = update(guide, opt_state, sub, x, y)
            losses.append(loss)
        return guide, jnp.stack(losses)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=150)
    args = parser.parse_args(argv)
    data_key, noise_key, run_key = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.random.normal(data_key, (100, 2))
    y = x @ jnp.array([1.5, -0.7]) + 0.3 * jax.random.normal(noise_key, (100,))
    svi = SVI(optax.adam(0.05))
    guide, losses = svi.run(run_key, args.steps, x, y)
    print(f"loc {guide['loc']}, final loss {float(losses[-10:].mean()):.2f}")


if __name__ == "__main__":
    main()
