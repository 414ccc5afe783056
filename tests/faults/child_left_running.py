"""Fault: a child process and a forked copy of the worker left running, then a wrong answer."""
import os
import subprocess
import time

child = subprocess.Popen(["faultmark-child-left-running", "1000"], executable="sleep")

if os.fork() == 0:  # the forked copy holds every pipe the worker holds
    time.sleep(1000)
    os._exit(0)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
