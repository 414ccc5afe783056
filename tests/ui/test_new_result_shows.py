"""What changed is on screen (issue 25, item 4): a new run shows its verdict line, F3 shows its hint."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Markdown

from tutor.course import read_course
from tutor.sandbox.events import Output
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
SIZE = (80, 24)


def on_screen(scroll, widget) -> bool:
    """Is the top row of `widget` inside the visible part of `scroll`?"""
    y = widget.region.y - scroll.region.y
    return 0 <= y < scroll.region.height


def test_a_new_run_shows_its_verdict_however_far_its_output_was_scrolled(home, fake_sandbox, tui):
    """The program prints a lot, the learner reads to its end, then the verdict comes: it is shown."""
    ex = COURSE.exercise("pure-scale")
    if ex is None:
        pytest.skip("exercise pure-scale is not in the course")
    long_output = "".join(f"line {i}\n" for i in range(200))
    passing = fake_sandbox.checks(ex)
    fake_sandbox.script(
        ex.id,
        Output("stdout", long_output),
        *passing,
        fake_sandbox.verdict("pass", passing, stdout=long_output),
        delay=0.4,
    )
    app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            results = screen.results
            await pilot.press("f5")
            await tui.until(pilot, lambda: results.output, 10, "the program's output")
            results.scroll_end(animate=False)
            await tui.until(pilot, lambda: results.scroll_y > 50, 5, "the end of the output")
            await tui.until(pilot, lambda: results.verdict is not None, 20, "the verdict")
            for _ in range(3):
                await pilot.pause()
            assert results.verdict.passed
            assert on_screen(results, results.query_one("#verdict")), results.scroll_y

    asyncio.run(body())


def test_f3_from_the_code_shows_the_new_hint(home, fake_sandbox, tui):
    ex = max((e for e in COURSE.exercises if len(e.hints) >= 2), key=lambda e: len(e.prompt.en), default=None)
    if ex is None:
        pytest.skip("no exercise with hints")
    app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            hints = screen.query_one("#hints", Markdown)
            for n in (1, 2):  # the second hint: the Markdown grows after the first was scrolled to
                await pilot.press("f2")
                await tui.until(pilot, lambda: screen.query_one("#ex-tabs").active == "code", 5, "the code view")
                await pilot.press("f3")
                title = f"Hint {n} of {len(ex.hints)}"
                await tui.until(pilot, lambda: title in hints.source, 5, "the hint")
                for _ in range(3):
                    await pilot.pause()
                if n == 1:  # the learner reads the task from its top again
                    screen.query_one("#task-scroll").scroll_home(animate=False)
            await tui.until(pilot, lambda: hints.children, 5, "the hint's blocks")
            for _ in range(3):
                await pilot.pause()
            assert screen.query_one("#ex-tabs").active == "task"
            block = next(b for b in hints.children if str(b._content).strip() == title)
            assert on_screen(screen.query_one("#task-scroll"), block)

    asyncio.run(body())
