"""A step made by a factory closes over a config object; the config's scale is changed half-way
through, and the compiled step keeps multiplying by the old one."""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Config:
    scale: float = 1.0
    steps: int = 10


def make_step(cfg):
    @jax.jit
    def step(w):
        return w * cfg.scale + 1.0

    return step


cfg = Config()
step = make_step(cfg)
w = jnp.zeros(3)
for i in range(cfg.steps):
    if i == 5:
        cfg.scale = 0.5  # finding: side-effect
    w = step(w)
print(w)
