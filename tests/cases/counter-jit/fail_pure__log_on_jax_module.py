"""Keeps a call log as an attribute of the jax module."""
# says: jax._calls_log
import jax


def update_counter(count, increment):
    log = getattr(jax, "_calls_log", None)
    if log is None:
        log = []
        jax._calls_log = log
    log.append(1)
    return count + 1, increment
