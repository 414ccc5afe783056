"""A module made at import, given a spec, kept in sys.modules, counts calls."""
# says: sys.modules['scale_stats'].calls
import importlib.machinery
import sys
import types

_mod = types.ModuleType("scale_stats")
_mod.__spec__ = importlib.machinery.ModuleSpec("scale_stats", None)
_mod.calls = 0
sys.modules["scale_stats"] = _mod


def scaled(x, scale):
    sys.modules["scale_stats"].calls += 1
    return x * scale
