"""Fault: a signal to every process the user may signal (kill(-1, ...)); then a wrong answer.
SIGCONT, so that a tutor without the guard is not harmed (as root, SIGTERM here would end every
process on the machine); the guard refuses it whatever the signal."""

import os
import signal


def attempt(what, fn):
    try:
        fn()
        print("sent:", what, flush=True)
    except OSError as exc:
        print("refused:", what, exc, flush=True)


attempt("os.kill(-1, SIGCONT)", lambda: os.kill(-1, signal.SIGCONT))


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
