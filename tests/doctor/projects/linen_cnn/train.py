"""Training with flax's TrainState: a jitted step that takes a dropout key, an eval step,
and an epoch loop that splits a fresh key for every step."""
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state

from models import CNN


def make_dataset(seed, n, size=8, num_classes=4):
    """Images whose bright quadrant is the label, plus noise."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, num_classes, n)
    images = 0.3 * rng.normal(size=(n, size, size, 1))
    half = size // 2
    for i, label in enumerate(labels):
        r, c = divmod(int(label), 2)
        images[i, r * half : (r + 1) * half, c * half : (c + 1) * half, 0] += 1.0
    return images.astype(np.float32), labels.astype(np.int32)


def create_train_state(key, learning_rate, momentum):
    model = CNN()
    variables = model.init(key, jnp.ones((1, 8, 8, 1)), train=False)
    tx = optax.sgd(learning_rate, momentum)
    return train_state.TrainState.create(apply_fn=model.apply, params=variables["params"], tx=tx)


@jax.jit
def train_step(state, images, labels, dropout_key):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, images, train=True, rngs={"dropout": dropout_key})
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
        return loss, logits

    (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads)
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    return state, {"loss": loss, "accuracy": accuracy}


@jax.jit
def eval_step(state, images, labels):
    logits = state.apply_fn({"params": state.params}, images, train=False)
    return jnp.mean(jnp.argmax(logits, -1) == labels)


def train_epoch(state, key, images, labels, batch_size, rng):
    order = rng.permutation(len(images))
    steps = len(images) // batch_size
    batch_metrics = []
    for i in range(steps):
        idx = order[i * batch_size : (i + 1) * batch_size]
        key, dropout_key = jax.random.split(key)
        state, metrics = train_step(state, images[idx], labels[idx], dropout_key)
        batch_metrics.append(metrics)
    metrics = jax.device_get(batch_metrics)
    epoch_loss = np.mean([m["loss"] for m in metrics])
    epoch_acc = np.mean([m["accuracy"] for m in metrics])
    return state, key, epoch_loss, epoch_acc


def train_and_evaluate(num_epochs, batch_size, learning_rate, momentum, seed):
    train_x, train_y = make_dataset(seed, 512)
    test_x, test_y = make_dataset(seed + 1, 128)
    rng = np.random.default_rng(seed)
    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    state = create_train_state(init_key, learning_rate, momentum)
    for epoch in range(1, num_epochs + 1):
        state, key, loss, acc = train_epoch(state, key, train_x, train_y, batch_size, rng)
        test_acc = eval_step(state, test_x, test_y)
        print(f"epoch {epoch}: train loss {loss:.4f}, train acc {acc:.3f}, test acc {float(test_acc):.3f}")
    return state
