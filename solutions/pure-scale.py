"""Reference solution: pure-scale."""


def scaled(x, scale):
    """x multiplied by scale; everything the function uses is an argument."""
    return x * scale
