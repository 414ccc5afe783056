history = []


def scaled(x, scale):
    history.append(scale)
    return x * scale
