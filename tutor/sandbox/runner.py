"""The sandbox: each job runs in a fresh worker process, and one warm spare is kept ready so that a
check does not wait for Python and the JAX import.

The parts: tutor.sandbox.worker_process (one process), tutor.sandbox.run (one job in it, to its
verdict), tutor.sandbox.run_dirs (run folders and their sweep).
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from tutor.protocol import CellJob, DoctorJob, ExerciseJob
from tutor.sandbox import run_copy
from tutor.sandbox.run import Run
from tutor.sandbox.run_dirs import sweep_stale
from tutor.sandbox.worker_process import Limits, WorkerProcess


def cache_dir_for(home: Path) -> Path:
    """JAX's compilation cache for a home, outside it: the path is in the worker's JAX config,
    where learner code can read it, so it must not lead to progress.json. One folder per home
    (named by a hash), in the platform's cache folder."""
    import platformdirs

    key = hashlib.sha256(str(Path(home).resolve()).encode()).hexdigest()[:16]
    return Path(platformdirs.user_cache_dir("jaxstate-tutor", appauthor=False)) / f"jax-{key}"


_swept = threading.Event()


def _sweep_once() -> None:
    """Once per process, in the background: the run folders that tutors killed outright left behind."""
    if not _swept.is_set():
        _swept.set()
        threading.Thread(target=sweep_stale, name="sweep-run-dirs", daemon=True).start()


class Sandbox:
    """Runs learner code in fresh worker processes, keeping one warm spare when asked."""

    def __init__(
        self,
        home: Path | None = None,
        limits: Limits | None = None,
        keep_spare: bool = False,
        accelerator: bool = False,
        spare_early: bool = False,
    ):
        self.limits = limits or Limits()
        self.home = home
        # Outside the home (see cache_dir_for): the worker is never told where the home is.
        self.cache_dir = cache_dir_for(home) if home else None
        self.keep_spare = keep_spare
        # When a spare is taken, the next one starts: after the run (default: a person waits
        # for this verdict, and on 2 cores a JAX import next door slows it), or at once
        # (spare_early: back-to-back runs, as in verify and the test suite).
        self.spare_early = spare_early
        # CPU unless asked (the CLI's `--accelerator`, passed down as this argument): a tutor
        # must not take the GPU memory the learner's own jobs need.
        self.accelerator = accelerator
        self._spare: WorkerProcess | None = None
        self._lock = threading.Lock()
        self._workers: set[WorkerProcess] = set()  # every worker not yet closed, for close()
        self._workers_lock = threading.Lock()  # apart from _lock: warm_up spawns while holding that
        self._closed = False  # a run ending after close() must not start a new spare
        _sweep_once()

    def _spawn(self) -> WorkerProcess:
        cache_dir = self.cache_dir
        if cache_dir is not None:
            try:
                cache_dir.mkdir(parents=True, exist_ok=True)
            except OSError:
                cache_dir = None  # no cache is slower, not broken
        worker = WorkerProcess(cache_dir, self.limits, self.accelerator)
        with self._workers_lock:
            self._workers = {w for w in self._workers if not w.closed}
            self._workers.add(worker)
        return worker

    def warm_up(self) -> None:
        """Start the spare worker now, so the first check does not wait for JAX."""
        with self._lock:
            if self._closed:
                return
            if self._spare is None or not self._spare.alive():
                self._spare = self._spawn()

    def wait_ready(self, timeout: float = 120.0) -> bool:
        """Wait until the spare worker (started by warm_up) is ready for a job."""
        with self._lock:
            spare = self._spare
        return spare is not None and spare.wait_ready(timeout)

    def _take(self) -> WorkerProcess:
        with self._lock:
            worker, self._spare = self._spare, None
        if worker is None or not worker.alive():
            if worker is not None:
                worker.close()
            worker = self._spawn()
        if self.keep_spare and self.spare_early:
            self.warm_up()
        return worker

    def _after_run(self) -> None:
        if self.keep_spare and not self.spare_early:
            self.warm_up()

    def run_exercise(self, exercise, source: str, filename: str, timeout: float | None = None) -> Run:
        worker = self._take()
        try:
            copy = run_copy.place(worker.workdir, source, filename)  # the real path would lead to the home
        except OSError:
            worker.close()
            raise
        job = ExerciseJob(
            source=source,
            filename=copy,
            checks=tuple(c.to_job(exercise.checks_file) for c in exercise.checks),
            checks_file=str(exercise.checks_file),
        )
        return Run(worker, job, timeout or exercise.timeout, self.limits, self._after_run, shown_as=(copy, filename))

    def run_cell(self, cell, timeout: float | None = None) -> Run:
        job = CellJob(id=cell.id, code=cell.code, expect=cell.expect)
        return Run(self._take(), job, timeout or cell.timeout, self.limits, self._after_run)

    def run_doctor(self, script: Path, args: list[str], cwd: Path, timeout: float, nans: bool) -> Run:
        """Run the learner's own script under the doctor's probe in a worker (as [script, *args], in
        `cwd`); its output streams as Output events, the verdict carries the report."""
        job = DoctorJob(script=str(script), args=tuple(args), cwd=str(cwd), nans=nans)
        return Run(self._take(), job, timeout, self.limits, self._after_run)

    def close(self) -> None:
        """Close the spare and stop every run still going (its process and run folder;
        the run's own thread closes its pipes)."""
        with self._lock:
            self._closed = True
            worker, self._spare = self._spare, None
        with self._workers_lock:
            running = [w for w in self._workers if w is not worker and not w.closed]
            self._workers = set()
        if worker is not None:
            worker.close()
        for w in running:
            w.remove_files()
