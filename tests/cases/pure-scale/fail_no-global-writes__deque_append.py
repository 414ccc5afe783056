from collections import deque

recent = deque(maxlen=10)


def scaled(x, scale):
    recent.append(scale)
    return x * scale
