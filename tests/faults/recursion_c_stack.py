"""Fault: recursion limit lifted, recursing through C code until the C stack overflows."""
import sys

sys.setrecursionlimit(10**8)


def deeper(n):
    return list(map(deeper, [n + 1]))  # every level passes through C (map, list)


def update_counter(count, increment):
    deeper(0)
    return count + 1, increment
