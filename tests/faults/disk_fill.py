"""Fault: 1.3 GiB written into the run folder, every file under the 1 GiB per-file limit, and
600 MiB of it in a file deleted while still open (so no listing of the folder sees it); then a
wrong answer. The reaper's bound on the run's disk use ends it."""
import os
import tempfile
import time

block = b"x" * 2**22  # 4 MiB


def fill(f, mib):
    for _ in range(mib // 4):
        f.write(block)
    f.flush()


with open("visible.bin", "wb") as seen:
    fill(seen, 700)
hidden = tempfile.TemporaryFile()  # unlinked at once, held open
fill(hidden, 600)
time.sleep(5)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
