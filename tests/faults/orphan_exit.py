"""Fault: a child in a session of its own, then the worker itself exits at once (the child is orphaned
before the tutor can kill anything)."""
import os
import subprocess

try:
    subprocess.Popen(["faultmark-orphan-exit", "1000"], executable="sleep", start_new_session=True)
except PermissionError:  # leaving the group is refused (tutor.child.seccomp_policy): in it, then
    subprocess.Popen(["faultmark-orphan-exit", "1000"], executable="sleep")
os._exit(0)
