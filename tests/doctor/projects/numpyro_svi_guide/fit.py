"""numpyro stochastic variational inference, in the shape of its tutorials: a hierarchical
logistic regression over groups, an AutoNormal guide, svi.init then a jitted svi.update loop,
a posterior predictive with its own key, and the ELBO curve kept on the device."""

import argparse

import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer import SVI, Predictive, Trace_ELBO
from numpyro.infer.autoguide import AutoNormal


def model(x, group, n_groups, y=None):
    mu = numpyro.sample("mu", dist.Normal(0.0, 1.0))
    sigma = numpyro.sample("sigma", dist.HalfNormal(1.0))
    with numpyro.plate("groups", n_groups):
        alpha = numpyro.sample("alpha", dist.Normal(mu, sigma))
    beta = numpyro.sample("beta", dist.Normal(0.0, 1.0))
    logits = alpha[group] + beta * x
    with numpyro.plate("data", x.shape[0]):
        numpyro.sample("y", dist.Bernoulli(logits=logits), obs=y)


def simulate(key, n=200, n_groups=5):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    group = jax.random.randint(k1, (n,), 0, n_groups)
    alpha = 0.5 + 0.8 * jax.random.normal(k2, (n_groups,))
    x = jax.random.normal(k3, (n,))
    y = jax.random.bernoulli(k4, jax.nn.sigmoid(alpha[group] + 1.5 * x)).astype(jnp.int32)
    return x, group, y


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()

    rng_key = jax.random.key(0)
    data_key, init_key, pred_key = jax.random.split(rng_key, 3)
    x, group, y = simulate(data_key)
    guide = AutoNormal(model)
    svi = SVI(model, guide, numpyro.optim.Adam(0.05), Trace_ELBO())
    state = svi.init(init_key, x, group, 5, y=y)
    update = jax.jit(svi.update, static_argnums=(3,))
    losses = []
    for step in range(args.steps):
        state, loss = update(state, x, group, 5, y)
        losses.append(loss)
    losses = jnp.stack(losses)
    print("ELBO loss, first and last:", float(losses[0]), float(losses[-1]))
    params = svi.get_params(state)
    predictive = Predictive(model, guide=guide, params=params, num_samples=100)
    draws = predictive(pred_key, x, group, 5)["y"]
    print("posterior predictive accuracy", float(jnp.mean(draws.mean(0).round() == y)))


if __name__ == "__main__":
    main()
