"""Fault: SIGTSTP (a Ctrl+Z from no terminal) to the process group of every process above the
worker, by os.killpg; then a wrong answer."""

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
    attempt(f"os.killpg(group of {pid}, SIGTSTP)", lambda: os.killpg(os.getpgid(pid), signal.SIGTSTP))


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
