SCALE = 2.0


def scaled(x, scale):
    return x * SCALE
