"""Ctrl+P lists the course in its own order: 6.1, 6.2, ..., 6.10, not sorted as text."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.command import CommandPalette
from textual.widgets import OptionList

from tutor.course import read_course
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def test_the_palette_lists_lessons_in_course_order(home, fake_sandbox, tui):
    async def go():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=(80, 40)) as pilot:
            await pilot.press("ctrl+p")
            await tui.until(pilot, lambda: isinstance(app.screen, CommandPalette), 10, "the palette")
            options = app.screen.query_one(OptionList)
            await tui.until(pilot, lambda: options.option_count > len(COURSE.lessons), 10, "the palette's list")
            shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            lessons = [next(line for line in shown if line.startswith(f"{lesson.id} ")) for lesson in COURSE.lessons]
            assert [shown.index(line) for line in lessons] == sorted(shown.index(line) for line in lessons), shown

    asyncio.run(go())


def test_the_palette_asks_in_the_learners_language(home, fake_sandbox, tui):
    """Its search prompt is Textual's English 'Search for commands…' unless the tutor words it."""

    async def go():
        from textual.widgets import Input

        app = make_app(home, "zh", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+p")
            await tui.until(pilot, lambda: isinstance(app.screen, CommandPalette), 10, "the palette")
            prompt = app.screen.query_one(Input).placeholder
            assert prompt.startswith("搜索") and "Search" not in prompt, prompt

    asyncio.run(go())
