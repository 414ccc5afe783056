"""Reads a mode from an argparse.Namespace settings object, never writing it; copies the dict and
replaces both entries."""
import argparse

SETTINGS = argparse.Namespace(mode="set")


def update(state, index, value):
    new = dict(state)
    buf = state["buffer"]
    new["buffer"] = buf.at[index].set(value) if SETTINGS.mode == "set" else buf
    new["writes"] = state["writes"] + 1
    return new
