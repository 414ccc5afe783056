"""Draws from Python's random.Random on every call (to "jitter" nothing): the generator's state moves."""
# says: RNG

import random

RNG = random.Random(0)


def scaled(x, scale):
    RNG.random()
    return x * scale
