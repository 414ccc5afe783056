"""The sandbox: each job runs in a fresh worker process, and one warm spare is kept ready so that a
check does not wait for Python and the JAX import.

The parts: tutor.sandbox.worker_process (one process), tutor.sandbox.run (one job in it, to its
verdict), tutor.sandbox.run_dirs (run folders and their sweep).
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

from tutor import host
from tutor.files.private import make_folder
from tutor.protocol import REHEARSE_MAX, CellJob, DoctorJob, ExerciseJob
from tutor.sandbox import orphans, run_copy
from tutor.sandbox.bwrap import Bwrap
from tutor.sandbox.course_view import CellToRun, ExerciseToRun
from tutor.sandbox.fork_client import ForkServer
from tutor.sandbox.run import Run
from tutor.sandbox.run_dirs import sweep_stale
from tutor.sandbox.startup_causes import tpu_busy
from tutor.sandbox.worker_process import DoctorSpawn, Limits, WorkerProcess, worker_env

MAX_SERVER_STARTS = 3  # a server that keeps failing is given up on: workers are spawned directly
DEVICE_WAIT_S = 60.0  # how long a run waits for an accelerator another process holds
DEVICE_RETRY_S = 2.0  # between tries to open it
# In the TUI, after a check on the device, the next check's worker opens the chip at once (a TPU
# takes 6-11 s to open); unused this long, it lets the chip go for the learner's own programs.
DEVICE_SPARE_IDLE_S = 120.0


def fork_server_env(accelerator: bool, course: Path | None = None) -> dict[str, str]:
    """The workers' environment, as the server imports JAX in it; OpenBLAS's thread pool off
    (it would start a thread at NumPy's import, and a process with threads must not fork)."""
    env = worker_env(accelerator, course)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return env


# What `doctor` keeps of each stream for its report (the JSON's stdout / stderr, the TUI): all of
# it passes through live; beyond this much, the report says where it was cut and why.
DOCTOR_KEEP_CHARS = 8 * 2**20


REHEARSAL_CALL_MAX = 4000  # characters of one noted call: a longer one is not a call JAX's own functions make


def cache_dir_for(home: Path, course: Path | None = None) -> Path:
    """JAX's compilation cache for a home, outside it: the path is in the worker's JAX config,
    where learner code can read it, so it must not lead to progress.json. One folder per home
    (named by a hash), in the platform's cache folder; one per course of the home too, but for
    the shipped one (`course` None: the one tutor.settings names). A run may write its cache,
    and what it writes is compiled code the next run loads: a course's cells and checks (a
    course is code, issue 50) planted entries in the cache the shipped course's checks read."""
    import platformdirs

    from tutor.paths import shipped_course_root
    from tutor.settings import course_of

    where = str(Path(home).resolve())
    course = Path(course or course_of()).resolve()
    if course != shipped_course_root().resolve():
        where += "\0" + str(course)  # never a path's character: no home and course make another's key
    key = hashlib.sha256(where.encode()).hexdigest()[:16]
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
        fork_server: bool | None = None,
        adopt_orphans: bool = False,
        isolation: Bwrap | None = None,
        course: Path | None = None,
        strangers: bool = False,
    ):
        """`course`: the course's folder, which each worker is told (tutor.settings: the default).
        `strangers`: each run is a stranger to the others and to the home's owner (`grade`): no
        compilation cache is shared with them."""
        from tutor.settings import fork_server_on

        self.limits = limits or Limits()
        self.course = course
        # A command whose every child is this sandbox's (the CLI's): orphans of a reaper the
        # learner's code killed come to this process, and each run's end sweeps them away.
        self.adopt_orphans = adopt_orphans and orphans.adopt()
        self._spawned: set[int] = set()  # every process this sandbox started: not orphans
        self.home = home
        # Outside the home (see cache_dir_for): the worker is never told where the home is.
        self.cache_dir = cache_dir_for(home, course) if home else None
        # `grade`'s outer wall (tutor.sandbox.bwrap): each worker spawned inside it. Strangers' runs
        # (grade's, bwrap or fence) get no compilation cache: a run may read and write the cache it is
        # given, so a stranger's entry would be the next file's compiled code, and the entries there the
        # compiled code of the files before it (issue 50's third red team: under `--isolation fence` a
        # hand-in wrote into the instructor's cache, and so was graded pass).
        self.isolation = isolation
        if isolation is not None or strangers:
            self.cache_dir = None
        self.keep_spare = keep_spare
        # When a spare is taken, the next one starts: after the run (default: a person waits
        # for this verdict, and on 2 cores a JAX import next door slows it), or at once
        # (spare_early: back-to-back runs, as in verify and the test suite).
        self.spare_early = spare_early
        # CPU unless asked (the CLI's `--accelerator`, passed down as this argument): a tutor
        # must not take the GPU memory the learner's own jobs need.
        self.accelerator = accelerator
        # With one, a single worker at a time owns it: libtpu admits one process, and two GPU
        # workers would share its memory. Runs take turns; no spare holds it before the first
        # check, and after one (keep_spare) the next check's worker opens it, unless a run waits.
        self._device = threading.Lock()
        self._device_next: Future[WorkerProcess | None] | None = None
        self._device_wanted = 0  # runs waiting for the device: a spare gives way to them
        # ...and the lesson's cells run on the CPU, where their expected output was written and
        # checked (CI has no accelerator), in a sandbox of their own that may keep a spare.
        self._cells: Sandbox | None = None
        # Workers forked from one process that has imported JAX (tutor.child.fork_server): worth
        # it wherever more than one worker is made (a spare is kept, or many runs follow).
        # JAXSTATE_TUTOR_FORK_SERVER=0 turns it off (to measure against, or to rule it out).
        self.use_fork_server = (
            (keep_spare if fork_server is None else fork_server)
            and isolation is None
            and fork_server_on()
            and host.fork_after_jax_is_safe()
        )
        self._server: ForkServer | None = None
        self._server_starts = 0
        self._spare: WorkerProcess | None = None
        self._rehearsal: tuple[str, ...] = ()  # what the next spare rehearses (tutor.child.rehearsal)
        self._lock = threading.Lock()
        self._workers: set[WorkerProcess] = set()  # every worker not yet closed, for close()
        self._workers_lock = threading.Lock()  # apart from _lock: warm_up spawns while holding that
        # A spawn and a sweep never overlap: a reaper just started is not yet in _spawned.
        self._spawning = threading.Lock() if self.adopt_orphans else contextlib.nullcontext()
        self._closed = False  # a run ending after close() must not start a new spare
        _sweep_once()

    def _fork_server(self) -> ForkServer | None:
        """The running fork server, started (or restarted, once) when needed; None: spawn directly."""
        with self._workers_lock:
            if not self.use_fork_server or self._closed:
                return None
            if self._server is not None and not self._server.usable:
                self._server.close()
                self._server = None
            if self._server is None and self._server_starts < MAX_SERVER_STARTS:
                self._server_starts += 1
                cache = str(self.cache_dir) if self.cache_dir else None
                self._server = ForkServer(fork_server_env(self.accelerator, self.course), self.limits.startup_s, cache)
                with self._spawning:
                    self._spawned.add(self._server.proc.pid)
            return self._server

    def _spawn(
        self, doctor: DoctorSpawn | None = None, limits: Limits | None = None, cpu_devices: int = 1
    ) -> WorkerProcess:
        cache_dir = self.cache_dir
        if cache_dir is not None:
            try:
                make_folder(cache_dir)  # the compiled programs of this home's runs: its owner's alone
            except OSError:
                cache_dir = None  # no cache is slower, not broken
        # Doctor's worker is spawned afresh, never forked: the script starts as under `python`; so is
        # a worker with several CPU devices (JAX reads their number as it is imported).
        server = None if doctor is not None or cpu_devices > 1 else self._fork_server()
        with self._spawning:
            wrap = self.isolation if self.isolation is not None and doctor is None else None
            # One learner's sandbox (a spare is kept) only: `grade`'s runs are strangers to each other.
            rehearsal = self._rehearsal if doctor is None and self.keep_spare else ()
            worker = WorkerProcess(
                cache_dir,
                limits or self.limits,
                self.accelerator,
                server,
                doctor,
                wrap,
                cpu_devices=cpu_devices,
                course=self.course,
                rehearsal=rehearsal,
            )
            self._spawned.add(worker.proc.pid)
        with self._workers_lock:
            self._workers = {w for w in self._workers if not w.closed}
            self._workers.add(worker)
        return worker

    def _sweep_orphans(self) -> None:
        if not self.adopt_orphans:
            return
        with self._spawning:
            orphans.sweep(set(self._spawned))

    def _cell_box(self) -> Sandbox:
        """Where cells run: here, or with an accelerator a CPU sandbox of the same home and limits."""
        if not self.accelerator:
            return self
        with self._lock:
            if self._cells is None:
                self._cells = Sandbox(
                    self.home,
                    self.limits,
                    keep_spare=self.keep_spare,
                    spare_early=self.spare_early,
                    fork_server=self.use_fork_server,
                    course=self.course,
                )
            return self._cells

    def warm_up(self) -> None:
        """Start the spare worker now, so the first check does not wait for JAX (with an
        accelerator, the CPU spare for cells: a spare of the device's would hold it while idle)."""
        if self.accelerator:
            if not self._closed:
                self._cell_box().warm_up()
            return
        with self._lock:
            if self._closed:
                return
            if self._spare is None or not self._spare.alive():
                self._spare = self._spawn()

    def release_spare(self) -> None:
        """Close the spare worker, if any, and the fork server once no worker of it runs: no JAX
        process is kept until the next warm_up or run (which starts them again: a cold start)."""
        if self._cells is not None:
            self._cells.release_spare()
        self._drop_device_spare()
        with self._lock:
            worker, self._spare = self._spare, None
        if worker is not None:
            worker.close()
        with self._workers_lock:
            server = None
            if self._server is not None and all(w.closed for w in self._workers):
                server, self._server = self._server, None
                self._server_starts = 0  # let go of on purpose: not a failure to count
        if server is not None:
            server.close()

    def holds_workers(self) -> bool:
        """A spare or a fork server is alive (what release_spare would close); no lock: a glance."""
        spare, server = self._spare, self._server
        cells = self._cells is not None and self._cells.holds_workers()
        return cells or self._device_next is not None or (spare is not None and spare.alive()) or server is not None

    def warm(self) -> bool:
        """The next run finds a spare (made, or being made from a running fork server) rather than
        starting Python and JAX from nothing. No lock: the UI glances at it before a run."""
        if self.accelerator:
            return True  # the device's worker is opened per check (a spare would hold the chip): not told
        spare, server = self._spare, self._server
        return (spare is not None and spare.alive()) or (server is not None and server.usable)

    def wait_ready(self, timeout: float = 120.0) -> bool:
        """Wait until the spare worker (started by warm_up) is ready for a job."""
        if self.accelerator:
            return self._cell_box().wait_ready(timeout)
        with self._lock:
            spare = self._spare
        return spare is not None and spare.wait_ready(timeout)

    def _on_device(self, spawn: Callable[[], WorkerProcess]) -> WorkerProcess:
        """A worker from `spawn()` that owns the accelerator: this sandbox's runs take turns (the
        device is free again once the last one's process is gone), and a device another process
        holds, or just let go of, is tried again for up to DEVICE_WAIT_S."""
        owned = self._device.acquire(timeout=DEVICE_WAIT_S)  # not forever: a run nobody reads holds it
        return self._open_device(spawn, owned)

    def _open_device(self, spawn: Callable[[], WorkerProcess], owned: bool) -> WorkerProcess:
        deadline = time.monotonic() + DEVICE_WAIT_S
        try:
            while True:
                worker = spawn()
                if worker.wait_ready(self.limits.startup_s) or not worker.ended(within=5.0):
                    break  # ready, or alive and not ready: the run reports it
                if time.monotonic() >= deadline or not tpu_busy(worker.failed_start().decode(errors="replace")):
                    break  # not the device's turn: the run reports what happened
                worker.close()
                time.sleep(DEVICE_RETRY_S)
        except BaseException:
            if owned:
                self._device.release()
            raise
        if owned:
            worker.on_removed.append(self._device.release)
        return worker

    def _take_device(self) -> WorkerProcess:
        """The device spare if one was opened for this run, else a worker that waits its turn."""
        with self._lock:
            self._device_wanted += 1
            future, self._device_next = self._device_next, None
        try:
            worker = future.result() if future is not None else None
            if worker is not None and worker.alive():
                return worker
            if worker is not None:
                worker.close()
            return self._on_device(self._spawn)
        finally:
            with self._lock:
                self._device_wanted -= 1

    def _open_device_spare(self) -> None:
        """Open the device for the next check now, in the background (see DEVICE_SPARE_IDLE_S)."""
        with self._lock:
            if self._closed or self._device_next is not None or self._device_wanted:
                return
            future = self._device_next = Future()

        def opening() -> None:
            worker = None
            try:
                if self._device.acquire(timeout=DEVICE_WAIT_S):
                    with self._lock:
                        gives_way = self._device_wanted > 0 or self._closed
                    if gives_way:
                        self._device.release()
                    else:
                        worker = self._open_device(self._spawn, owned=True)
            finally:
                future.set_result(worker)  # None: the run that takes it waits its turn itself
            timer = threading.Timer(DEVICE_SPARE_IDLE_S, self._drop_device_spare, (future,))
            timer.daemon = True
            timer.start()

        threading.Thread(target=opening, name="device-spare", daemon=True).start()

    def _drop_device_spare(self, only: Future[WorkerProcess | None] | None = None) -> None:
        """Let the device go: the spare is closed once it has opened (`only`: if still that one)."""
        with self._lock:
            future = self._device_next
            if future is None or (only is not None and future is not only):
                return
            self._device_next = None

        def close_it(opened: Future[WorkerProcess | None]) -> None:
            worker = opened.result()
            if worker is not None:
                worker.close()

        future.add_done_callback(close_it)

    def _take(self) -> WorkerProcess:
        if self.accelerator:
            return self._take_device()
        with self._lock:
            worker, self._spare = self._spare, None
        if worker is None or not worker.alive():
            if worker is not None:
                worker.close()
            worker = self._spawn()
        if self.keep_spare and self.spare_early:
            self.warm_up()
        return worker

    def _after_run(self, run: Run) -> None:
        # The calls the run compiled, first, then those noted before: the next spare rehearses them.
        calls = dict.fromkeys(c for c in (*run.compiled, *self._rehearsal) if len(c) <= REHEARSAL_CALL_MAX)
        self._rehearsal = tuple(calls)[:REHEARSE_MAX]
        self._sweep_orphans()
        if self.accelerator and self.keep_spare:
            self._open_device_spare()
        elif self.keep_spare and not self.spare_early:
            self.warm_up()

    def run_exercise(self, exercise: ExerciseToRun, source: str, filename: str, timeout: float | None = None) -> Run:
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

    def run_cell(self, cell: CellToRun, timeout: float | None = None) -> Run:
        if self.accelerator:
            return self._cell_box().run_cell(cell, timeout)
        job = CellJob(id=cell.id, code=cell.code, expect=cell.expect)
        # A cell that asks for several CPU devices gets a worker of its own: the spare has one.
        devices = cell.cpu_devices
        worker = self._take() if devices == 1 else self._spawn(cpu_devices=devices)
        return Run(worker, job, timeout or cell.timeout, self.limits, self._after_run)

    def run_doctor(
        self,
        script: Path,
        args: list[str],
        cwd: Path,
        timeout: float,
        nans: bool,
        module: str | None = None,
        stdin_fd: int | None = None,
    ) -> Run:
        """Run the learner's own script under the doctor's probe in a worker (as [script, *args], in
        `cwd`; with `module`, as `python -m module`); its output streams as Output events, every
        byte of it, and the verdict carries the report. A worker of its own, not the spare: its
        JAX backend must not exist before the script starts, and no memory or output cap applies
        that a plain `python` run would not have (the time limit stays). `stdin_fd`: the script's
        standard input (the command line's own); None gives it none (the TUI holds the terminal)."""
        job = DoctorJob(script=str(script), args=tuple(args), cwd=str(cwd), nans=nans, module=module)
        limits = replace(
            self.limits,
            memory_mb=None,
            output_bytes=None,
            processes=None,
            disk_bytes=None,
            keep_chars=max(self.limits.keep_chars, DOCTOR_KEEP_CHARS),
        )

        def spawn() -> WorkerProcess:
            return self._spawn(DoctorSpawn(str(cwd), stdin_fd), limits)

        if self.accelerator:
            self._drop_device_spare()  # the script is spawned afresh: a check's spare gives the device up
        worker = self._on_device(spawn) if self.accelerator else spawn()
        return Run(worker, job, timeout, limits, self._after_run)

    def close(self) -> None:
        """Close the spare and stop every run still going (its process and run folder;
        the run's own thread closes its pipes)."""
        self._drop_device_spare()
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
        with self._workers_lock:
            server, self._server = self._server, None
        if server is not None:
            server.close()
        if self._cells is not None:
            self._cells.close()
        self._sweep_orphans()
