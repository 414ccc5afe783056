"""Runs in the sandbox, bridged to Textual, with one owner in each view: RunView.

A screen or widget that runs code mixes in RunView and calls `self.start_run(make_run)`. The run
is taken and read in a thread worker, exclusive in its view (a new run replaces the last); each
event is posted back as the dataclass Message of its kind (RunOutput, RunMetrics, RunCheck,
RunFinished: toolong's style). RunView alone decides whether a message is for the run on show
and hands it to the view's `run_output` / `run_metrics` / `run_check` / `run_finished`; it alone
cancels (`cancel_run`: asked, replaced, or the view unmounted). Every verdict, also for a worker
that could not be started or a run the tutor failed to read, is tutor.sandbox.verdict.decide's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widget import Widget

from tutor.protocol import CheckResult, MetricPoints, TraceFacts
from tutor.sandbox.events import Output, Verdict
from tutor.sandbox.verdict import Ending, decide
from tutor.ui import collector
from tutor.ui.texts import say

if TYPE_CHECKING:
    from tutor.sandbox.run import Run
    from tutor.ui.app_protocol import TutorAppLike
    from tutor.ui.session import Session

RUN_GROUP = "run"  # the thread workers of a view's runs: a new one cancels the last (exclusive)


@dataclass
class RunMessage(Message, bubble=False):
    """Something a run did; for the view that started it only (bubble=False on each kind:
    Textual sets it per class)."""

    handle: RunHandle


@dataclass
class RunOutput(RunMessage, bubble=False):
    """A chunk of the program's stdout or stderr."""

    output: Output


@dataclass
class RunMetrics(RunMessage, bubble=False):
    """Points for the live chart."""

    metrics: MetricPoints


@dataclass
class RunTrace(RunMessage, bubble=False):
    """What a check saw of one of the learner's functions as it traced (the trace panel)."""

    facts: TraceFacts


@dataclass
class RunCheck(RunMessage, bubble=False):
    """One check's result, as it arrives."""

    check: CheckResult


@dataclass
class RunFinished(RunMessage, bubble=False):
    """The verdict: always the last message of a run."""

    verdict: Verdict


_MESSAGES: dict[type, Callable[..., RunMessage]] = {
    Output: RunOutput,
    MetricPoints: RunMetrics,
    TraceFacts: RunTrace,
    CheckResult: RunCheck,
    Verdict: RunFinished,
}


def message_for(handle: RunHandle, event: object) -> RunMessage | None:
    """The Message for one event of a run (None for an event the UI does not show)."""
    for event_type, kind in _MESSAGES.items():
        if isinstance(event, event_type):
            return kind(handle, event)
    return None


class RunHandle:
    """A run in flight; `cancel()` and `stop()` may be called from any thread at any time."""

    def __init__(self) -> None:
        self.run: Run | None = None  # once taken (in the worker thread)
        self.cancelled = False
        self.finished = False  # its thread is done
        self.verdict: Verdict | None = None  # once its view has been handed the verdict

    def cancel(self) -> None:
        self.cancelled = True
        if self.run is not None:
            self.run.cancel()

    def stop(self) -> None:
        """Stop gracefully (a doctor run still reports what it saw; it waits for that, so not on
        the UI's thread); a run not yet taken is cancelled."""
        if self.run is None:
            self.cancel()
        else:
            self.run.stop()


def start_run(
    owner: Widget,
    session: Session,
    make_run: Callable[[], Run],
    before_verdict: Callable[[Verdict], None] | None = None,
) -> RunHandle:
    """Take make_run() and read its events in a thread worker of `owner` (exclusive in RUN_GROUP),
    posting each to `owner` as a RunMessage; the last is always RunFinished.

    `before_verdict` runs in the thread just before the verdict is posted (e.g. to record the
    attempt), so progress is saved before the learner sees the result; not for cancelled runs.
    """
    handle = RunHandle()
    session.runs.add(handle)

    def body() -> None:
        collector.hold()  # no full collection while its events stream in (tutor.ui.collector)
        try:
            try:
                run = make_run()
            except Exception as exc:  # noqa: BLE001 - any failure to spawn is shown, never raised
                owner.post_message(RunFinished(handle, decide(None, (), Ending(spawn_error=str(exc)))))
                return
            handle.run = run
            if handle.cancelled:  # cancelled while the worker was being taken
                run.cancel()
            seen: list[object] = []  # for a verdict if reading breaks (output left out: it is on screen)
            posted = False
            try:
                for event in run.events():
                    if not isinstance(event, Output):
                        seen.append(event)
                    if isinstance(event, Verdict):
                        # Whether it was cancelled is the verdict's to say (the runner decides it).
                        if not handle.cancelled and before_verdict is not None:
                            before_verdict(event)
                        posted = True
                    message = message_for(handle, event)
                    if message is not None:
                        owner.post_message(message)
            except Exception as exc:  # noqa: BLE001 - the screen must never wait on "Checking…" for ever
                if not posted:
                    broke = Ending(internal_error=f"{type(exc).__name__}: {exc}")
                    owner.post_message(RunFinished(handle, run.verdict or decide(run.job, seen, broke)))
        finally:
            handle.finished = True
            session.runs.discard(handle)
            collector.release()
            session.worker_wanted()  # the idle clock starts when the run ends

    owner.run_worker(body, thread=True, group=RUN_GROUP, exclusive=True, exit_on_error=False)
    return handle


