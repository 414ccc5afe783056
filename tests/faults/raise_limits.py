"""Fault: learner code raises the worker's limits back up (soft to hard, and hard to unlimited), then
a wrong answer. Prints the limit it ended up with."""
import resource

for which in (resource.RLIMIT_DATA,):
    soft, hard = resource.getrlimit(which)
    for wanted in ((hard, hard), (resource.RLIM_INFINITY, resource.RLIM_INFINITY)):
        try:
            resource.setrlimit(which, wanted)
        except (ValueError, OSError):
            pass
print("data limit:", resource.getrlimit(resource.RLIMIT_DATA))


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
