"""Run folders left behind when tutor and worker die together are swept by the next tutor; a
folder whose worker lives (importing JAX, idle, or running) is never touched."""

from __future__ import annotations

import fcntl
import os
import signal
import tempfile
import time

import pytest

from tutor.sandbox.run_dirs import LOCK_NAME, MIN_AGE_S, UNLOCKED_AGE_S, make_run_dir, sweep_stale

LATER = MIN_AGE_S + 1  # seconds: old enough to be swept if abandoned


@pytest.fixture
def tmp(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # mkdtemp and the sweep look here
    return tmp_path


def names(paths) -> set[str]:
    return {os.path.basename(p) for p in paths}


def test_only_folders_nobody_holds_are_swept(tmp):
    held, held_fd = make_run_dir()  # a live worker: its lock is held
    free, free_fd = make_run_dir()
    os.close(free_fd)  # its worker died: the kernel dropped the lock
    old_style = tmp / "jaxstate-run-old"  # from before run folders had a lock
    old_style.mkdir()
    other = tmp / "someone-else"
    other.mkdir()
    (tmp / "jaxstate-run-link").symlink_to(other)
    try:
        now = time.time()
        assert sweep_stale(now=now) == []  # all younger than MIN_AGE_S: a spawn may be under way
        removed = sweep_stale(now=now + LATER)
        assert names(removed) == {os.path.basename(free)}
        assert os.path.isdir(held) and old_style.is_dir() and other.is_dir()
        assert names(sweep_stale(now=now + UNLOCKED_AGE_S + 1)) == {"jaxstate-run-old"}
        assert os.path.isdir(held)  # however old: its lock is held
    finally:
        os.close(held_fd)


def test_a_sweep_does_not_take_the_lock_away_from_its_holder(tmp):
    held, fd = make_run_dir()
    try:
        sweep_stale(now=time.time() + LATER)
        probe = os.open(os.path.join(held, LOCK_NAME), os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(probe)
    finally:
        os.close(fd)


@pytest.mark.slow  # spawns a real worker process (killed before JAX is even imported)
def test_a_real_worker_holds_its_folder_until_it_dies_with_its_tutor(tmp):
    """The worker process, not the tutor, holds the lock: the folder survives the sweep while the
    worker lives, and once worker and tutor are killed outright it goes at the next sweep."""
    from tutor.sandbox.worker_process import Limits, WorkerProcess

    worker = WorkerProcess(None, Limits(), accelerator=False)
    try:
        assert sweep_stale(now=time.time() + LATER) == []  # alive, still importing JAX
        os.killpg(worker.proc.pid, signal.SIGKILL)  # as a power cut would: no one cleans up
        worker.proc.wait(timeout=30)
        assert os.path.isdir(worker.workdir)
        assert names(sweep_stale(now=time.time() + LATER)) == {os.path.basename(worker.workdir)}
    finally:
        worker.close()
