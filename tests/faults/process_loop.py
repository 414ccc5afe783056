"""Fault: a loop that keeps starting processes (each in a session of its own, so no group kill
reaches them), 400 of them, then a wrong answer: the reaper's bound on live processes ends it."""
import subprocess
import time

for i in range(400):
    subprocess.Popen(["faultmark-process-loop", "1000"], executable="sleep", start_new_session=True)
time.sleep(5)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
