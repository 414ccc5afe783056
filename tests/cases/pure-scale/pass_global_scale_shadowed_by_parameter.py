scale = 2.0  # a global of the same name is harmless: the parameter shadows it


def scaled(x, scale):
    return x * scale
