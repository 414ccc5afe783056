"""A GRU over a sequence: an eqx.nn.GRUCell stepped by jax.lax.scan, a linear readout of the
last hidden state. Training adds Gaussian noise to the inputs, one key per time step."""
import equinox as eqx
import jax
import jax.numpy as jnp


class GRURegressor(eqx.Module):
    cell: eqx.nn.GRUCell
    head: eqx.nn.Linear

    def __init__(self, in_size, hidden_size, *, key):
        cell_key, head_key = jax.random.split(key)
        self.cell = eqx.nn.GRUCell(in_size, hidden_size, key=cell_key)
        self.head = eqx.nn.Linear(hidden_size, 1, key=head_key)

    def __call__(self, xs, key, noise=0.0):
        """xs: (time, features) -> a scalar prediction."""
        step_keys = jax.random.split(key, xs.shape[0])

        def step(h, inputs):
            x, k = inputs
            x = x + noise * jax.random.normal(k, x.shape)
            return self.cell(x, h), None

        h0 = jnp.zeros(self.cell.hidden_size)
        h, _ = jax.lax.scan(step, h0, (xs, step_keys))
        return self.head(h)[0]
