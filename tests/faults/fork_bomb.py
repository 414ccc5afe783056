"""Fault: an exponential fork bomb (every process forks again, without end, and tries again
when a fork is refused); then a wrong answer. The bound on live processes ends it as error /
processes within the run's limit, not at the deadline as a timeout (before: 357-387 processes
against the bound of 100, and a timeout 32-74 s after a 30 s limit)."""
import os
import time

while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
