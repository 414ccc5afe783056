"""A small variational autoencoder in flax NNX: an MLP encoder to a mean and log-variance, the
reparameterisation trick with an explicit key, an MLP decoder."""
import jax
import jax.numpy as jnp
from flax import nnx


class Encoder(nnx.Module):
    def __init__(self, din, dhidden, dlatent, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, dhidden, rngs=rngs)
        self.mean = nnx.Linear(dhidden, dlatent, rngs=rngs)
        self.logvar = nnx.Linear(dhidden, dlatent, rngs=rngs)

    def __call__(self, x):
        h = nnx.relu(self.hidden(x))
        return self.mean(h), self.logvar(h)


class Decoder(nnx.Module):
    def __init__(self, dlatent, dhidden, dout, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(dlatent, dhidden, rngs=rngs)
        self.out = nnx.Linear(dhidden, dout, rngs=rngs)

    def __call__(self, z):
        return self.out(nnx.relu(self.hidden(z)))


class VAE(nnx.Module):
    def __init__(self, din, dhidden, dlatent, *, rngs: nnx.Rngs):
        self.latent_dim = dlatent
        self.encoder = Encoder(din, dhidden, dlatent, rngs=rngs)
        self.decoder = Decoder(dlatent, dhidden, din, rngs=rngs)

    def __call__(self, x, key):
        mean, logvar = self.encoder(x)
        eps = jax.random.normal(key, mean.shape)
        z = mean + jnp.exp(0.5 * logvar) * eps
        return self.decoder(z), mean, logvar


def elbo_loss(model, x, key, beta):
    recon, mean, logvar = model(x, key)
    recon_loss = jnp.sum((recon - x) ** 2, axis=-1).mean()
    kl = -0.5 * jnp.sum(1 + logvar - mean**2 - jnp.exp(logvar), axis=-1).mean()
    return recon_loss + beta * kl


def sample(model, key, n):
    z = jax.random.normal(key, (n, model.latent_dim))
    return model.decoder(z)
