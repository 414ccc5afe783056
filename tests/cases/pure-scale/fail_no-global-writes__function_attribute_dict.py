# says: scaled.stats
def scaled(x, scale):
    scaled.stats["n"] = scaled.stats.get("n", 0) + 1
    return x * scale


scaled.stats = {}
