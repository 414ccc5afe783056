def scaled(x, scale=None):
    if scale is None:
        raise TypeError("scale is required")
    return x * scale
