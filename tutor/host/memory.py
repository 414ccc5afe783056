"""Memory: what a process and a tree hold, and the deleted files they keep.

Part of tutor.host (what differs between hosts): import it as `from tutor import host`."""

from __future__ import annotations

import os

from tutor.host.kernel import PROC, _fcntl
from tutor.host.tree import _status

_ROLLUP_FIELDS = (b"Pss_Anon:", b"Pss_Shmem:", b"SwapPss:")


def _kb(fields: dict[bytes, bytes], name: bytes) -> int | None:
    value = fields.get(name)
    if value is None:
        return None
    try:
        return int(value.split()[0]) * 1024
    except (ValueError, IndexError):
        return None


def memory_of(pid: int) -> int | None:
    """Bytes of memory process `pid` holds; None if the host offers no way to read it.

    Best first: smaps_rollup's proportional anonymous + shared + swap (a page shared by a tree is
    counted once overall); else status's RssAnon + RssShmem + VmSwap (a shared page counts in each
    process); else VmRSS (gVisor: files mapped count too, a little more than is held)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    if lines:
        fields = {line.split()[0]: int(line.split()[1]) for line in lines[1:] if len(line.split()) >= 2}
        if b"Pss_Anon:" in fields:
            return sum(fields.get(name, 0) for name in _ROLLUP_FIELDS) * 1024
        return (fields.get(b"Pss:", 0) + fields.get(b"SwapPss:", 0)) * 1024  # before Linux 5.9
    status = _status(pid)
    if status.get(b"State", b"")[:1] in (b"Z", b"X"):
        return 0  # exited, not yet reaped: holds nothing
    anon = _kb(status, b"RssAnon")
    if anon is not None:
        return anon + (_kb(status, b"RssShmem") or 0) + (_kb(status, b"VmSwap") or 0)
    return _kb(status, b"VmRSS")


def memory_of_tree(pids: list[int]) -> int | None:
    """Bytes the processes `pids` hold together; None if not one that is still there could be
    measured (a process that ended meanwhile holds nothing)."""
    total, unmeasured = 0, 0
    for pid in pids:
        used = memory_of(pid)
        if used is not None:
            total += used
        elif not PROC or os.path.exists(f"/proc/{pid}"):
            unmeasured += 1
    return None if unmeasured and not total else total


def deleted_files_held(pids: list[int]) -> list[os.stat_result]:
    """The stat of every file that `pids` hold open and that has been removed (it still takes disk)."""
    found = []
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}").endswith(" (deleted)"):
                    found.append(os.stat(f"/proc/{pid}/fd/{fd}"))
            except OSError:
                continue
    return found


def path_of_fd(fd: int) -> str | None:
    """The path an open descriptor of this process refers to; None where the host cannot tell."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        pass
    if _fcntl is not None and hasattr(_fcntl, "F_GETPATH"):  # macOS
        try:
            return os.fsdecode(_fcntl.fcntl(fd, _fcntl.F_GETPATH, bytes(1024)).rstrip(b"\0"))
        except OSError:
            return None
    return None
