# says: scaled's default _seen
def scaled(x, scale, _seen=[]):
    _seen.append(scale)
    return x * scale
