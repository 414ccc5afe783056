"""Fault: endless garbage (no newline, not JSON) written into the tutor's event pipe."""
import fcntl
import os


def _event_pipes():
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd > 2 and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:") \
                    and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                yield fd
        except OSError:
            pass


def update_counter(count, increment):
    chunk = b"x" * 2**20
    for fd in list(_event_pipes()):
        for _ in range(100):  # 100 MB; the tutor stops reading long before
            os.write(fd, chunk)
    return count, increment
