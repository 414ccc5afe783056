"""Fault: each call of the learner's function turns the checks' close / expect / expect_traces into
no-ops while the check runs (the originals used to be put back only between checks), then a wrong answer."""
import sys


def _nothing(*args, **kwargs):
    return None


def update_counter(count, increment):
    for name in ("exercise_checks", "tutor.child.library", "tutor.child.library.values",
                 "tutor.child.library.failures", "tutor.child.library.tracing"):
        module = sys.modules.get(name)
        for attr in ("close", "expect", "expect_traces"):
            if module is not None and hasattr(module, attr):
                setattr(module, attr, _nothing)
    return count, increment  # wrong: never counts up
