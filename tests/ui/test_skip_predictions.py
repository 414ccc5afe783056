"""`c` over questions never answered (issue 52, item 7): it passed over every open prediction and
marked the lesson ✓, the hidden rest never shown. Now the first `c` says how many are open and what
skipping means; a second goes on, and the lesson stays ◐ (started), listed on the progress screen.
Answering them all, then `c`, finishes it as before."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.screens.lesson import LessonScreen

COURSE, _ = read_course(Path(__file__).resolve().parents[2])
LESSON = next(l for l in COURSE.lessons if any(c.predict for c in l.cells))
OPEN = [c.id for c in LESSON.cells if c.predict is not None]


async def open_lesson(tui, pilot, lesson) -> LessonScreen:
    pilot.app.open_step(Step("lesson", lesson.id))
    await tui.until(pilot, lambda: getattr(pilot.app.screen, "lesson", None) is lesson, 10, "the lesson")
    screen = pilot.app.screen
    await tui.until(pilot, lambda: screen.revealed, 60, "the lesson shown up to its gate")
    return screen


def notices(app) -> list[str]:
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, *a, **k: (said.append(str(message)), notify(message, *a, **k))[1]
    return said


def test_c_asks_once_then_goes_on_and_the_lesson_stays_started(home, fake_sandbox, tui):
    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            screen = await open_lesson(tui, pilot, LESSON)
            said = notices(app)
            await pilot.press("c")
            await tui.until(pilot, lambda: said, 10, "the word on skipping")
            assert f"not answered yet in this section: {len(OPEN)}" in said[0], said
            assert app.screen is screen  # the first c stays
            await pilot.press("c")
            await tui.until(pilot, lambda: app.screen is not screen, 20, "the next step")
            record = tui.progress(home, app)
            assert record["lessons"][LESSON.id]["status"] == "started"
            assert not set(OPEN) & set(record.get("predictions", {}))
            app.open_step(Step("progress", ""))

            def head() -> str:
                found = app.screen.query("#progress-quiz")
                return tui.plain(found.first()) if found else ""

            await tui.until(pilot, lambda: "Questions before a run not answered" in head(), 20, "the list")
            assert f"{LESSON.id} ({len(OPEN)})" in head(), head()

    asyncio.run(body())


def test_with_every_question_answered_c_finishes_the_lesson(home, fake_sandbox, tui, answer_every_prediction):
    answer_every_prediction(home)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            screen = await open_lesson(tui, pilot, LESSON)
            said = notices(app)
            await pilot.press("c")
            await tui.until(pilot, lambda: app.screen is not screen, 20, "the next step")
            assert not any("not answered" in s for s in said), said
            assert tui.progress(home, app)["lessons"][LESSON.id]["status"] == "done"
            assert isinstance(screen, LessonScreen)

    asyncio.run(body())
