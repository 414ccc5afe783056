"""Fault: a child in a session of its own, then the process above the worker (the reaper, which
holds the limits and ends every descendant) killed with SIGKILL; then a wrong answer. The child
must not outlive the run, and the run must not read as the program's own exit."""
import os
import signal
import subprocess
import time

subprocess.Popen(["faultmark-kill-reaper", "1000"], executable="sleep", start_new_session=True)
os.kill(os.getppid(), signal.SIGKILL)
time.sleep(5)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
