"""Fault: sys.exit(0) at import."""
import sys


def update_counter(count, increment):
    return count + 1, increment


sys.exit(0)
