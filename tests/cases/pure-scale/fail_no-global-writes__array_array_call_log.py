"""Every call appends its scale to a module-level array.array: a call log in a C buffer."""

# says: _SCALES
import array

_SCALES = array.array("d")


def scaled(x, scale):
    _SCALES.append(float(scale) if isinstance(scale, (int, float)) else 0.0)
    return x * scale
