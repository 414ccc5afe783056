"""Fault: fork_bomb_bounded with every child in a session of its own first (os.setsid: no group
kill reaches them, as in fork_bomb_setsid), bounded the same way: every process forks again and retries a refused fork,
but no more than TOTAL processes are ever made (one byte each in a shared
append-only file, and at most 2**DEPTH however the count races), and each lives LIFETIME_S at most.
Held: error / processes. Not held: a timeout (the run's limit is below LIFETIME_S), or at worst
fail / checks after it; the wrong answer comes once the bomb is over."""

import os
import tempfile
import time

TOTAL = int(os.environ.get("FAULT_BOMB_TOTAL", "600"))  # processes ever made, the worker included
# forks per line of descent: 2**DEPTH processes at most whatever the count says, enough for TOTAL
# (with 10 a bomb of 2,000 made at most 1,024)
DEPTH = max(10, (TOTAL - 1).bit_length())
LIFETIME_S = 45.0

end = time.monotonic() + LIFETIME_S  # one clock for all: the monotonic clock survives fork
root = os.getpid()
folder = tempfile.mkdtemp()  # the run's TMPDIR
count_path = os.path.join(folder, "made")
count = os.open(count_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o600)
os.unlink(count_path)
os.rmdir(folder)
os.write(count, b"x")
depth = 0
while depth < DEPTH and time.monotonic() < end and os.fstat(count).st_size < TOTAL:
    try:
        child = os.fork()
    except OSError:  # refused (a cap on tasks): try again, as a real bomb would
        time.sleep(0.01)
        continue
    depth += 1
    if child == 0:
        os.write(count, b"x")
        try:
            os.setsid()
        except OSError:
            pass
while time.monotonic() < end:  # every process stays: what is alive is what the guard must end
    time.sleep(min(1.0, max(end - time.monotonic(), 0)))
if os.getpid() != root:
    os._exit(0)
os.close(count)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
