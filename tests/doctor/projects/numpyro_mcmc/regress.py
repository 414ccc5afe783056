"""Bayesian linear regression with numpyro's NUTS, in the style of numpyro's tutorials: one key
split for the data, the sampler and the posterior predictive. numpyro consumes the sampler's key
more than once inside `MCMC.run` (its initial-parameter search replays the model with it): that is
the library's, said as a note, not a finding of the script's."""

import argparse

import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS, Predictive


def model(x, y=None):
    slope = numpyro.sample("slope", dist.Normal(0.0, 2.0))
    intercept = numpyro.sample("intercept", dist.Normal(0.0, 2.0))
    noise = numpyro.sample("noise", dist.HalfNormal(1.0))
    with numpyro.plate("data", x.shape[0]):
        numpyro.sample("y", dist.Normal(slope * x + intercept, noise), obs=y)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=60)
    args = parser.parse_args(argv)
    data_key, run_key, predict_key = jax.random.split(jax.random.key(7), 3)
    x = jnp.linspace(-2.0, 2.0, 40)
    y = 1.5 * x - 0.3 + 0.2 * jax.random.normal(data_key, x.shape)
    mcmc = MCMC(NUTS(model), num_warmup=args.samples, num_samples=args.samples, progress_bar=False)
    mcmc.run(run_key, x, y)
    samples = mcmc.get_samples()
    predictive = Predictive(model, samples)
    predicted = predictive(predict_key, jnp.array([3.0]))["y"]
    print(f"slope {float(samples['slope'].mean()):.2f} y(3) {float(predicted.mean()):.2f}")


if __name__ == "__main__":
    main()
