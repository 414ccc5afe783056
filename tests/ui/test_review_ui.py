"""Review that comes back, as a learner meets it (Pilot at 80x24): a question answered wrong today
is not on the outline today; tomorrow (the test moves the app's clock) the outline says "1 to
review today", v asks it, and once it is answered right the line is gone until its next day."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from tutor.course import read_course
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
SMALL, _ = read_course(ROOT / "tests" / "fixtures" / "course")  # a quiz of two lettered questions
TODAY = date(2026, 12, 7)
SAY = {
    "en": ("1 to review today", "Review: 1 of 1 right", "Next review: 2026-12-11"),
    "zh": ("今天有 1 道题要复习", "复习：答对 1/1 题", "下次复习：2026-12-11"),
}


def new_app(home: Path, sandbox, lang: str, on: date):
    app = make_app(home, lang, course=(SMALL, []), sandbox=sandbox, clock=lambda: on)
    app.marks = Marks(ascii_only=True)  # NO_COLOR's glyphs
    return app


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_answer_today_is_on_tomorrows_outline_and_reviewed_with_v(home, fake_sandbox, tui, lang):
    from tutor.ui.screens.quiz import QuizScreen

    due_line, done, later = SAY[lang]
    q = SMALL.quiz[0]

    async def today():
        app = new_app(home, fake_sandbox, lang, TODAY)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("z")
            await tui.until(pilot, lambda: isinstance(app.screen, QuizScreen), 10, "the quiz")
            screen = app.screen
            wrong = next(x for x in "ABCD" if x != q.answer)
            await pilot.press(screen.shown(wrong).lower(), "enter")
            await pilot.pause()
            await pilot.press("escape")
            await tui.until(pilot, lambda: not isinstance(app.screen, QuizScreen), 10, "the outline")
            line = app.screen.query_one("#review", Static)
            assert not line.display  # the day it was answered wrong: not yet
            assert app.session.state.wait_saved(30)

    async def tomorrow():
        app = new_app(home, fake_sandbox, lang, TODAY + timedelta(days=1))
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(
                pilot,
                lambda: app.screen.query("#review") and app.screen.query_one("#review").display,
                30,
                "the review line",
            )
            line = app.screen.query_one("#review", Static)
            assert due_line in tui.plain(line)
            await pilot.press("v")
            await tui.until(pilot, lambda: isinstance(app.screen, QuizScreen), 10, "the review")
            review = app.screen
            assert [x.id for x in review.questions] == [q.id]
            asked = review.question  # the form not seen yet: a sibling where it has one
            await pilot.press(review.shown(asked.answer).lower(), "enter", "enter")
            await pilot.pause()
            assert review.finished
            end = review.query_one("#q-prompt").source
            assert done in end and later in end, end
            await pilot.press("c")
            await tui.until(pilot, lambda: not isinstance(app.screen, QuizScreen), 10, "the outline")
            await tui.until(pilot, lambda: not app.screen.query_one("#review").display, 10, "the line gone")
            assert app.session.state.wait_saved(30)

    async def after_a_wrong_review():
        """A wrong answer at the review: back tomorrow; o at the end turns the review off."""
        app = new_app(home, fake_sandbox, lang, TODAY + timedelta(days=4))
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(
                pilot,
                lambda: app.screen.query("#review") and app.screen.query_one("#review").display,
                30,
                "the review line",
            )
            await pilot.press("v")
            await tui.until(pilot, lambda: isinstance(app.screen, QuizScreen), 10, "the review")
            review = app.screen
            wrong = next(x for x in "ABCD" if x != review.question.answer)
            await pilot.press(review.shown(wrong).lower(), "enter", "enter")
            await tui.until(pilot, lambda: review.finished, 10, "the end")
            await pilot.press("o")
            await tui.until(pilot, lambda: not isinstance(app.screen, QuizScreen), 10, "the outline")
            assert app.session.state.wait_saved(30)
            assert not app.session.progress.review_on() and q.id in app.session.progress.review_items()

    asyncio.run(today())
    asyncio.run(tomorrow())
    asyncio.run(after_a_wrong_review())


COURSE, _ = read_course(ROOT)  # the shipped course: drills of each lesson, and of each belief


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_drill_today_comes_back_tomorrow_as_another_drill(home, fake_sandbox, tui, lang):
    """Lesson 6.1's first drill, its line missed today: not on today's outline; tomorrow "1 to
    review today", v asks another drill (never the one whose answer was shown), and once it is
    answered right the line is gone and the next review is 3 days on."""
    from textual.widgets import OptionList

    from tutor.ui.screens.drill import DrillScreen

    due_line, done, later = SAY[lang]
    wrong = COURSE.drills_of("6.1")[0]

    async def answer(pilot, screen, line: int, belief: str) -> None:
        await pilot.press(*str(line), "enter")
        await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
        for _ in range(next(i for i, b in enumerate(screen.choices) if b.id == belief)):
            await pilot.press("down")
        await pilot.press("enter")
        await tui.until(pilot, lambda: screen.stage == "done", 10, "the verdict")

    async def today():
        app = make_app(home, lang, course=(COURSE, []), sandbox=fake_sandbox, clock=lambda: TODAY)
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(pilot, lambda: app.session.course is not None, 10, "the course")
            await pilot.press("b")
            await tui.until(pilot, lambda: isinstance(app.screen, DrillScreen), 10, "the drills")
            screen = app.screen
            assert screen.drill == wrong
            await answer(pilot, screen, wrong.line % len(wrong.code.splitlines()) + 1, wrong.belief)
            await pilot.press("escape")
            await tui.until(pilot, lambda: not isinstance(app.screen, DrillScreen), 10, "the outline")
            assert not app.screen.query_one("#review").display  # the day it was answered wrong: not yet
            assert app.session.state.wait_saved(30)

    async def tomorrow():
        app = make_app(home, lang, course=(COURSE, []), sandbox=fake_sandbox, clock=lambda: TODAY + timedelta(days=1))
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(
                pilot,
                lambda: app.screen.query("#review") and app.screen.query_one("#review").display,
                30,
                "the review line",
            )
            assert due_line in tui.plain(app.screen.query_one("#review", Static))
            await pilot.press("v")
            await tui.until(pilot, lambda: isinstance(app.screen, DrillScreen), 10, "the review")
            screen = app.screen
            asked = screen.drill
            assert asked != wrong and asked.belief == wrong.belief, asked
            assert screen.query_one("#drill-code", OptionList).option_count == len(asked.code.splitlines())
            await answer(pilot, screen, asked.line, asked.belief)
            end = tui.plain(screen.query_one("#drill-result", Static))
            assert done in end and later in end, end
            await pilot.press("escape")
            await tui.until(pilot, lambda: not isinstance(app.screen, DrillScreen), 10, "the outline")
            await tui.until(pilot, lambda: not app.screen.query_one("#review").display, 10, "the line gone")
            assert app.session.state.wait_saved(30)
            assert app.session.progress.review_drills()[wrong.id].shown == (asked.id,)

    asyncio.run(today())
    asyncio.run(tomorrow())
