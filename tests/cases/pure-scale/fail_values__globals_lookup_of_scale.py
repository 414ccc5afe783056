# says: the module-level `scale`
scale = 2.0


def scaled(x, scale):
    return x * globals()["scale"]
