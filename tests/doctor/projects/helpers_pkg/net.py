"""The model: an MLP classifier as a dict of arrays, and its loss (optax's cross-entropy)."""
import jax
import jax.numpy as jnp
import optax


def init_mlp(key, sizes):
    params = {}
    keys = jax.random.split(key, len(sizes) - 1)
    for i, (k, n_in, n_out) in enumerate(zip(keys, sizes[:-1], sizes[1:])):
        params[f"dense_{i}"] = {
            "kernel": jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "bias": jnp.zeros(n_out),
        }
    return params


def forward(params, x):
    n = len(params)
    for i in range(n):
        layer = params[f"dense_{i}"]
        x = x @ layer["kernel"] + layer["bias"]
        if i < n - 1:
            x = jax.nn.gelu(x)
    return x


def loss_fn(params, x, labels):
    logits = forward(params, x)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
    return loss, logits
