"""The training loop: eqx.filter_jit over a step that takes filter_value_and_grad of the loss
and applies optax.adam's updates; accuracy on the test set after every epoch."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

from models import Classifier, batches, make_blobs


def loss_fn(model, x, y):
    logits = jax.vmap(model)(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@eqx.filter_jit
def train_step(model, opt_state, optim, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss


@eqx.filter_jit
def accuracy(model, x, y):
    return jnp.mean(jnp.argmax(jax.vmap(model)(x), axis=-1) == y)


def fit(epochs, batch_size, learning_rate, seed):
    (train_x, train_y), (test_x, test_y) = make_blobs(seed)
    key = jax.random.PRNGKey(seed)
    model_key, shuffle_key = jax.random.split(key)
    model = Classifier(train_x.shape[1], 16, 4, key=model_key)
    optim = optax.adam(learning_rate)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    step = 0
    for epoch in range(epochs):
        shuffle_key, perm_key = jax.random.split(shuffle_key)
        order = np.asarray(jax.random.permutation(perm_key, len(train_x)))
        losses = []
        for x, y in batches(order, train_x, train_y, batch_size):
            model, opt_state, loss = train_step(model, opt_state, optim, x, y)
            losses.append(loss)
            step += 1
        acc = float(accuracy(model, test_x, test_y))
        print(f"epoch {epoch} (step {step}): train loss {np.mean(jax.device_get(losses)):.4f}, test accuracy {acc:.3f}")
    return model, acc
