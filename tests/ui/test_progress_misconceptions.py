"""The progress screen names the misconceptions the learner's latest answers still show, each with
the lesson to review and where it was answered wrong, in the learner's language; nothing before a
question that tests one is answered."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from tutor.course import read_course
from tutor.progress import ProgressStore, changes
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks
from tutor.ui.screens.progress import ProgressScreen

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def squash(text: str) -> str:
    return "".join(text.split())


async def progress_screen(tui, pilot):
    await pilot.press("p")
    await tui.until(pilot, lambda: isinstance(pilot.app.screen, ProgressScreen), 10, "the progress screen")
    return pilot.app.screen.query_one("#progress-misconceptions", Static)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_misconceptions_still_missed_are_named_with_where_to_look(home, fake_sandbox, tui, lang):
    store = ProgressStore(home)
    store.apply(changes.answer, "cp65-scan-ys-last", "4", False, False)
    store.apply(changes.answer, "cp64-leaf-count", "4", True, False)
    belief = COURSE.misconception("carry-vs-ys")
    where = {"en": "review lesson 6.5; wrong now: checkpoint 6.5", "zh": "复习第 6.5 节；目前答错：第 6.5 节小测"}[lang]

    async def body():
        app = make_app(home, lang, course=(COURSE, []), sandbox=fake_sandbox)
        app.marks = Marks(ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            shown = await progress_screen(tui, pilot)
            text = "".join(tui.plain(shown).split())  # without spaces: the screen wraps at 80 columns
            assert shown.display and shown.region.height > 0
            assert squash(f"✗ {belief.text.get(lang)}") in text, text
            assert squash(where) in text, text
            assert squash(COURSE.misconception("leaf-order").text.get(lang)) not in text, text  # answered right
            assert squash("1 of the 2" if lang == "en" else "测到的 2 个中有 1 个") in text, text

    asyncio.run(body())


def test_nothing_is_said_before_a_tagged_question_is_answered(home, fake_sandbox, tui):
    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=(80, 24)) as pilot:
            shown = await progress_screen(tui, pilot)
            assert not shown.display

    asyncio.run(body())
