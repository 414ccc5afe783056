"""Fault: a loop that keeps starting processes (each in a session of its own, so no group kill
reaches them), 400 of them, then a wrong answer: the reaper's bound on live processes ends it."""
import subprocess
import time

for i in range(400):
    try:
        subprocess.Popen(["faultmark-process-loop", "1000"], executable="sleep", start_new_session=True)
    except PermissionError:  # leaving the group is refused (tutor.child.seccomp_policy): in it, then
        subprocess.Popen(["faultmark-process-loop", "1000"], executable="sleep")
time.sleep(5)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
