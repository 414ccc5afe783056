"""Fault: an endless Python loop inside the function the checks call."""


def update_counter(count, increment):
    n = 0
    while True:
        n += 1
