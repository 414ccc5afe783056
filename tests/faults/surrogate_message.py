"""Fault: an exception whose message holds a lone surrogate, as os.fsdecode makes of a file name that
is not UTF-8 (b"data-\\xff.npy")."""
import os

NAME = os.fsdecode(b"data-\xff.npy")


def update_counter(count, increment):
    raise ValueError(f"cannot read {NAME}: no such file")
