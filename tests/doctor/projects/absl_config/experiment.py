"""An experiment config and a small convolutional denoiser, kept apart from the app."""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Config:
    learning_rate: float = 0.02
    decay: float = 0.995
    width: int = 8
    steps: int = 100
    noise: float = 0.3


def init_params(key, width):
    k1, k2 = jax.random.split(key)
    return {
        "conv1": 0.3 * jax.random.normal(k1, (5, 1, width)),
        "conv2": 0.3 * jax.random.normal(k2, (5, width, 1)),
    }


def conv(x, w):
    return jax.lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"))


def denoise(params, x):
    return conv(jax.nn.gelu(conv(x[..., None], params["conv1"])), params["conv2"])[..., 0]


def signals(key, n, length=64):
    kf, kp = jax.random.split(key)
    t = jnp.linspace(0.0, 1.0, length)
    freq = jax.random.uniform(kf, (n, 1), minval=1.0, maxval=4.0)
    phase = jax.random.uniform(kp, (n, 1), maxval=6.28)
    return jnp.sin(6.28 * freq * t + phase)
