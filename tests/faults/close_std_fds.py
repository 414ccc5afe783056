"""Fault: closing the process's stdout and stderr, then a wrong answer."""
import os

os.close(1)
os.close(2)


def update_counter(count, increment):
    print("count is", count)  # stdout is gone: the tutor must still judge
    return count, increment  # wrong: never counts up
