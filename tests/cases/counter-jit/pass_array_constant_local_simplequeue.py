"""An array.array of constants read at each call and a queue made fresh per call: pure."""

import array
import queue

STEP = array.array("i", [1])


def update_counter(count, increment):
    pending = queue.SimpleQueue()
    pending.put(increment)
    return count + STEP[0], pending.get()
