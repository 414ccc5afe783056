# says: it multiplied by the module-level `scale` (2.0), not the `scale` argument
scale = 2.0


def scaled(x, factor):
    return x * scale  # meant the parameter, but it is called `factor`
