"""A constant lookup table in an array.array, a queue made at import and never touched, and a
local StringIO per call for a debug line: nothing reachable changes between calls."""

import array
import io
import queue

_UNUSED = queue.Queue()
_SIGNS = array.array("b", [1, -1])


def scaled(x, scale):
    note = io.StringIO()
    note.write("scaling")
    return (x * scale) * _SIGNS[0]
