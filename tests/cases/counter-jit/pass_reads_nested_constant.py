CONFIG = {"counter": {"step": 1}}


def update_counter(count, increment):
    return count + CONFIG["counter"]["step"], increment
