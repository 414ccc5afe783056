# says: CALLS.get()
# Wrong: a ContextVar counts the calls; the count itself still comes in and goes out correctly.
from contextvars import ContextVar

CALLS = ContextVar("calls", default=0)


def update_counter(count, increment):
    CALLS.set(CALLS.get() + 1)
    return count + 1, increment
