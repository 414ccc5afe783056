"""Each worker's run folder in the system's temporary directory, and the sweep of folders whose
worker is gone.

A run folder is removed by its run, or by the worker's lifeline when the tutor dies. When both
die at once (SIGKILL of the whole tree, a power cut) the folder stays behind, with whatever the
learner's code wrote there. So each folder holds a lock file that its worker keeps locked for its
whole life (the lock is inherited at spawn; the kernel drops it when the last holder exits). Any
tutor that starts sweeps the folders whose lock it can take: nobody is using them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from pathlib import Path

from tutor import host
from tutor.protocol import RUN_DIR_PREFIX

PREFIX = RUN_DIR_PREFIX
LOCK_NAME = ".in-use"
# A folder younger than this is left alone: its lock may not be taken yet (between mkdtemp and
# the lock), and a sweep must never race a spawn.
MIN_AGE_S = 60.0
# Folders from before the lock existed have no lock file: only ones surely abandoned go.
UNLOCKED_AGE_S = 24 * 3600.0


def make_run_dir() -> tuple[str, int]:
    """A new run folder and a descriptor holding its lock: pass it to the worker, then close it here."""
    path = tempfile.mkdtemp(prefix=PREFIX)
    fd = os.open(os.path.join(path, LOCK_NAME), os.O_CREAT | os.O_RDWR, 0o600)
    host.try_lock(fd)  # new and ours: cannot be held by anyone else
    return path, fd


def sweep_stale(tmp: str | None = None, now: float | None = None) -> list[str]:
    """Remove this user's run folders whose worker is gone; returns what was removed."""
    tmp = tmp or tempfile.gettempdir()
    now = time.time() if now is None else now
    removed: list[str] = []
    try:
        entries = list(os.scandir(tmp))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(PREFIX):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not entry.is_dir(follow_symlinks=False) or st.st_uid != os.getuid():
                continue
        except OSError:
            continue
        age = now - st.st_mtime
        if age >= MIN_AGE_S and _abandoned(Path(entry.path), age):
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
    return removed


def _abandoned(path: Path, age: float) -> bool:
    try:
        fd = os.open(path / LOCK_NAME, os.O_RDWR)
    except FileNotFoundError:
        return age >= UNLOCKED_AGE_S
    except OSError:
        return False
    try:
        # Where the host has no locks, the lock always "succeeds": only folders of surely
        # abandoned age may go then, as for folders without a lock file.
        return host.try_lock(fd) and (host.LOCKS or age >= UNLOCKED_AGE_S)
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
