"""The training loop: a jitted SGD step over batches, an evaluation pass per epoch."""
import jax
import jax.numpy as jnp
import numpy as np

from model import mlp
from model.data import batches, synthetic_digits


@jax.jit
def train_step(params, images, labels, lr):
    loss, grads = jax.value_and_grad(mlp.loss)(params, images, labels)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, loss


@jax.jit
def accuracy(params, images, labels):
    return jnp.mean(jnp.argmax(mlp.apply(params, images), -1) == labels)


def train_and_evaluate(learning_rate, num_epochs, batch_size):
    init_key = jax.random.PRNGKey(0)
    params = mlp.init(init_key, [64, 32, 10])
    (train_x, train_y), (test_x, test_y) = synthetic_digits(0)
    rng = np.random.default_rng(1)
    lr = jnp.float32(learning_rate)
    for epoch in range(num_epochs):
        losses = []
        for images, labels in batches(rng, train_x, train_y, batch_size):
            params, loss = train_step(params, images, labels, lr)
            losses.append(loss)
        acc = accuracy(params, test_x, test_y)
        print(f"epoch {epoch}: loss {np.mean(jax.device_get(losses)):.3f} accuracy {float(acc):.3f}")
    return {"params": params, "accuracy": acc}
