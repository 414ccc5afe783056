"""Fault: a segmentation fault in native code."""
import ctypes


def update_counter(count, increment):
    ctypes.string_at(0)
    return count + 1, increment
