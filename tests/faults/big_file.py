"""Fault: a file far bigger than any exercise needs (sparse: 2 GiB offset, one byte), and a new file
in /dev/shm (memory the memory limit does not count); then a wrong answer. Prints what happened."""
import os

for what, path, offset in (("big file", "big.bin", 2**31), ("shm file", "/dev/shm/faultmark-big-file", 0)):
    try:
        with open(path, "wb") as f:
            f.seek(offset)
            f.write(b"x")
        print(what, "written")
    except OSError as exc:
        print(what, "refused:", exc.strerror)
    finally:
        if path.startswith("/dev/shm") and os.path.exists(path):
            os.remove(path)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
