# Correct: a ContextVar holds a setting the function reads; nothing sets it during a call.
from contextvars import ContextVar

STEP_SIZE = ContextVar("step_size", default=1)


def update_counter(count, increment):
    return count + STEP_SIZE.get(), increment
