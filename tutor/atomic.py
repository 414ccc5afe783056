"""Replacing a file all at once, durably: how progress.json and the learner's files are written.

A reader (another tutor, an editor) sees the old file or the new one, never half of either:
the bytes go to a temporary file beside the target and reach the disk before the rename, and
the folder is synced after it so that the rename survives a crash too.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable; some filesystems cannot fsync a folder, which is harmless."""
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def replace_atomically(target: Path, data: bytes, tmp: Path, mode: int = 0o644) -> None:
    """Write `data` to `tmp`, fsync it, rename it over `target`, fsync the folder. Raises OSError,
    and then `target` is untouched and `tmp` is gone (a leftover of a killed writer is replaced)."""
    try:
        with suppress(FileNotFoundError):
            os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)  # the bytes are on disk before the name points at them
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except OSError:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(target.parent)
