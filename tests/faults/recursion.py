"""Fault: unbounded Python recursion (Python stops it with RecursionError)."""


def update_counter(count, increment):
    return update_counter(count + 1, increment)
