# says: REGISTRY['scaled']['scales']
REGISTRY = {"scaled": {"calls": 0, "scales": []}}


def scaled(x, scale):
    REGISTRY["scaled"]["scales"].append(scale)
    return x * scale
