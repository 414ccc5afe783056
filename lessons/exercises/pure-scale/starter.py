SCALE = 2.0


def scaled(x, scale):
    """Return x multiplied by scale."""
    # TODO: this reads the global SCALE and ignores the `scale` argument.
    return x * SCALE
