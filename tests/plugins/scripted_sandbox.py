"""A scripted sandbox for UI tests: verdicts on cue, no worker process."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from tutor.i18n import Bilingual  # standard library only: safe at collection

ROOT = Path(__file__).resolve().parents[2]


class FakeRun:
    """A run that replays scripted events, `delay` seconds apart, then its Verdict; `gates` maps an
    event's index to a threading.Event the test sets when that event may come. Like a real Run:
    `events()` ends with the Verdict, `result()` waits for it, `cancel()` may come from any thread
    and ends the run with a "cancelled" verdict; `stop()` (a doctor run's) ends the events early
    but still gives the scripted verdict."""

    def __init__(self, events: list, delay: float, gates: dict[int, threading.Event] | None = None):
        self._events, self._verdict = events[:-1], events[-1]
        self.delay = delay
        self.gates = gates or {}
        self._cancelled = threading.Event()
        self._stopped = threading.Event()
        self.verdict = None

    def _wait(self, index: int) -> bool:
        """Wait `delay`, and for the event's gate if it has one; True once the run is cancelled."""
        gate = self.gates.get(index)
        while gate is not None and not gate.wait(0.02) and not self._cancelled.is_set():
            pass
        return self._cancelled.wait(self.delay)

    def events(self):
        for index, event in enumerate(self._events):
            if self._wait(index) or self._stopped.is_set():
                break
            yield event
        verdict = replace(self._verdict)  # a run of its own: not the very object an earlier run gave
        if self._wait(len(self._events)):
            verdict = replace(
                verdict, status="error", kind="cancelled", message=Bilingual(en="Check cancelled.", zh="检查已取消。")
            )
        self.verdict = verdict
        yield verdict

    def result(self):
        for _ in self.events():
            pass
        return self.verdict

    def cancel(self) -> None:
        self._cancelled.set()

    def stop(self) -> None:
        self._stopped.set()


class FakeSandbox:
    """What the UI uses of tutor.sandbox.runner.Sandbox, with runs scripted by the test.

    `script(key, *events, delay=, gates=)` sets what the next runs of an exercise or cell (by id), or of
    a doctor script ("doctor:<file name>"), yield; the last event must be a Verdict. An unscripted cell does what its YAML declares (prints its
    `output_contains`, raises its `raises`: test_cells.py proves the real cells do); an
    unscripted exercise ends in an error verdict that names the missing script."""

    def __init__(self):
        self.scripts: dict[str, tuple[list, float, dict[int, threading.Event] | None]] = {}
        self.asked: list[tuple[str, str]] = []  # (exercise or cell id, source) of every run started
        self.doctor_options: list[dict] = []  # args, timeout and nans of every doctor run started
        self.warmed = 0
        self.released = 0
        self.closed = False

    def script(self, key: str, *events, delay: float = 0.0, gates: dict[int, threading.Event] | None = None) -> None:
        from tutor.sandbox.events import Verdict

        assert events and isinstance(events[-1], Verdict), "a script ends with its Verdict"
        self.scripts[key] = (list(events), delay, gates)

    @staticmethod
    def verdict(status: str = "pass", checks=(), kind: str = "checks", stdout: str = "", message=None, cell=None):
        from tutor.sandbox.events import Verdict

        message = message or Bilingual(en=f"{status} (scripted)", zh=f"{status}（预设）")
        return Verdict(
            status=status,
            kind=kind,
            message=message,
            checks=tuple(checks),
            stdout=stdout,
            stderr="",
            duration_s=0.01,
            metrics={},
            cell=cell,
        )

    @staticmethod
    def checks(exercise, failing: dict | None = None) -> list:
        """CheckResults for every check of `exercise`: those in `failing` (id -> Bilingual) fail."""
        from tutor.sandbox.events import CheckResult

        failing = failing or {}
        return [
            CheckResult(
                id=c.id,
                status="fail" if c.id in failing else "pass",
                message=failing.get(c.id) or Bilingual(en="ok", zh="通过"),
                name=c.name,
            )
            for c in exercise.checks
        ]

    def run_exercise(self, exercise, source: str, filename: str, timeout: float | None = None) -> FakeRun:
        self.asked.append((exercise.id, source))
        if exercise.id in self.scripts:
            return FakeRun(*self.scripts[exercise.id])
        missing = f"the fake sandbox has no script for exercise {exercise.id}"
        return FakeRun([self.verdict("error", kind="internal", message=Bilingual.same(missing))], 0.0)

    def run_cell(self, cell, timeout: float | None = None) -> FakeRun:
        self.asked.append((cell.id, cell.code))
        if cell.id in self.scripts:
            return FakeRun(*self.scripts[cell.id])
        return FakeRun(self._as_declared(cell), 0.0)

    def run_doctor(self, script, args, cwd, timeout: float, nans: bool, module=None, stdin_fd=None) -> FakeRun:
        key = f"doctor:{Path(script).name}"
        self.asked.append((key, " ".join(map(str, args))))
        self.doctor_options.append({"args": list(args), "timeout": timeout, "nans": nans})
        if key in self.scripts:
            return FakeRun(*self.scripts[key])
        missing = f"the fake sandbox has no script for {key}"
        return FakeRun([self.verdict("error", kind="internal", message=Bilingual.same(missing))], 0.0)

    def _as_declared(self, cell) -> list:
        from tutor.sandbox.events import CellResult, Output

        stdout = "".join(f"{text}\n" for text in cell.expect.output_contains)
        raised = cell.expect.raises
        result = None
        if raised:
            trace = f'Traceback (most recent call last):\n  File "<cell>", line 1\n{raised}: as declared\n'
            result = CellResult(raised=raised, exception_types=(raised,), message="as declared", traceback=trace)
        events = [Output("stdout", stdout)] if stdout else []
        return [*events, self.verdict("pass", kind="cell", stdout=stdout, cell=result)]

    def warm_up(self) -> None:
        self.warmed += 1

    def wait_ready(self, timeout: float = 120.0) -> bool:
        return True

    def release_spare(self) -> None:
        self.released += 1

    def holds_workers(self) -> bool:
        return self.warmed > self.released  # a spare asked for and not given back

    def warm(self) -> bool:
        return True

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_sandbox():
    """A FakeSandbox: hand it to make_app(sandbox=...) so the UI runs without a worker process."""
    return FakeSandbox()
