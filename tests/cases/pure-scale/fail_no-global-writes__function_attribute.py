def scaled(x, scale):
    scaled.last_scale = scale  # remembers the scale "for later"
    return x * scale
