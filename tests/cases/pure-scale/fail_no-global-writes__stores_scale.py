SCALE = 2.0


def scaled(x, scale):
    global SCALE
    SCALE = scale
    return x * SCALE
