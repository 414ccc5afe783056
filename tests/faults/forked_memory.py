"""Fault: two forked children holding 2.5 GiB each, each under the per-process limit of 4 GiB but
5 GiB together; then a wrong answer. The reaper's bound on the memory of the whole tree ends it."""
import os
import time

for _ in range(2):
    if os.fork() == 0:
        block = bytearray(5 * 2**29)
        for i in range(0, len(block), 4096):
            block[i] = 1
        time.sleep(30)
        os._exit(0)
time.sleep(20)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
