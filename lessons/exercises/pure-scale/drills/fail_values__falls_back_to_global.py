# drill: 5 frozen-globals
SCALE = 2.0


def scaled(x, scale=None):
    return x * (scale or SCALE)
