"""A run reaches its view through one owner (tutor.ui.runs.RunView): each event as the dataclass
Message of its kind, only the run on show let through, one cancel for a run replaced or left."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from types import SimpleNamespace

from textual.app import App
from textual.widgets import Static

from tutor.i18n import Bilingual
from tutor.protocol import CellJob, CellResult, CheckResult, MetricPoints
from tutor.sandbox.events import Output, Verdict
from tutor.ui.runs import RunCheck, RunFinished, RunHandle, RunMetrics, RunOutput, RunView, message_for


def verdict(text: str, kind: str = "expectation") -> Verdict:
    return Verdict("pass", kind, Bilingual.same(text), [], text, "", 0.1, {})


def test_one_message_class_per_event_type():
    handle = RunHandle()
    cases = [
        (Output("stdout", "hi\n"), RunOutput, "output"),
        (MetricPoints((("loss", 0, 1.0),)), RunMetrics, "metrics"),
        (CheckResult("a", "pass", Bilingual.same("")), RunCheck, "check"),
        (verdict("ok"), RunFinished, "verdict"),
    ]
    for event, kind, field in cases:
        message = message_for(handle, event)
        assert type(message) is kind and getattr(message, field) is event and message.handle is handle
        assert [f.name for f in dataclasses.fields(message)] == ["handle", field]  # declared, not hand-written
        assert (
            message.handler_name
            == "on_"
            + {"output": "run_output", "metrics": "run_metrics", "check": "run_check", "verdict": "run_finished"}[field]
        )
        assert not message.bubble  # for the view that started the run only
    # a cell's result comes with the verdict, not on its own
    assert message_for(handle, CellResult(None, (), "", "")) is None


class FakeRun:
    """A run that says `first`, then waits at its gate (opened by the test or by cancel) before it
    says `last` and its verdict."""

    def __init__(self, first: str, last: str):
        self.first, self.last = first, last
        self.gate = threading.Event()
        self.cancelled = False
        self.verdict = None
        self.job = CellJob(id="c", code="")

    def events(self):
        yield Output("stdout", self.first)
        self.gate.wait(30)
        yield Output("stdout", self.last)
        self.verdict = verdict(self.last, "cancelled" if self.cancelled else "expectation")
        yield self.verdict

    def cancel(self):
        self.cancelled = True
        self.gate.set()


class View(RunView, Static):
    def __init__(self):
        super().__init__()
        self.got: list[object] = []

    def run_output(self, output: Output) -> None:
        self.got.append(output.text)

    def run_finished(self, verdict: Verdict) -> None:
        self.got.append(verdict)


class Host(App):
    def __init__(self):
        super().__init__()
        self.session = SimpleNamespace(runs=set(), worker_wanted=lambda: None, worker_warm=lambda: True)


async def until(pilot, condition, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.02)


def test_a_run_replaced_is_cancelled_and_nothing_more_of_it_reaches_the_view():
    async def go():
        app = Host()
        async with app.run_test() as pilot:
            view = View()
            await app.mount(view)
            old, new = FakeRun("old 1", "old 2"), FakeRun("new 1", "new 2")
            first = view.start_run(lambda: old)
            await until(pilot, lambda: view.got == ["old 1"] and first.run is old, "the first run's output")
            assert view.run_going
            second = view.start_run(lambda: new)
            assert old.cancelled and view.handle is second  # one cancel, by the owner
            new.gate.set()
            await until(pilot, lambda: not view.run_going, "the second run's verdict")
            await until(pilot, lambda: first.finished, "the first run's thread to end")
            for _ in range(5):  # anything of the first run still queued is handled by now
                await pilot.pause()
            assert view.got[:-1] == ["old 1", "new 1", "new 2"]  # not "old 2", not its verdict
            assert view.got[-1] is new.verdict and second.verdict is new.verdict
            assert app.session.runs == set()

    asyncio.run(go())


def test_a_worker_that_cannot_be_started_ends_in_the_verdict_decide_gives():
    def no_worker():
        raise OSError(28, "No space left on device")

    async def go():
        app = Host()
        async with app.run_test() as pilot:
            view = View()
            await app.mount(view)
            view.start_run(no_worker)
            await until(pilot, lambda: not view.run_going, "the verdict")
            (shown,) = view.got
            assert (shown.status, shown.kind) == ("error", "spawn")
            assert "No space left on device" in shown.message.en and "No space left on device" in shown.message.zh

    asyncio.run(go())


def test_a_view_that_goes_away_cancels_its_run():
    async def go():
        app = Host()
        async with app.run_test() as pilot:
            view = View()
            await app.mount(view)
            run = FakeRun("1", "2")
            handle = view.start_run(lambda: run)
            await until(pilot, lambda: handle.run is run, "the run to be taken")
            await view.remove()
            await until(pilot, lambda: handle.finished, "the run's thread to end")
            assert run.cancelled and handle.cancelled

    asyncio.run(go())


def test_every_verdict_is_made_by_decide():
    """No screen or runner builds a verdict of its own (the TUI's spawn and read failures used to):
    the one call that makes a Verdict is in tutor.sandbox.verdict.decide."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "tutor"
    makers = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Verdict":
                makers.append(f"{path.relative_to(root)}:{node.lineno}")
    assert [m.split(":")[0] for m in makers] == ["sandbox/verdict.py"], makers
