"""Runs in the sandbox, bridged to Textual: a thread iterates Run.events(), each event becomes a message."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from textual.message import Message
from textual.widget import Widget

from tutor.sandbox.events import Verdict


class RunEvent(Message):
    """One event of a run (Output, MetricPoints, CheckResult, or the final Verdict)."""

    def __init__(self, handle: "RunHandle", event: object):
        super().__init__()
        self.handle = handle
        self.event = event


class RunHandle:
    """A run in flight; `cancel()` may be called from the UI thread at any time."""

    def __init__(self):
        self.run = None
        self.cancelled = False
        self.finished = False

    def cancel(self) -> None:
        self.cancelled = True
        if self.run is not None:
            self.run.cancel()


def _failed_to_start(exc: Exception) -> Verdict:
    message = {"en": f"could not start a worker process: {exc}", "zh": f"无法启动工作进程：{exc}"}
    return Verdict(status="error", kind="spawn", message=message, checks=[], stdout="", stderr="",
                   duration_s=0.0, metrics={})


def _broke(exc: Exception) -> Verdict:
    message = {"en": f"the tutor failed while running this check (not a fault in your code): {exc!r}",
               "zh": f"本教程在运行这次检查时自身出错（问题不在你的代码）：{exc!r}"}
    return Verdict(status="error", kind="internal", message=message, checks=[], stdout="", stderr="",
                   duration_s=0.0, metrics={})


def _as_cancelled(verdict: Verdict) -> Verdict:
    """A cancelled run's verdict. The runner may report the kill it did itself as a crash
    ("killed by signal SIGKILL") when the worker dies before it sees the cancel flag."""
    if verdict.kind == "cancelled":
        return verdict
    return replace(verdict, status="error", kind="cancelled",
                   message={"en": "the check was cancelled", "zh": "检查已取消"})


def start_run(widget: Widget, session, make_run: Callable[[], object],
              before_verdict: Callable[[Verdict], None] | None = None) -> RunHandle:
    """Start make_run() in a thread worker; events are posted to `widget` as RunEvent messages.

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
                widget.post_message(RunEvent(handle, _failed_to_start(exc)))
                return
            handle.run = run
            if handle.cancelled:  # cancelled while the worker was being taken
                run.cancel()
            posted = False
            try:
                for event in run.events():
                    if isinstance(event, Verdict):
                        if handle.cancelled:
                            event = _as_cancelled(event)
                        elif before_verdict is not None:
                            before_verdict(event)
                        posted = True
                    widget.post_message(RunEvent(handle, event))
            except Exception as exc:  # noqa: BLE001 - the screen must never wait on "Checking…" for ever
                if not posted:
                    widget.post_message(RunEvent(handle, run.verdict or _broke(exc)))
        finally:
            handle.finished = True
            session.runs.discard(handle)

    widget.run_worker(body, thread=True, group="runs", exit_on_error=False)
    return handle
