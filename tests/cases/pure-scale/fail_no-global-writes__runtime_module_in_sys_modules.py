# says: sys.modules['scale_registry']
# Wrong: a module made at run time and registered in sys.modules keeps the last scale seen.
import sys
import types

import jax.numpy as jnp


def _registry():
    if "scale_registry" not in sys.modules:
        sys.modules["scale_registry"] = types.ModuleType("scale_registry")
    return sys.modules["scale_registry"]


def scaled(x, scale):
    _registry().last = scale
    return jnp.asarray(x) * scale
