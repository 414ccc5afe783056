"""Fault: SIGSTOP to every process above the worker (the reaper, the `check` process), found by
walking getppid() through /proc; then a wrong answer. Before issue 40 the tutor stayed stopped."""

import os
import signal


def tutors():
    """The processes above this one (the reaper, then the tutor), read from /proc: up to, not
    including, the test that ran the tutor (FAULT_SPARE_PID) or init."""
    spare = int(os.environ.get("FAULT_SPARE_PID", "1"))
    found, pid = [], os.getppid()
    while pid > 1 and pid != spare:
        found.append(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except PermissionError:
            print("hidden:", f"/proc/{pid}/stat", flush=True)  # out of sight (issue 50): the reaper is the one known
            break
        pid = int(stat[stat.rindex(b")") + 2 :].split()[1])
    return found


def attempt(what, fn):
    try:
        fn()
        print("sent:", what, flush=True)
    except OSError as exc:
        print("refused:", what, exc, flush=True)


for pid in tutors():
    attempt(f"os.kill({pid}, SIGSTOP)", lambda: os.kill(pid, signal.SIGSTOP))


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
