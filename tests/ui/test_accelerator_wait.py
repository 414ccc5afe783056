"""With --accelerator, a check's first seconds go to opening the device (issue 37: about 8-10 s on a
TPU VM, the first check and one soon after the last): the running line says so until the first
check's result comes, and says nothing of it on the CPU."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from tutor.course import read_course
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)


def head_text(results) -> str:
    return str(results.query_one("#verdict").render())


def running_lines(home, fake_sandbox, tui, accelerator: bool) -> tuple[str, str]:
    """The running line before the first result, then after it."""
    ex = COURSE.exercise("counter-jit")
    passing = fake_sandbox.checks(ex)
    # The first result comes once the test has read the line before it, the rest once it has read it after.
    opened, read_after = threading.Event(), threading.Event()
    gates = {0: opened, 1: read_after}
    fake_sandbox.script(ex.id, *passing, fake_sandbox.verdict("pass", passing), gates=gates)
    app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox, accelerator=accelerator)
    seen: dict[str, str] = {}

    async def body():
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            results = screen.results
            await pilot.press("f5")
            await tui.until(pilot, lambda: results.running, 10, "the run")
            seen["before"] = head_text(results)
            opened.set()
            await tui.until(pilot, lambda: results.results, 10, "the first check's result")
            seen["after"] = head_text(results)
            read_after.set()
            await tui.until(pilot, lambda: results.verdict is not None, 20, "the verdict")

    asyncio.run(body())
    return seen["before"], seen["after"]


def test_the_wait_for_the_accelerator_is_named_until_the_first_result(home, fake_sandbox, tui):
    before, after = running_lines(home, fake_sandbox, tui, accelerator=True)
    assert "Checking" in before and "accelerator" in before, before
    assert "Checking" in after and "accelerator" not in after, after


def test_on_the_cpu_the_running_line_says_nothing_of_a_device(home, fake_sandbox, tui):
    before, _ = running_lines(home, fake_sandbox, tui, accelerator=False)
    assert "Checking" in before and "accelerator" not in before, before
