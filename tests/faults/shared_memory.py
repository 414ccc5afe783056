"""Fault: 5 GiB of anonymous shared memory (Python's mmap.mmap(-1, n) is MAP_SHARED), which the
per-process data limit does not count, really touched; then a wrong answer. The reaper's bound on
the memory of the whole tree ends it."""
import mmap

size = 5 * 2**30
m = mmap.mmap(-1, size)
for i in range(0, size, 4096):
    m[i] = 1
print("touched 5 GiB")


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
