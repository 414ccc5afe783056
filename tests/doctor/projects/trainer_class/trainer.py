"""A Trainer object in the style of small research codebases: it owns the model, the optimizer
(SGD with momentum) and its state; its train step is a method jitted once in __init__, and the
evaluation is a function jitted with a static flag (loss or accuracy)."""
import functools

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def cross_entropy(model, x, y):
    return optax.softmax_cross_entropy_with_integer_labels(model(x), y).mean()


@functools.partial(jax.jit, static_argnames=("metric",))
def evaluate(model, x, y, metric="loss"):
    if metric == "loss":
        return cross_entropy(model, x, y)
    return jnp.mean(jnp.argmax(model(x), axis=-1) == y)


class Trainer:
    def __init__(self, model, learning_rate, momentum):
        self.model = model
        self.optim = optax.sgd(learning_rate, momentum=momentum)
        self.opt_state = self.optim.init(model)
        self.history = []
        self._step = jax.jit(self.train_step)

    def train_step(self, model, opt_state, x, y):
        loss, grads = jax.value_and_grad(cross_entropy)(model, x, y)
        updates, opt_state = self.optim.update(grads, opt_state, model)
        return eqx.apply_updates(model, updates), opt_state, loss

    def fit_epoch(self, batches):
        for x, y in batches:
            self.model, self.opt_state, loss = self._step(self.model, self.opt_state, x, y)
            self.history.append(loss)
        return jnp.mean(jnp.stack(self.history[-len(batches) :]))

    def report(self, x, y):
        loss = evaluate(self.model, x, y, metric="loss")
        acc = evaluate(self.model, x, y, metric="accuracy")
        return float(loss), float(acc)
