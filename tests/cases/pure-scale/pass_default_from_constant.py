DEFAULT_SCALE = 2.0


def scaled(x, scale=DEFAULT_SCALE):
    return scale * x
