# drill: 5 trace-time-python
history = []


def scaled(x, scale):
    history.append(scale)
    return x * scale
