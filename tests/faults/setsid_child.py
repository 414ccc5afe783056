"""Fault: children that leave the worker's process group (a new session, a new group, a double
fork whose grandchild is orphaned), then a wrong answer. Where leaving the group is refused
(tutor.child.seccomp_policy: EPERM), each is started in it instead, and says so on stdout."""
import os
import subprocess

for n, how in ((1000, {"start_new_session": True}), (1001, {"process_group": 0})):
    try:
        subprocess.Popen(["faultmark-setsid-child", str(n)], executable="sleep", **how)
        print(f"left the group: {how}")
    except PermissionError:
        print(f"refused: {how}")
        subprocess.Popen(["faultmark-setsid-child", str(n)], executable="sleep")

if os.fork() == 0:  # double fork: the grandchild's parent exits at once
    try:
        os.setsid()
    except PermissionError:
        pass
    if os.fork() == 0:
        os.execv("/bin/sleep", ["faultmark-setsid-child", "1002"])
    os._exit(0)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
