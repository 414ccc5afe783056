"""A lesson is shown in reading order from its first frame (issue 25, item 3): a Markdown text lays
itself out after mounting, seconds later on a busy machine, while a cell appears at once; no cell
is ever on screen while a text above it is still empty, and a key pressed early acts on the whole
lesson. The busy machine is stood in for by a Markdown that takes 0.4 s to lay out."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from textual.await_complete import AwaitComplete
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.widgets.cell_view import CellView

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
SIZE = (80, 24)
LAYOUT_DELAY_S = 0.4


def _slow_markdown(monkeypatch):
    update = Markdown.update

    def slow(self, markdown):
        async def later():
            await asyncio.sleep(LAYOUT_DELAY_S)
            await update(self, markdown)

        return AwaitComplete(later())

    monkeypatch.setattr(Markdown, "update", slow)


def _out_of_order(screen) -> list[str]:
    """Cells shown below a text that is not laid out yet (shown, or hidden, with no blocks)."""
    wrong, waiting = [], []
    for widget in screen.query_one("#lesson-body", VerticalScroll).children:
        if isinstance(widget, Markdown) and (not widget.display or not widget.children):
            waiting.append(widget.id)
        elif isinstance(widget, CellView) and widget.display and waiting:
            wrong.append(f"{widget.id} shown below {waiting[0]}")
    return wrong


async def _settled(pilot, body) -> float:
    """scroll_y once a scroll animation has ended."""
    last = None
    while last != body.scroll_y:
        last = body.scroll_y
        await asyncio.sleep(0.15)
        await pilot.pause()
    return body.scroll_y


def test_no_cell_is_shown_before_the_text_above_it_and_an_early_page_down_waits(home, fake_sandbox, tui, monkeypatch):
    _slow_markdown(monkeypatch)
    lesson = COURSE.lessons[0]
    assert lesson.blocks[0].text is not None and any(b.cell for b in lesson.blocks)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            app.open_step(Step("lesson", lesson.id))
            await pilot.press("pagedown")  # as soon as the learner sees the lesson begin
            seen = []
            deadline = time.monotonic() + 60  # a ceiling: the watch ends once the lesson shows whole
            while time.monotonic() < deadline:
                await asyncio.sleep(0.02)
                screen = app.screen
                if getattr(screen, "lesson", None) is lesson:
                    seen += _out_of_order(screen)
                    if getattr(screen, "revealed", True) and not _out_of_order(screen):
                        break
            else:
                raise AssertionError(f"lesson {lesson.id} never showed whole in order")
            assert not seen, seen[:5]
            screen = app.screen
            body = screen.query_one("#lesson-body", VerticalScroll)
            await pilot.pause()
            # The early PageDown scrolled the whole lesson by one page, as it does once laid out.
            early = await _settled(pilot, body)
            assert early > 0, "the early PageDown was lost"
            body.scroll_home(animate=False)
            await pilot.pause()
            await pilot.press("pagedown")
            assert abs(early - await _settled(pilot, body)) <= 1

    asyncio.run(body())
