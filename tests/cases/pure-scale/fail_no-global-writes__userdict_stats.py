"""Call statistics in a collections.UserDict (not a dict subclass)."""

# says: STATS
from collections import UserDict

STATS = UserDict(calls=0)


def scaled(x, scale):
    STATS["calls"] += 1
    return x * scale
