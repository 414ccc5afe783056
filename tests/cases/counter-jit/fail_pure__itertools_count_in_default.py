"""A counter hidden in a default argument that is a C iterator, not a container."""
# says: update_counter's default _seen

import itertools


def update_counter(count, increment, _seen=itertools.count()):
    next(_seen)
    return count + 1, increment
