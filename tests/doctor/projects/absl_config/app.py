"""An absl app: flags fill a Config made in main(); a jitted step trains the denoiser on fresh
noisy signals each step, the learning rate decayed on the host and passed in as an array."""
import jax
import jax.numpy as jnp
from absl import app, flags

import experiment

FLAGS = flags.DEFINE_integer("steps", 100, "training steps")
SEED = flags.DEFINE_integer("seed", 0, "random seed")


def main(argv):
    del argv
    config = experiment.Config(steps=FLAGS.value)
    key = jax.random.PRNGKey(SEED.value)
    key, init_key = jax.random.split(key)
    params = experiment.init_params(init_key, config.width)

    @jax.jit
    def step(params, key, lr):
        clean_key, noise_key = jax.random.split(key)
        clean = experiment.signals(clean_key, 32)
        noisy = clean + config.noise * jax.random.normal(noise_key, clean.shape)

        def loss_fn(params):
            return jnp.mean((experiment.denoise(params, noisy) - clean) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(params)
        return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss

    lr = jnp.float32(config.learning_rate)
    for i in range(config.steps):
        key, step_key = jax.random.split(key)
        params, loss = step(params, step_key, lr)
        lr = lr * config.decay
        if i % 25 == 0:
            print(f"step {i}: loss {float(loss):.4f}")
    print("final loss", float(loss))


if __name__ == "__main__":
    app.run(main)
