"""Parent side of running learner code: spawn workers, keep a warm spare, enforce limits.

Every run gets a fresh process. Learner stdout/stderr arrive on the process's own pipes;
everything the tutor needs to judge arrives as JSON lines on a separate event pipe
(tutor.protocol). This module gathers those events and how the process ended (an Ending);
tutor.sandbox.verdict decides from them: a run that crashed, was killed, timed out, or never
said "done" is never a pass.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
import resource
import select
import selectors
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from tutor.paths import PACKAGE_DIR
from tutor.protocol import (
    CellJob,
    CheckResult,
    DoctorJob,
    Done,
    ExerciseJob,
    Job,
    MetricPoints,
    ProtocolError,
    Ready,
    parse_event,
)
from tutor.sandbox.events import Output, Verdict
from tutor.sandbox.run_dirs import make_run_dir, sweep_stale
from tutor.sandbox.verdict import Ending, decide

READ_PENDING_S = 1.0  # a run reads what its worker already sent before any start-up deadline applies
WORKER_GRACE_S = 2.0  # the worker's own deadline is this much after the parent's: the parent decides
STOP_GRACE_S = 5.0  # how long a doctor run asked to stop (stop() or its time limit) has to send its report


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 4096  # RLIMIT_DATA; XLA alone needs ~1.2 GiB of address space to compile
    output_bytes: int = 8 * 2**20  # beyond this much stdout+stderr the run is stopped
    keep_chars: int = 100_000  # of each stream, kept for the verdict
    startup_s: float = 120.0  # for a worker to import JAX, on a busy machine


def cache_dir_for(home: Path) -> Path:
    """JAX's compilation cache for a home, outside it: the path is in the worker's JAX config,
    where learner code can read it, so it must not lead to progress.json. One folder per home
    (named by a hash), in the platform's cache folder."""
    import platformdirs

    key = hashlib.sha256(str(Path(home).resolve()).encode()).hexdigest()[:16]
    return Path(platformdirs.user_cache_dir("jaxstate-tutor", appauthor=False)) / f"jax-{key}"


def _send_job(stdin, data: bytes) -> None:
    """Write the job. stdin stays open: it is the worker's lifeline (its hang-up tells the worker
    the parent is gone); the worker reads the job, then gives learner code /dev/null (EOF, not a hang)."""
    try:
        stdin.write(data)
        stdin.flush()
    except (OSError, ValueError):
        pass  # the worker already died (or was killed); the run reports how


def _is_ready(line: bytes) -> bool:
    try:
        return isinstance(parse_event(json.loads(line)), Ready)
    except ValueError:  # not JSON, or not an event (ProtocolError): the run will say so
        return False


_SETTING_VARS = re.compile(r"^(JAX_|XLA_|LIBTPU|CUDA_VISIBLE_DEVICES$|LD_PRELOAD$)")  # what can break JAX


def _setting_vars() -> tuple[str, ...]:
    """The variables in the tutor's environment that can break JAX in a worker."""
    return tuple(k for k in os.environ if _SETTING_VARS.match(k))


