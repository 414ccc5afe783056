"""Replacing a file all at once, durably, and reading one without blocking: how progress.json and
the learner's files are written and read.

A reader (another tutor, an editor) sees the old file or the new one, never half of either:
the bytes go to a temporary file beside the target and reach the disk before the rename, and
the folder is synced after it so that the rename survives a crash too.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import suppress
from pathlib import Path

from tutor.files.private import FILE_MODE, own_mode


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable; some filesystems cannot fsync a folder, which is harmless."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def replace_atomically(target: Path, data: bytes, tmp: Path, mode: int = FILE_MODE, durable: bool = True) -> None:
    """Write `data` to `tmp`, fsync it, rename it over `target`, fsync the folder. Raises OSError,
    and then `target` is untouched and `tmp` is gone (a leftover of a killed writer is replaced).
    The new file has exactly `mode` (private unless said), whatever the umask. `durable=False`:
    no fsync (a note that means nothing after a crash; each fsync can take 100 ms on a busy disk)."""
    try:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            own_mode(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)  # the bytes are on disk before the name points at them
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except OSError:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        fsync_dir(target.parent)


class NotARegularFile(OSError):
    """A path in the home that is a FIFO, a device or a folder: never opened for reading."""


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, without ever blocking: a FIFO with
    no writer would hang open() and read(), /dev/zero never ends. Raises FileNotFoundError,
    NotARegularFile (strerror names what the path is), or OSError (too large, unreadable)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = (
                "a pipe (FIFO)"
                if stat.S_ISFIFO(st.st_mode)
                else "a folder"
                if stat.S_ISDIR(st.st_mode)
                else "a device"
                if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else "a special file"
            )
            raise NotARegularFile(errno.EINVAL, f"{kind}, not a regular file", str(path))
        if st.st_size > limit:
            raise OSError(errno.EFBIG, f"{st.st_size} bytes, more than the {limit} allowed", str(path))
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise OSError(errno.EFBIG, f"more than the {limit} bytes allowed", str(path))
        return b"".join(chunks)
    finally:
        os.close(fd)
