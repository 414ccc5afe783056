"""A generator and an iterator at module level that the function never advances: not state it changes."""

import itertools

STEPS = itertools.count(1)
DEMO = (n * n for n in range(3))


def update_counter(count, increment):
    return count + 1, increment
