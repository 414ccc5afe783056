"""Fault: children that leave the worker's process group (a new session, a new group, a double
fork whose grandchild is orphaned), then a wrong answer."""
import os
import subprocess

subprocess.Popen(["faultmark-setsid-child", "1000"], executable="sleep", start_new_session=True)
subprocess.Popen(["faultmark-setsid-child", "1001"], executable="sleep", process_group=0)

if os.fork() == 0:  # double fork: the grandchild's parent exits at once
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["faultmark-setsid-child", "1002"])
    os._exit(0)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
