"""Fault: SIGKILL and SIGSTOP to every process above the worker past the audit hook: through
C (ctypes' kill), a `kill` program in a subprocess and a pidfd; then a wrong answer. Only the
kernel can refuse these (Landlock's signal scope, Linux 6.12+)."""

import ctypes
import os
import signal
import subprocess


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


libc = ctypes.CDLL(None, use_errno=True)


def by_c(pid, sig):
    if libc.kill(pid, sig) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def by_program(pid):
    done = subprocess.run(["kill", "-STOP", str(pid)], capture_output=True, text=True)
    if done.returncode:
        raise OSError(done.stderr.strip())


def by_pidfd(pid):
    signal.pidfd_send_signal(os.pidfd_open(pid), signal.SIGSTOP)


for pid in tutors():
    attempt(f"kill({pid}, SIGSTOP) through the pidfd", lambda: by_pidfd(pid))
    attempt(f"kill -STOP {pid} in a subprocess", lambda: by_program(pid))
    attempt(f"libc kill({pid}, SIGKILL) through ctypes", lambda: by_c(pid, signal.SIGKILL))


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
