"""Fault: temporary files and folders made by learner code, never cleaned up; then a wrong answer.
They must land in the run's own folder (its TMPDIR) and go with it."""
import tempfile

made = [tempfile.mkdtemp(prefix="faultmark-temp-"), tempfile.mkstemp(prefix="faultmark-temp-")[1]]
print("made:", made)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