class WorkerProcess:
    """One spawned worker: its process, its pipes, and whether it said it is ready."""

    def __init__(self, cache_dir: Path | None, limits: Limits, accelerator: bool):
        read_fd, write_fd = os.pipe()
        self.workdir, lock_fd = make_run_dir()  # the worker keeps the folder's lock for its life
        # The run's own temporary folder: what learner code makes there goes with the run.
        tmp = os.path.join(self.workdir, "tmp")
        os.mkdir(tmp)
        self._closed = False
        self._removed = False
        self._removing = threading.Lock()
        env = dict(os.environ)
        env.update(TMPDIR=tmp, TEMP=tmp, TMP=tmp)
        env["PYTHONUNBUFFERED"] = "1"  # learner prints stream as they happen
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_DIR.parent), env.get("PYTHONPATH")]))
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
        # Learner code has no business with the learner's progress; do not point it there.
        # (Not a security boundary: the worker runs as the same user.)
        env.pop("JAXSTATE_TUTOR_HOME", None)
        if not accelerator:
            env["JAX_PLATFORMS"] = "cpu"  # never grab the GPU memory the learner's own jobs need
        cmd = [
            sys.executable,
            "-m",
            "tutor.child.worker",
            "--event-fd",
            str(write_fd),
            "--parent",
            str(os.getpid()),
            "--run-dir",
            self.workdir,
        ]
        if cache_dir is not None:
            cmd += ["--cache-dir", str(cache_dir)]
        try:
            self.proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(write_fd, lock_fd),
                start_new_session=True,
                env=env,
                cwd=self.workdir,
            )
        finally:
            os.close(write_fd)
            os.close(lock_fd)  # the worker's copy holds the lock now
        self.event_fd = read_fd
        self.spawned_at = time.monotonic()
        self.ready = False
        self.early_events = b""  # event bytes read by wait_ready(), replayed by the run
        try:
            # A notch below the tutor itself: on a 2-core machine an XLA compile in the worker
            # must not starve the UI's event loop.
            os.setpriority(os.PRIO_PROCESS, self.proc.pid, min(os.getpriority(os.PRIO_PROCESS, 0) + 5, 19))
        except OSError:
            pass
        limit = limits.memory_mb * 2**20
        try:
            resource.prlimit(self.proc.pid, resource.RLIMIT_DATA, (limit, limit))
        except (OSError, ValueError):
            pass  # not fatal: the wall-clock timeout still bounds the run

    def wait_ready(self, timeout: float) -> bool:
        """Block until the worker has imported JAX and waits for its job (or timeout)."""
        deadline = time.monotonic() + timeout
        while not self.ready and self.alive():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            readable, _, _ = select.select([self.event_fd], [], [], min(left, 0.1))
            if readable:
                chunk = os.read(self.event_fd, 65536)
                if not chunk:
                    return False
                self.early_events += chunk
                self.ready = any(_is_ready(line) for line in self.early_events.split(b"\n")[:-1])
        return self.ready

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """Kill the worker and everything it started in its process group."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.kill()
        except ProcessLookupError:
            pass

    def remove_files(self) -> None:
        """Kill, reap and remove the run folder; safe from any thread, the pipes stay open.
        Once only: after the reap the pid may belong to someone else."""
        with self._removing:
            if self._removed:
                return
            self._removed = True
        self.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        shutil.rmtree(self.workdir, ignore_errors=True)

    def close(self) -> None:
        """remove_files, then close the pipes: once, by the thread that reads them."""
        self.remove_files()
        if self._closed:
            return  # a descriptor closed twice could be someone else's by now
        self._closed = True
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is None:
                continue
            try:
                stream.close()
            except OSError:
                pass
        try:
            os.close(self.event_fd)
        except OSError:
            pass


class Run:
    """One job in one worker. Iterate `events()`; the last event is always a Verdict."""

    def __init__(self, worker: WorkerProcess, job: Job, timeout: float, limits: Limits, on_finish=None):
        self.worker = worker
        # The worker's own deadline comes after ours (and after a doctor's time to report): the parent decides.
        grace = WORKER_GRACE_S + (STOP_GRACE_S if isinstance(job, DoctorJob) else 0.0)
        self.job = replace(job, deadline_s=timeout + grace)
        self.timeout = timeout
        self.limits = limits
        self.on_finish = on_finish
        self._cancel = threading.Event()
        self._stop = threading.Event()
        self.verdict: Verdict | None = None

    def cancel(self) -> None:
        """Stop the run from any thread; its whole process group is killed."""
        self._cancel.set()
        self.worker.kill()

    def stop(self) -> None:
        """Ask a doctor run to stop and still report, from any thread; returns at once. The worker
        gets SIGINT (the probe stops the script and reports); it is killed if no report comes
        within STOP_GRACE_S. For other jobs, the same as cancel()."""
        if not isinstance(self.job, DoctorJob):
            self.cancel()
            return
        self._stop.set()

    def result(self) -> Verdict:
        for _ in self.events():
            pass
        assert self.verdict is not None
        return self.verdict

    def events(self) -> Iterator[object]:
        w = self.worker
        try:
            yield from self._events(w)
        finally:
            # Also when the reader stops early (Ctrl+C in `check`, a closed generator): the run
            # folder and the process never outlive the run. (Usually a no-op by now.)
            w.close()

    def _events(self, w: WorkerProcess) -> Iterator[object]:
        started = time.monotonic()
        # From a thread: a job bigger than the pipe buffer would otherwise block here, before
        # any deadline is enforced, until a worker that may be stuck starting up reads it.
        threading.Thread(
            target=_send_job,
            args=(w.proc.stdin, (json.dumps(self.job.to_wire()) + "\n").encode()),
            name="send-job",
            daemon=True,
        ).start()
        state = _RunState(self.limits)
        yield from state.feed_events(w.early_events)
        sel = selectors.DefaultSelector()
        assert w.proc.stdout is not None and w.proc.stderr is not None  # spawned with pipes
        for name, fd in (
            ("stdout", w.proc.stdout.fileno()),
            ("stderr", w.proc.stderr.fileno()),
            ("events", w.event_fd),
        ):
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_READ, name)
        ready_at = None
        asked_to_stop = None  # when SIGINT went to a doctor worker (stop() or its time limit)
        flags: dict = {}  # how the reading ended, for the verdict's Ending
        try:
            while not self._cancel.is_set():
                now = time.monotonic()
                if ready_at is None and state.ready:
                    ready_at = now
                if ready_at:
                    deadline = ready_at + self.timeout
                else:
                    # A spare may have been ready for long before this run took it, its "ready" still
                    # unread in the pipe: read the pipe before calling its start-up too slow.
                    deadline = max(w.spawned_at + self.limits.startup_s, started + READ_PENDING_S)
                if asked_to_stop is None and not ready_at and self._stop.is_set():
                    flags["stopped"] = True  # nothing ran yet: nothing to report
                    break
                if asked_to_stop is None and ready_at and (self._stop.is_set() or now >= deadline):
                    # A doctor job: stop the script and wait a little for its report.
                    flags["stopped" if self._stop.is_set() else "timed_out"] = True
                    if isinstance(self.job, DoctorJob):
                        asked_to_stop = now
                        _interrupt(w)
                    else:
                        break
                if asked_to_stop is not None:
                    deadline = asked_to_stop + STOP_GRACE_S
                if now >= deadline:
                    if not ready_at:
                        flags["startup_timed_out"] = True
                    break
                for key, _ in sel.select(timeout=min(0.05, max(deadline - now, 0))):
                    yield from self._read(key, sel, state)
                if state.flooded or state.protocol_error:
                    break
                if state.done or w.proc.poll() is not None:
                    # "done" comes after the worker flushed the learner's output, so whatever
                    # is left is already in the pipes: drain it without waiting for the exit.
                    for key in list(sel.get_map().values()):
                        for _ in range(64):
                            if key.fd not in sel.get_map():
                                break
                            chunk = list(self._read(key, sel, state))
                            yield from chunk
                            if not chunk and not self._pending(key.fd):
                                break
                    break
        except Exception as exc:  # noqa: BLE001 - a bug on this side still ends in a verdict, never a hang
            flags["internal_error"] = f"{type(exc).__name__}: {exc}"
        finally:
            sel.close()
            w.kill()  # only the signal: reaping a JAX-sized process can wait until after the verdict
        yield from state.flush_text()
        ending = Ending(
            returncode=w.proc.returncode,
            cancelled=self._cancel.is_set(),
            flooded=state.flooded,
            truncated=state.truncated,
            protocol_error=state.protocol_error,
            duration_s=time.monotonic() - (ready_at or started),
            timeout_s=self.timeout,
            startup_s=self.limits.startup_s,
            output_limit_mb=self.limits.output_bytes // 2**20,
            setting_vars=_setting_vars(),
            **flags,
        )
        self.verdict = decide(self.job, state.seen, ending)
        try:
            yield self.verdict
        finally:
            w.close()
            if self.on_finish:  # after the verdict is out: a new spare costs a fork
                self.on_finish()

    @staticmethod
    def _pending(fd: int) -> bool:
        sel = selectors.DefaultSelector()
        try:
            sel.register(fd, selectors.EVENT_READ)
            return bool(sel.select(timeout=0))
        except (ValueError, OSError):
            return False
        finally:
            sel.close()

    def _read(self, key, sel, state: _RunState):
        try:
            data = os.read(key.fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            sel.unregister(key.fd)
            return
        if key.data == "events":
            yield from state.feed_events(data)
        else:
            out = state.feed_output(key.data, data)
            if out is not None:
                yield out


def _interrupt(w: WorkerProcess) -> None:
    """SIGINT to the worker alone (the doctor's probe turns it into a stop that still reports)."""
    try:
        os.kill(w.proc.pid, signal.SIGINT)
    except (ProcessLookupError, PermissionError):
        pass


class _RunState:
    """What has arrived so far: output (capped) and the worker's events, in order, for the verdict."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.decoders = {s: codecs.getincrementaldecoder("utf-8")("replace") for s in ("stdout", "stderr")}
        self.kept = {"stdout": 0, "stderr": 0}  # characters kept of each stream
        self.total_bytes = 0
        self.truncated = False
        self.flooded = False
        self.event_buffer = b""
        self.protocol_error = ""  # what was wrong with the first bad event line
        self.ready = False
        self.done = False
        self.seen: list = []  # Output chunks and worker events, as they came

    def feed_output(self, stream: str, data: bytes) -> Output | None:
        self.total_bytes += len(data)
        if self.total_bytes > self.limits.output_bytes:
            self.flooded = True
        room = self.limits.keep_chars - self.kept[stream]
        if room <= 0:
            self.truncated = True
            return None
        text = self.decoders[stream].decode(data)[:room]
        return self._keep(Output(stream, text)) if text else None

    def _keep(self, out: Output) -> Output:
        self.kept[out.stream] += len(out.text)
        self.seen.append(out)
        return out

    def flush_text(self):
        for stream, dec in self.decoders.items():
            tail = dec.decode(b"", final=True)
            if tail and self.kept[stream] < self.limits.keep_chars:
                yield self._keep(Output(stream, tail))

    def feed_events(self, data: bytes):
        if self.protocol_error:
            return  # the run is over; nothing after a bad event is believed
        self.event_buffer += data
        *lines, self.event_buffer = self.event_buffer.split(b"\n")
        if len(self.event_buffer) > max(self.limits.output_bytes, 2**20):
            self.protocol_error = "a line longer than any event"  # stop before it eats the parent's memory
            self.event_buffer = b""
            return
        for line in lines:
            try:
                event = parse_event(json.loads(line))
            except ProtocolError as exc:
                self.protocol_error = str(exc)
            except ValueError:
                self.protocol_error = "a line that is not JSON"
            if self.protocol_error:
                return
            self.seen.append(event)
            self.ready = self.ready or isinstance(event, Ready)
            self.done = self.done or isinstance(event, Done)
            if isinstance(event, (CheckResult, MetricPoints)):
                yield event


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
            self._workers = {w for w in self._workers if not w._closed}
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
        job = ExerciseJob(
            source=source,
            filename=filename,
            checks=tuple(c.to_job(exercise.checks_file) for c in exercise.checks),
            checks_file=str(exercise.checks_file),
        )
        return Run(self._take(), job, timeout or exercise.timeout, self.limits, self._after_run)

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
            running = [w for w in self._workers if w is not worker and not w._closed]
            self._workers = set()
        if worker is not None:
            worker.close()
        for w in running:
            w.remove_files()
