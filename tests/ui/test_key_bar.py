"""The key bar (tutor.ui.widgets.key_bar): the screen's keys on one line, in the learner's language,
following the focus, and a click on a key presses it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.widgets.cell_view import CellView
from tutor.ui.widgets.key_bar import KeyBar

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def _bar(app) -> tuple[list, str]:
    bar = app.screen.query_one(KeyBar)
    return bar.keys(), bar.render().plain


def test_the_bar_shows_the_screens_keys_follows_focus_and_language_and_a_click_presses(home, fake_sandbox, tui):
    lesson = next(lesson for lesson in COURSE.lessons if lesson.cells)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            await pilot.pause()
            keys, line = _bar(app)
            assert line.startswith("c Continue p Progress"), line
            palette = keys[-1]
            assert palette.description == "Search" and palette.end == 79 and line.rstrip().endswith("Search")
            assert all(a.end < b.start for a, b in zip(keys, keys[1:])), keys  # none overlaps another
            await pilot.press("ctrl+l")
            await pilot.pause()
            assert "继续" in _bar(app)[1] and "Continue" not in _bar(app)[1]
            await pilot.press("ctrl+l")
            await pilot.pause()

            progress_key = next(k for k in _bar(app)[0] if k.description == "Progress")
            await pilot.click(KeyBar, offset=(progress_key.start + 2, 0))
            await tui.until(pilot, lambda: type(app.screen).__name__ == "ProgressScreen", 5, "the progress screen")
            await pilot.press("escape")

            app.open_step(Step("lesson", lesson.id))
            await tui.until(pilot, lambda: getattr(app.screen, "revealed", False), 10, "the lesson")
            assert "Edit" not in _bar(app)[1]  # a cell's own keys only while it has the focus
            app.screen.query(CellView).first().focus(scroll_visible=False)
            await pilot.pause()
            assert "e Edit" in _bar(app)[1], _bar(app)[1]

    asyncio.run(body())
