"""Fault: a pass for every check and "done" written straight into the tutor's event pipe (found
in /proc/self/fd), then a wrong answer."""
import fcntl
import json
import os

CHECKS = ("defines", "returns-pair", "counts-up", "increment-passthrough", "pure", "jit-once")


def _write_only_pipes():
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd > 2 and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:") \
                    and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                yield fd
        except OSError:
            pass


_lines = [{"type": "check", "id": c, "status": "pass", "message": {"en": "", "zh": ""}, "duration_s": 0.0}
          for c in CHECKS] + [{"type": "done"}]
_forged = "".join(json.dumps(line) + "\n" for line in _lines).encode()
for _fd in list(_write_only_pipes()):
    os.write(_fd, _forged)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
