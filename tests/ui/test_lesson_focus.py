"""In a lesson, Enter runs the cell the learner is looking at and focus follows the view (issue 25, item 2).
The learner here answered every prediction before (answer_every_prediction), so each lesson shows
whole; what an open question holds back is test_lesson_gate.py's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.containers import VerticalScroll

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.widgets.cell_view import CellView

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
SIZE = (80, 24)


def lesson_with_cells(n: int):
    lesson = max(COURSE.lessons, key=lambda l: len(l.cells))
    if len(lesson.cells) < n:
        pytest.skip(f"needs a lesson with {n} cells")
    return lesson


async def open_lesson(tui, pilot, lesson):
    app = pilot.app
    app.open_step(Step("lesson", lesson.id))
    await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is lesson, 10, "the lesson")
    screen = app.screen
    await tui.until(pilot, lambda: screen.query(CellView), 10, "the lesson's cells")
    await tui.where_shown(pilot, screen, screen.query(CellView).first())  # every text laid out
    return screen, screen.query_one("#lesson-body", VerticalScroll), list(screen.query(CellView))


async def scroll_to(pilot, body, y: int) -> None:
    body.scroll_to(y=y, animate=False)
    for _ in range(3):
        await pilot.pause()


def rows_shown(body, cell) -> int:
    top, bottom = body.scroll_y, body.scroll_y + body.scrollable_content_region.height
    return max(0, min(bottom, cell.virtual_region.bottom) - max(top, cell.virtual_region.y))


async def run_by_enter(tui, pilot, cell) -> None:
    await pilot.press("enter")
    # Keys wait for the lesson to be whole (under load, a while): then the cell asks or runs.
    await tui.until(pilot, lambda: cell.asking or cell.verdict is not None, 20, f"cell {cell.cell.id} to take Enter")
    if cell.asking:
        await pilot.press("escape")  # its predict question: skipped, so it runs
    await tui.until(pilot, lambda: cell.verdict is not None, 20, f"cell {cell.cell.id} to run")


def test_enter_runs_a_cell_whose_bottom_alone_is_on_screen(home, fake_sandbox, tui, answer_every_prediction):
    lesson = lesson_with_cells(2)
    answer_every_prediction(home)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen, body_, cells = await open_lesson(tui, pilot, lesson)
            for cell in cells:  # a cell followed by text: its last rows at the top, no other cell shown
                await scroll_to(pilot, body_, cell.virtual_region.bottom - 3)
                if body_.scroll_y == cell.virtual_region.bottom - 3 and not any(
                    rows_shown(body_, c) for c in cells if c is not cell
                ):
                    break
            else:
                pytest.skip("no cell is followed by a screenful of text")
            assert rows_shown(body_, cell) == 3
            await run_by_enter(tui, pilot, cell)
            assert all(c.verdict is None for c in cells if c is not cell)

    asyncio.run(body())


def test_after_paging_on_enter_runs_the_new_cell_not_the_old_one(home, fake_sandbox, tui, answer_every_prediction):
    lesson = lesson_with_cells(2)
    answer_every_prediction(home)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen, body_, cells = await open_lesson(tui, pilot, lesson)
            first, second = cells[0], cells[1]
            await pilot.press("tab")
            assert app.focused is first
            await run_by_enter(tui, pilot, first)
            await scroll_to(pilot, body_, second.virtual_region.y)  # read on, as PageDown would
            assert not rows_shown(body_, first) and rows_shown(body_, second)
            assert app.focused is not first  # the focus left with the view
            await run_by_enter(tui, pilot, second)
            assert body_.scroll_y >= first.virtual_region.bottom  # the view stayed where the learner is

    asyncio.run(body())


def test_tab_after_home_starts_from_the_top(home, fake_sandbox, tui, answer_every_prediction):
    lesson = lesson_with_cells(3)
    answer_every_prediction(home)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen, body_, cells = await open_lesson(tui, pilot, lesson)
            await pilot.press("tab", "tab", "tab")
            assert app.focused is cells[2]
            await pilot.press("home")
            await tui.until(pilot, lambda: body_.scroll_y == 0, 5, "the top")
            await pilot.press("tab")
            assert app.focused is cells[0]
            await pilot.press("end")
            await tui.until(pilot, lambda: body_.scroll_y == body_.max_scroll_y, 5, "the end")
            await pilot.press("shift+tab")
            assert app.focused is cells[-1]

    asyncio.run(body())
