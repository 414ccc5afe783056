from types import SimpleNamespace

settings = SimpleNamespace(scale=2.0)


def scaled(x, scale):
    settings.scale = scale
    return x * settings.scale
