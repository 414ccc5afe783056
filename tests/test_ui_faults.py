"""Misbehaving learner programs checked through the TUI's own runner (thread + messages):
each reaches its named outcome on screen, is counted as an attempt, and never passes."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

pytest.importorskip("textual")

from conftest import ROOT  # noqa: E402
from test_ui import COURSE, SIZE, check, open_exercise, plain, progress, until  # noqa: E402
from tutor.ui.app import make_app  # noqa: E402
from tutor.ui.marks import Marks  # noqa: E402

FAULTS = Path(__file__).resolve().parent / "faults"
SHORT_TIMEOUT_S = 5.0

CASES = [  # program, status, kind
    ("loop_python", "timeout", "timeout"),
    ("segfault", "error", "signal"),
    ("os_exit", "error", "exit"),
    ("mem_numpy", "error", "oom"),
    ("fake_verdict", "fail", "checks"),
    ("flood", "error", "output-limit"),
]


def short_course():
    """The shipped course with counter-jit's time limit cut, so a hang ends quickly."""
    exercises = tuple(dataclasses.replace(e, timeout=SHORT_TIMEOUT_S) if e.id == "counter-jit" else e
                      for e in COURSE.exercises)
    return dataclasses.replace(COURSE, exercises=exercises)


@pytest.mark.parametrize("name, status, kind", CASES)
def test_fault_through_the_tui(name, status, kind, home, sandbox):
    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    (workspace / "counter-jit.py").write_text((FAULTS / f"{name}.py").read_text())

    async def body():
        app = make_app(home, "en", course=(short_course(), []), sandbox=sandbox)
        app.marks = Marks(ascii_only=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_exercise(pilot, "counter-jit")
            verdict = await check(pilot, screen)
            assert (verdict.status, verdict.kind) == (status, kind), verdict.message
            shown = plain(screen.query_one("#verdict"))
            assert verdict.message["en"].splitlines()[0][:30] in shown.replace("\n", " ")
            record = progress(home)["exercises"]["counter-jit"]
            assert record["attempts"] == 1 and record["status"] == "attempted"
            # The UI is still alive and the next check works: the reference solution passes.
            screen.editor.load_text((ROOT / "solutions" / "counter-jit.py").read_text())  # as if typed
            await pilot.pause()
            await pilot.press("f5")
            await until(pilot, lambda: screen.verdict is not None and screen.verdict is not verdict, what="the 2nd verdict")
            again = screen.verdict
            assert again.status == "pass", again.message
            assert progress(home)["exercises"]["counter-jit"]["status"] == "passed"

    asyncio.run(body())
