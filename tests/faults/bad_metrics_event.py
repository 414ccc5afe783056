"""Fault: a malformed `metrics` event on the tutor's event pipe (a value that is not a number),
as a bug in a check or the worker could send it. The run must end with a named outcome."""
from tutor.child import channel

channel.emit({"type": "metrics", "points": [["loss", 0, "not a number"]]})


def update_counter(count, increment):
    return count + 1, increment
