"""Remembers the last scale as an attribute of the functools module."""
# says: functools.last_scale
import functools


def scaled(x, scale):
    functools.last_scale = scale
    return x * scale
