"""Runs in the sandbox, bridged to Textual: a thread iterates Run.events(), and each event is
posted as the Message of its kind (RunOutput, RunMetrics, RunCheck, RunFinished), which the
widget that started the run handles with on_run_output, on_run_metrics, ... (toolong style)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widget import Widget

from tutor.i18n import Bilingual
from tutor.protocol import CheckResult, MetricPoints
from tutor.sandbox.events import Output, Verdict

if TYPE_CHECKING:
    from tutor.sandbox.run import Run
    from tutor.ui.session import Session


class RunMessage(Message, bubble=False):
    """Something a run did; for the widget that started it only (each kind says bubble=False:
    Textual sets it per class)."""

    def __init__(self, handle: RunHandle):
        super().__init__()
        self.handle = handle


class RunOutput(RunMessage, bubble=False):
    """A chunk of the program's stdout or stderr."""

    def __init__(self, handle: RunHandle, output: Output):
        super().__init__(handle)
        self.output = output


class RunMetrics(RunMessage, bubble=False):
    """Points for the live chart."""

    def __init__(self, handle: RunHandle, metrics: MetricPoints):
        super().__init__(handle)
        self.metrics = metrics


class RunCheck(RunMessage, bubble=False):
    """One check's result, as it arrives."""

    def __init__(self, handle: RunHandle, check: CheckResult):
        super().__init__(handle)
        self.check = check


class RunFinished(RunMessage, bubble=False):
    """The verdict: always the last message of a run."""

    def __init__(self, handle: RunHandle, verdict: Verdict):
        super().__init__(handle)
        self.verdict = verdict


_MESSAGES = {Output: RunOutput, MetricPoints: RunMetrics, CheckResult: RunCheck, Verdict: RunFinished}


def message_for(handle: RunHandle, event: object) -> RunMessage | None:
    """The Message for one event of a run (None for an event the UI does not show)."""
    for event_type, kind in _MESSAGES.items():
        if isinstance(event, event_type):
            return kind(handle, event)
    return None


class RunHandle:
    """A run in flight; `cancel()` may be called from the UI thread at any time."""

    def __init__(self) -> None:
        self.run: Run | None = None
        self.cancelled = False
        self.finished = False

    def cancel(self) -> None:
        self.cancelled = True
        if self.run is not None:
            self.run.cancel()


def _failed_to_start(exc: Exception) -> Verdict:
    message = Bilingual(en=f"could not start a worker process: {exc}", zh=f"无法启动工作进程：{exc}")
    return Verdict(
        status="error", kind="spawn", message=message, checks=[], stdout="", stderr="", duration_s=0.0, metrics={}
    )


def _broke(exc: Exception) -> Verdict:
    message = Bilingual(
        en=f"the tutor failed while running this check (not a fault in your code): {exc!r}",
        zh=f"本教程在运行这次检查时自身出错（问题不在你的代码）：{exc!r}",
    )
    return Verdict(
        status="error", kind="internal", message=message, checks=[], stdout="", stderr="", duration_s=0.0, metrics={}
    )


def start_run(
    widget: Widget,
    session: Session,
    make_run: Callable[[], Run],
    before_verdict: Callable[[Verdict], None] | None = None,
) -> RunHandle:
    """Start make_run() in a thread worker; its events are posted to `widget` as RunMessages.

    `before_verdict` runs in the thread just before the verdict is posted (e.g. to record the
    attempt), so progress is saved before the learner sees the result; not for cancelled runs.
    """
    handle = RunHandle()
    session.runs.add(handle)

    def body() -> None:
        try:
            try:
                run = make_run()
            except Exception as exc:  # noqa: BLE001 - any failure to spawn is shown, never raised
                widget.post_message(RunFinished(handle, _failed_to_start(exc)))
                return
            handle.run = run
            if handle.cancelled:  # cancelled while the worker was being taken
                run.cancel()
            posted = False
            try:
                for event in run.events():
                    if isinstance(event, Verdict):
                        # Whether it was cancelled is the verdict's to say (the runner decides it).
                        if not handle.cancelled and before_verdict is not None:
                            before_verdict(event)
                        posted = True
                    message = message_for(handle, event)
                    if message is not None:
                        widget.post_message(message)
            except Exception as exc:  # noqa: BLE001 - the screen must never wait on "Checking…" for ever
                if not posted:
                    widget.post_message(RunFinished(handle, run.verdict or _broke(exc)))
        finally:
            handle.finished = True
            session.runs.discard(handle)
            session.worker_wanted()  # the idle clock starts when the run ends

    widget.run_worker(body, thread=True, group="runs", exit_on_error=False)
    return handle
