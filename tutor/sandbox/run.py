"""One job in one worker: send the job, read output and events until the worker is done or a
deadline passes, then end the process and decide the verdict (tutor.sandbox.verdict).

Learner stdout/stderr arrive on the process's own pipes; everything the tutor judges arrives as
JSON lines on a separate event pipe (tutor.protocol). A run that crashed, was killed, timed out,
or never said "done" is never a pass.
"""

from __future__ import annotations

import json
import os
import secrets
import selectors
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

from tutor.protocol import CheckResult, DoctorJob, Done, ExerciseJob, Job
from tutor.sandbox import run_copy
from tutor.sandbox.events import Verdict
from tutor.sandbox.intake import Intake
from tutor.sandbox.reaper import CacheGrowth
from tutor.sandbox.startup_causes import SETTING_VARS, HostLimits, find_shadows, setting_environment
from tutor.sandbox.verdict import Ending, decide
from tutor.sandbox.worker_process import END_WITHIN_S, Limits, WorkerProcess

READ_PENDING_S = 1.0  # a run reads what its worker already sent before any start-up deadline applies
WORKER_GRACE_S = 2.0  # the worker's own deadline is this much after the parent's: the parent decides
REAPER_GRACE_S = 1.0  # the reaper ends the tree this long after the worker's own deadline
STOP_GRACE_S = 5.0  # how long a doctor run asked to stop (stop() or its time limit) has to send its report


def _guard(word: str | None) -> str:
    """What the reaper's last word says of the run: "processes", "threads", "disk" or "memory" (a bound it held),
    "killed" (no word: it was ended from outside), or "" (it ended as its worker did)."""
    if word is None:
        return "killed"
    if word.startswith("limit "):
        return word.split()[1]
    return ""


def _setting_vars() -> tuple[str, ...]:
    """The variables in the tutor's environment that can break JAX in a worker."""
    return tuple(k for k in os.environ if SETTING_VARS.match(k))


def _startup_facts() -> dict[str, Any]:
    """For a worker that never got ready, what its cause is read from besides its output and the
    host's limits (the workers inherit all of it): the settings and PYTHONPATH, and the modules
    the worker needs that a PYTHONPATH folder holds."""
    return {
        "environment": setting_environment(os.environ),
        "shadows": find_shadows(os.environ.get("PYTHONPATH", "")),
    }


Phase = Literal["starting", "running", "stopping"]


@dataclass
class _Clock:
    """Where a run is, and the deadline of that phase: starting (the worker is not ready yet: the
    start-up bound), running (learner code runs from `ready_at`: the time limit), stopping (a
    doctor worker was asked to stop at `stop_asked_at`: the time it has to report)."""

    timeout: float
    startup_deadline: float
    ready_at: float | None = None
    stop_asked_at: float | None = None

    @property
    def phase(self) -> Phase:
        if self.stop_asked_at is not None:
            return "stopping"
        return "starting" if self.ready_at is None else "running"

    def deadline(self) -> float:
        if self.stop_asked_at is not None:
            return self.stop_asked_at + STOP_GRACE_S
        return self.startup_deadline if self.ready_at is None else self.ready_at + self.timeout


@dataclass
class _EndingFacts:
    """What the reading of a run learned about how it ended, as it happened (the verdict's Ending)."""

    stopped: bool = False  # stop() was asked
    timed_out: bool = False  # the time limit passed
    startup_timed_out: bool = False  # the worker never got ready
    internal_error: str = ""  # this side's own failure while reading
    guard: str = ""  # the reaper's word (_guard)


def _selector(w: WorkerProcess) -> selectors.BaseSelector:
    """The worker's stdout, stderr and event pipe, non-blocking, each under its name."""
    sel = selectors.DefaultSelector()
    assert w.proc.stdout is not None and w.proc.stderr is not None  # spawned with pipes
    for name, fd in (("stdout", w.proc.stdout.fileno()), ("stderr", w.proc.stderr.fileno()), ("events", w.event_fd)):
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ, name)
    return sel


def _end_processes(w: WorkerProcess) -> str:
    """End the worker's processes (the signal only: reaping a JAX-sized process can wait until
    after the verdict), and the reaper's word on the run if it said one (_guard), else ""."""
    ended_by_itself = w.proc.poll() is not None
    # A bound the reaper held is said before it refuses new tasks and kills the tree: the
    # worker's report of a refused fork or thread ("can't start new thread") can come first.
    held = (w.reaper_word() or "").startswith("limit ")
    w.kill()
    if held:  # a bound is said only once nothing of the run is left: the reaper exits after that
        w.ended(END_WITHIN_S)
    return _guard(w.reaper_word()) if ended_by_itself or held else ""


