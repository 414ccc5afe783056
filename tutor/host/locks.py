"""File locks: flock, and who holds one.

Part of tutor.host (what differs between hosts): import it as `from tutor import host`."""

from __future__ import annotations

import os

from tutor.host.kernel import _fcntl


def try_lock(fd: int) -> bool:
    """Take an exclusive lock on fd's file without waiting (the kernel drops it when every holder
    has exited); False if another process holds it. Where the host has no such locks (no fcntl),
    True: locking is off (see guards_off)."""
    if _fcntl is not None:
        try:
            _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError:  # a file system without flock (some network mounts): locking is off there
            return True
        return True
    try:
        import msvcrt  # Windows: a byte-range lock on the first byte

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
    except ImportError:
        return True
    except OSError:
        return False
    return True


def lock_holder(fd: int) -> str | None:
    """ "1234 (jaxstate-tutor watch)": who holds the flock on fd's file, from /proc/locks (Linux); else None."""
    try:
        inode = os.fstat(fd).st_ino
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (a waiter's line starts with "->")
        if "->" in fields or len(fields) < 6 or fields[1] != "FLOCK" or not fields[5].endswith(f":{inode}"):
            continue
        pid = fields[4]
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
        except OSError:
            return pid
        shown = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv[:4]))
        return f"{pid} ({shown})" if shown else pid
    return None
