"""Clean: logistic regression with a jitted step (typed initial state), an eval pass on a
test set of another size, a static `train` flag used with two values, and the loss kept on
the device until a report every 100 steps."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(3)
true_w = rng.normal(size=4).astype(np.float32)
x_train = rng.normal(size=(200, 4)).astype(np.float32)
x_test = rng.normal(size=(50, 4)).astype(np.float32)
y_train = (x_train @ true_w > 0).astype(np.float32)
y_test = (x_test @ true_w > 0).astype(np.float32)


@partial(jax.jit, static_argnames="train")
def loss_fn(w, x, y, train=True):
    logits = x @ w
    loss = jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)
    return loss + (1e-3 * jnp.sum(w ** 2) if train else 0.0)


@jax.jit
def step(w, x, y, lr):
    return w - lr * jax.grad(loss_fn)(w, x, y)


w = np.zeros(4, np.float32)
lr = np.float32(0.5)
for i in range(201):
    w = step(w, x_train, y_train, lr)
    if i % 100 == 0:
        train_loss = loss_fn(w, x_train, y_train, train=True)
        test_loss = loss_fn(w, x_test, y_test, train=False)
        print(f"step {i}: train {float(train_loss):.3f}, test {float(test_loss):.3f}")
accuracy = np.mean((x_test @ np.asarray(w) > 0) == (y_test > 0))
print("test accuracy", accuracy.item())