class Run:
    """One job in one worker. Iterate `events()`; the last event is always a Verdict."""

    def __init__(
        self,
        worker: WorkerProcess,
        job: Job,
        timeout: float,
        limits: Limits,
        on_finish: Callable[[Run], None] | None = None,
        shown_as: tuple[str, str] | None = None,
    ):
        self.worker = worker
        self.shown_as = shown_as  # (the copy the worker ran, the learner's own file): messages name the latter
        # The worker's own deadline comes after ours (and after a doctor's time to report): the parent decides.
        grace = WORKER_GRACE_S + (STOP_GRACE_S if isinstance(job, DoctorJob) else 0.0)
        # A secret of this run: every event after the job must carry it back (tutor.protocol.SEAL).
        self.job = replace(job, deadline_s=timeout + grace, seal=secrets.token_hex(16))
        self.timeout = timeout
        self.limits = limits
        self.on_finish = on_finish
        self._cancel = threading.Event()
        self._stop = threading.Event()
        self.verdict: Verdict | None = None
        self.compiled: tuple[str, ...] = ()  # what its Done said it compiled (the next spare rehearses it)

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
            if self.shown_as is None:
                yield from self._events(w)
                return
            copy, real = self.shown_as
            for event in self._events(w):
                if isinstance(event, CheckResult):
                    event = run_copy.shown_check(event, copy, real)
                elif isinstance(event, Verdict):  # before the run folder goes, with the copy in it
                    note = run_copy.what_changed(copy, self.job.source) if isinstance(self.job, ExerciseJob) else None
                    event = self.verdict = run_copy.shown_verdict(event, copy, real, note)
                yield event
        finally:
            # Also when the reader stops early (Ctrl+C in `check`, a closed generator): the run
            # folder and the process never outlive the run. (Usually a no-op by now.)
            w.close()

    def _events(self, w: WorkerProcess) -> Iterator[object]:
        started = time.monotonic()
        self._send_job(w)
        intake = Intake(
            self.limits,
            pass_all=isinstance(self.job, DoctorJob),
            checks=tuple(c.id for c in self.job.checks) if isinstance(self.job, ExerciseJob) else (),
            seal=self.job.seal,
        )
        # Measured here too, once the run is over: the reaper measures every 0.5 s, and a program
        # that writes into the cache and is done sooner (or is killed by us after "done") escapes it.
        cache = CacheGrowth(w.cache_dir) if self.limits.disk_bytes and w.cache_dir else None
        yield from intake.feed_events(w.early_events)
        # A spare may have been ready for long before this run took it, its "ready" still unread
        # in the pipe: read the pipe before calling its start-up too slow.
        clock = _Clock(self.timeout, max(w.spawned_at + self.limits.startup_s, started + READ_PENDING_S))
        facts = _EndingFacts()
        sel = _selector(w)
        try:
            yield from self._read_until_end(w, sel, intake, clock, facts)
        except Exception as exc:  # noqa: BLE001 - a bug on this side still ends in a verdict, never a hang
            facts.internal_error = f"{type(exc).__name__}: {exc}"
        finally:
            finished = time.monotonic()  # the run's own time ends here: not the ending of its processes below
            sel.close()
            facts.guard = _end_processes(w)
        if cache is not None and not facts.guard and cache.added() > (self.limits.disk_bytes or 0):
            cache.remove_added()  # it would outlast the run
            facts.guard = "disk"
        yield from intake.flush_text()
        if getattr(w.proc, "lost", False):
            facts.internal_error = "the tutor's fork server stopped during the run; check again"
        self.verdict = decide(
            self.job, intake.seen, self._ending(w, intake, facts, finished - (clock.ready_at or started))
        )
        self.compiled = next((e.compiled for e in intake.seen if isinstance(e, Done)), ())
        try:
            yield self.verdict
        finally:
            w.close()
            if self.on_finish:  # after the verdict is out: a new spare costs a fork
                self.on_finish(self)

    def _send_job(self, w: WorkerProcess) -> None:
        # From a thread: a job bigger than the pipe buffer would otherwise block here, before
        # any deadline is enforced, until a worker that may be stuck starting up reads it.
        threading.Thread(
            target=w.send_job,
            args=((json.dumps(self.job.to_wire()) + "\n").encode(),),
            name="send-job",
            daemon=True,
        ).start()
        # Until the worker is seen ready (a fresh one imports JAX first), a bound that includes start-up.
        w.set_deadline((self.job.deadline_s or self.timeout) + REAPER_GRACE_S + self.limits.startup_s)

    def _read_until_end(
        self, w: WorkerProcess, sel: selectors.BaseSelector, intake: Intake, clock: _Clock, facts: _EndingFacts
    ) -> Iterator[object]:
        """Output and events as they come, until the worker is done, a deadline of the clock's phase
        passes, a bound is said, or the run is cancelled; `facts` says which."""
        while not self._cancel.is_set():
            now = time.monotonic()
            if self._tick(w, intake, clock, facts, now):
                break
            for key, _ in sel.select(timeout=min(0.05, max(clock.deadline() - now, 0))):
                yield from self._read(key, sel, intake)
            if intake.over or w.limit_said():
                break
            if intake.done or w.proc.poll() is not None:
                # "done" comes after the worker flushed the learner's output, so whatever
                # is left is already in the pipes: drain it without waiting for the exit.
                yield from self._drain(sel, intake)
                break

    def _tick(self, w: WorkerProcess, intake: Intake, clock: _Clock, facts: _EndingFacts, now: float) -> bool:
        """One turn of the phase clock: move it on, and say whether the reading ends here."""
        if clock.phase == "starting" and intake.ready:
            clock.ready_at = now
            # The reaper's own deadline, a little after the worker's: the worker's timer is in
            # reach of learner code (signal.alarm(0)); the reaper's is not.
            w.set_deadline((self.job.deadline_s or self.timeout) + REAPER_GRACE_S)
            w.tell_ready()  # learner code runs from now: the reaper measures memory from here
        stop = self._stop.is_set()
        if clock.phase == "starting" and stop:
            facts.stopped = True  # nothing ran yet: nothing to report
            return True
        if clock.phase == "running" and (stop or now >= clock.deadline()):
            if stop:
                facts.stopped = True
            else:
                facts.timed_out = True
            if not isinstance(self.job, DoctorJob):
                return True
            clock.stop_asked_at = now  # a doctor job: stop the script and wait a little for its report
            w.interrupt()
        if now >= clock.deadline():
            if clock.phase == "starting":
                facts.startup_timed_out = True
            return True
        return intake.over  # also before the first wait: a spare's early events can end the run

    def _drain(self, sel: selectors.BaseSelector, intake: Intake) -> Iterator[object]:
        for key in list(sel.get_map().values()):
            for _ in range(64):
                if key.fd not in sel.get_map():
                    break
                chunk = list(self._read(key, sel, intake))
                yield from chunk
                if not chunk and not self._pending(key.fd):
                    break

    def _ending(self, w: WorkerProcess, intake: Intake, facts: _EndingFacts, duration_s: float) -> Ending:
        """How the run ended, for the verdict: what the reading learned, the bounds, and the host."""
        return Ending(
            returncode=w.proc.returncode,
            cancelled=self._cancel.is_set(),
            stopped=facts.stopped,
            timed_out=facts.timed_out,
            startup_timed_out=facts.startup_timed_out,
            internal_error=facts.internal_error,
            guard=facts.guard,
            flooded=intake.flooded,
            truncated=intake.truncated,
            protocol_error=intake.protocol_error,
            forged=intake.forged,
            worker_protocol=intake.worker_protocol,
            duration_s=duration_s,
            timeout_s=self.timeout,
            startup_s=self.limits.startup_s,
            output_limit_mb=(self.limits.output_bytes or 0) // 2**20,
            processes_limit=self.limits.processes or 0,
            disk_limit_mb=(self.limits.disk_bytes or 0) // 2**20,
            memory_limit_mb=self.limits.memory_mb or 0,
            chars_seen=dict(intake.chars_seen),
            setting_vars=_setting_vars(),
            host_limits=HostLimits.read(),  # a start-up failure's cause, or the limit an oom reached
            **(_startup_facts() if not intake.ready else {}),
        )

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

    def _read(self, key: selectors.SelectorKey, sel: selectors.BaseSelector, intake: Intake) -> Iterator[object]:
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
            yield from intake.feed_events(data)
        else:
            out = intake.feed_output(key.data, data)
            if out is not None:
                yield out
