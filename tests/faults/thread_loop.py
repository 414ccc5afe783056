"""Fault: 3000 threads with small stacks (so the per-process memory limit does not stop them),
each sleeping; then a wrong answer. The reaper's bound on threads in the tree ends it."""
import threading
import time

threading.stack_size(64 * 1024)
for _ in range(3000):
    threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()
time.sleep(5)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
