"""Fault: a child in a session of its own, then the worker itself exits at once (the child is orphaned
before the tutor can kill anything)."""
import os
import subprocess

subprocess.Popen(["faultmark-orphan-exit", "1000"], executable="sleep", start_new_session=True)
os._exit(0)
