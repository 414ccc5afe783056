"""Logs each call on a queue.SimpleQueue, a C type with no attributes to look into."""

# says: CALL_LOG
import queue

CALL_LOG = queue.SimpleQueue()


def update_counter(count, increment):
    CALL_LOG.put(1)
    return count + 1, increment
