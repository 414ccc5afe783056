"""Fault: KeyboardInterrupt raised by the learner's function."""


def update_counter(count, increment):
    raise KeyboardInterrupt
