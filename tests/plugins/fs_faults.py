"""Real filesystem faults: a tiny tmpfs, a full disk, a read-only folder."""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


# A tiny tmpfs that fills up (ENOSPC) and a read-only mount. Mounting needs root (or
# CAP_SYS_ADMIN); where that is missing the test is skipped, never faked. Running as root also
# ignores permission bits, so chmod cannot make a home read-only: a read-only mount can.


def _mount(*args: str) -> None:
    proc = subprocess.run(["mount", *args], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount here ({proc.stderr.strip() or proc.returncode}); needs root")


@contextmanager
def _tmpfs(where: Path, size_kb: int = 64, inodes: int | None = None):
    where.mkdir(parents=True, exist_ok=True)
    # A tmpfs counts inodes apart from bytes: a folder or an empty file needs only an inode.
    limit = f",nr_inodes={inodes}" if inodes else ""
    _mount("-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755{limit}", "tmpfs", str(where))
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def _fill(folder: Path) -> None:
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
def _read_only(where: Path):
    _mount("--bind", str(where), str(where))
    try:
        _mount("-o", "remount,bind,ro", str(where))
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


@pytest.fixture(scope="session")
def tmpfs():
    """with tmpfs(where, size_kb=64, inodes=None) as where: a tmpfs of size_kb (and at most
    `inodes` files and folders) mounted at `where` (created)."""
    return _tmpfs


@pytest.fixture(scope="session")
def fill():
    """fill(folder): write until its filesystem is full (a real ENOSPC), leaving the filler files."""
    return _fill


@pytest.fixture(scope="session")
def read_only():
    """with read_only(where): `where` (a filled folder) turned read-only by a read-only bind mount."""
    return _read_only
