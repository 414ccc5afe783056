"""Every exercise's title whole in its screen's header at 80x24, in English and Chinese (issue 56):
the id beside it goes first, then the header's icon and clock space, then the title wraps over
more rows. Was: cut with an ellipsis past 62 columns ("Capstone: a TrainState, a donated jitted
train_step, and a…"). What is checked is what the header paints, row by row."""

from __future__ import annotations

import asyncio

import pytest
from rich.cells import cell_len
from textual.geometry import Region
from textual.widgets import Header
from textual.widgets._header import HeaderIcon, HeaderTitle

from tutor.course import read_course
from tutor.settings import course_of
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

COURSE, _ = read_course(course_of())


def painted(widget) -> list[str]:
    """The rows the widget paints, as text."""
    width, height = widget.size
    return ["".join(s.text for s in strip) for strip in widget.render_lines(Region(0, 0, width, height))]


# a title with room for its id; static-lr's, the id given up; train-state's, longer than the row beside the icon
EXERCISES = ["counter-jit", "static-lr", "train-state"]


def whole_in_header(screen, title: str, exercise_id: str, width: int) -> None:
    header = screen.query_one(Header)
    rows = painted(header.query_one(HeaderTitle))
    shown = "".join(r.strip() for r in rows)
    # whole, wrapped or not (a wrap takes the space between two words)
    assert title.replace(" ", "") in shown.replace(" ", ""), (title, rows)
    assert "…" not in shown, rows
    if cell_len(title) + 3 + len(exercise_id) <= width - 18:
        assert exercise_id in shown, rows  # room for the id: it stays
    if cell_len(title) > width - 18:  # the icon gave the title its room
        assert not header.query_one(HeaderIcon).display, rows
    assert header.size.height == len(rows) <= 3, rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_exercise_titles_are_whole_in_the_header_at_80_columns_and_narrower(home, fake_sandbox, tui, lang):
    if any(COURSE.exercise(e) is None for e in EXERCISES):
        pytest.skip(f"the course lacks one of {EXERCISES}")

    async def body():
        app = make_app(home, lang, course=(COURSE, []), sandbox=fake_sandbox)
        app.marks = Marks(ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            for exercise_id in EXERCISES:
                title = COURSE.exercise(exercise_id).title.get(lang)
                screen = await tui.open_exercise(pilot, exercise_id)
                await pilot.pause()
                whole_in_header(screen, title, exercise_id, 80)
                await pilot.resize_terminal(44, 24)  # narrower than any title: it wraps
                await tui.until(pilot, lambda: screen.size.width == 44, 10, "the resize")
                await pilot.pause()
                whole_in_header(screen, title, exercise_id, 44)
                await pilot.resize_terminal(80, 24)
                await tui.until(pilot, lambda: screen.size.width == 80, 10, "the resize")
                await pilot.pause()
                whole_in_header(screen, title, exercise_id, 80)
                await pilot.press("escape")
                await tui.until(pilot, lambda s=screen: pilot.app.screen is not s, 10, "the exercise to close")

    asyncio.run(body())
