"""A SimpleNamespace (not a module) stored in sys.modules counts calls."""
# says: sys.modules['scale_counter'].calls
import sys
import types

sys.modules["scale_counter"] = types.SimpleNamespace(calls=0)


def scaled(x, scale):
    sys.modules["scale_counter"].calls += 1
    return x * scale
