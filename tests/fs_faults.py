"""Real filesystem faults for tests: a tiny tmpfs that fills up (ENOSPC) and a read-only mount.

Mounting needs root (or CAP_SYS_ADMIN); where that is missing the test is skipped, never faked.
Running as root also ignores permission bits, so chmod cannot make a home read-only: a
read-only mount can.
"""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest


def _mount(*args: str) -> None:
    proc = subprocess.run(["mount", *args], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount here ({proc.stderr.strip() or proc.returncode}); needs root")


@contextmanager
def tmpfs(where: Path, size_kb: int = 64):
    """A tmpfs of `size_kb` mounted at `where` (created), unmounted afterwards."""
    where.mkdir(parents=True, exist_ok=True)
    _mount("-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755", "tmpfs", str(where))
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def fill(folder: Path) -> None:
    """Write until the filesystem is full (a real ENOSPC), leaving the filler file in place."""
    fd = os.open(folder / ".filler", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    with suppress(OSError):  # tmpfs also counts inodes and small tail blocks
        for i in range(1000):
            (folder / f".filler{i}").write_bytes(b"\0" * 64)


@contextmanager
def read_only(where: Path):
    """`where` (a filled folder) turned read-only by a read-only bind mount over it."""
    _mount("--bind", str(where), str(where))
    try:
        _mount("-o", "remount,bind,ro", str(where))
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)
