"""Counts the calls on an argparse.Namespace used as a settings object (an instance of a class from
another module)."""
import argparse

SETTINGS = argparse.Namespace(calls=0, verbose=False)


def update(state, index, value):
    SETTINGS.calls += 1
    return {"buffer": state["buffer"].at[index].set(value), "writes": state["writes"] + 1}
