"""Fault: an exception with a 20 MB message."""


def update_counter(count, increment):
    raise ValueError("too big: " + "x" * 20_000_000)
