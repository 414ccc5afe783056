"""Appends one line per call to a file under /tmp."""
# says: counter_calls.log
import os
import tempfile

_LOG = os.path.join(tempfile.gettempdir(), "counter_calls.log")


def update_counter(count, increment):
    with open(_LOG, "a") as f:
        f.write("call\n")
    return count + 1, increment