# A Widget for mypy (what the mixin uses of the view it is mixed into); a plain mixin at run time.
if TYPE_CHECKING:
    _ViewBase = Widget
else:
    _ViewBase = object


class RunView(_ViewBase):
    """The run plumbing of a view that runs code, mixed in before its Textual class
    (`class ExerciseScreen(RunView, TutorScreen)`). It holds the run on show (`handle`), lets
    only that run's messages through, and cancels it when replaced or unmounted. The view says
    what it makes of them by overriding `run_output`, `run_metrics`, `run_check`, `run_finished`."""

    if TYPE_CHECKING:  # the tutor's app, named by what the views use of it (tutor.ui.app imports them)
        app: TutorAppLike

    handle: RunHandle | None = None  # the run on show: the latest started, None before any

    def start_run(
        self, make_run: Callable[[], Run], before_verdict: Callable[[Verdict], None] | None = None
    ) -> RunHandle:
        """Start a run in place of the one on show (cancelled, its messages ignored from now)."""
        self.cancel_run()
        if not self.app.session.worker_warm():
            # Its worker starts from nothing (the spare and fork server went while idle): said, so
            # that the seconds before the first output do not look like a tutor that hung.
            self.app.notify(say("starting_python", self.app.lang), timeout=6, markup=False)
        self.handle = start_run(self, self.app.session, make_run, before_verdict)
        return self.handle

    def cancel_run(self) -> None:
        """Cancel the run on show, if one is going; its verdict (cancelled) still comes."""
        if self.handle is not None and not self.handle.finished:
            self.handle.cancel()

    def forget_run(self) -> None:
        """Cancel the run on show and show none (what it was for is gone)."""
        self.cancel_run()
        self.handle = None

    @property
    def run_going(self) -> bool:
        """A run was started and its verdict has not reached the view yet."""
        return self.handle is not None and self.handle.verdict is None

    # ---- the one guard: Textual calls these by name; only the run on show gets through ----------

    def _is_current(self, message: RunMessage) -> bool:
        return message.handle is self.handle  # not a run replaced, forgotten, or of a view before

    def on_run_output(self, message: RunOutput) -> None:
        if self._is_current(message):
            self.run_output(message.output)

    def on_run_metrics(self, message: RunMetrics) -> None:
        if self._is_current(message):
            self.run_metrics(message.metrics)

    def on_run_trace(self, message: RunTrace) -> None:
        if self._is_current(message):
            self.run_trace(message.facts)

    def on_run_check(self, message: RunCheck) -> None:
        if self._is_current(message):
            self.run_check(message.check)

    def on_run_finished(self, message: RunFinished) -> None:
        if self._is_current(message):
            message.handle.verdict = message.verdict
            self.run_finished(message.verdict)

    def on_unmount(self) -> None:  # Textual calls this beside the view's own on_unmount
        self.cancel_run()

    # ---- what the view makes of its run (override what it shows) --------------------------------

    def run_output(self, output: Output) -> None:
        """A chunk of what the program printed."""

    def run_metrics(self, metrics: MetricPoints) -> None:
        """Points for the live chart."""

    def run_trace(self, facts: TraceFacts) -> None:
        """What a check saw of a function as it traced."""

    def run_check(self, check: CheckResult) -> None:
        """One check's result."""

    def run_finished(self, verdict: Verdict) -> None:
        """The verdict: the run is over."""
