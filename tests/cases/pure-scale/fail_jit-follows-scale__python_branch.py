def scaled(x, scale):
    if scale == 1.0:  # Python `if` on a traced value
        return x
    return x * scale
