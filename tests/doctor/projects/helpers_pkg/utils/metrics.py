"""Metrics: computed inside the jitted step, averaged on the device between log lines."""
import jax.numpy as jnp


def compute_metrics(loss, logits, labels):
    accuracy = jnp.mean(jnp.argmax(logits, axis=-1) == labels)
    return {"loss": loss, "accuracy": accuracy}


class Average:
    """A running mean of a dict of scalars; the sums stay device arrays until compute()."""

    def __init__(self):
        self.totals = {}
        self.count = 0

    def update(self, values):
        for name, value in values.items():
            self.totals[name] = self.totals.get(name, 0.0) + value
        self.count += 1

    def compute(self):
        return {name: total / self.count for name, total in self.totals.items()}

    def reset(self):
        self.totals, self.count = {}, 0
