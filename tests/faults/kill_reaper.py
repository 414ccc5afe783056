"""Fault: a child in a session of its own, then the process above the worker (the reaper, which
holds the limits and ends every descendant) killed with SIGKILL through C, past the audit hook's
refusal of os.kill; then a wrong answer. Where Landlock scopes signals (Linux 6.12+) the kernel
refuses the kill and the program fails its checks; where there is no Landlock at all, ctypes is
refused; elsewhere the reaper dies: the child must not outlive the run, and the run must not read
as the program's own exit."""

import ctypes
import os
import signal
import subprocess
import time

try:
    subprocess.Popen(["faultmark-kill-reaper", "1000"], executable="sleep", start_new_session=True)
except PermissionError:  # leaving the group is refused (tutor.child.seccomp_policy): in it, then
    subprocess.Popen(["faultmark-kill-reaper", "1000"], executable="sleep")
if ctypes.CDLL(None, use_errno=True).kill(os.getppid(), signal.SIGKILL) == 0:
    time.sleep(5)  # what the reaper's death brings comes meanwhile


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
