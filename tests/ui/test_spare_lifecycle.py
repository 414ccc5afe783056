"""A spare worker only where code runs: none on the outline, progress or quiz; one made ready when a
lesson with cells or an exercise opens; given back when none was wanted for a while."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui import app as app_module
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def new_app(home, sandbox):
    return make_app(home, "en", course=(COURSE, []), sandbox=sandbox)


def test_the_outline_progress_and_quiz_ask_for_no_worker(home, fake_sandbox, tui):
    async def go():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            for _ in range(5):
                await pilot.pause()
            assert fake_sandbox.warmed == 0, "the outline made a worker ready"
            app.open_step(Step("progress", ""))
            await pilot.pause()
            app.open_step(Step("quiz", ""))
            for _ in range(3):
                await pilot.pause()
            assert fake_sandbox.warmed == 0, f"{type(app.screen).__name__} made a worker ready"

    asyncio.run(go())


def test_a_lesson_with_cells_and_an_exercise_make_one_ready(home, fake_sandbox, tui):
    with_cells = next(lesson for lesson in COURSE.lessons if any(b.cell for b in lesson.blocks))

    async def go():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            app.open_step(Step("lesson", with_cells.id))
            await tui.until(pilot, lambda: fake_sandbox.warmed == 1, 10, "a spare asked for by the lesson")
            await tui.open_exercise(pilot, COURSE.exercises[0].id)
            await tui.until(pilot, lambda: fake_sandbox.warmed == 2, 10, "a spare asked for by the exercise")

    asyncio.run(go())


def test_an_idle_spare_is_given_back_only_away_from_code(home, fake_sandbox, tui, monkeypatch):
    monkeypatch.setattr(app_module, "WORKER_IDLE_S", 0.0)

    async def go():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            await tui.open_exercise(pilot, COURSE.exercises[0].id)
            app._give_back_idle_worker()  # on a screen that runs code: kept however long idle
            for _ in range(3):
                await pilot.pause()
            assert fake_sandbox.released == 0
            app.pop_screen()  # back to the outline
            await pilot.pause()
            app._give_back_idle_worker()
            await tui.until(pilot, lambda: fake_sandbox.released == 1, 10, "the idle spare given back")

    asyncio.run(go())


def test_served_the_workers_go_after_the_idle_time_on_any_screen(home, fake_sandbox, tui):
    """worker_idle_s (what `serve` sets): no code run for that long lets the workers go, also on an
    exercise; the tutor in a terminal keeps them while such a screen shows (the test above)."""

    async def go():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox, worker_idle_s=0.0)
        async with app.run_test(size=tui.size) as pilot:
            await tui.open_exercise(pilot, COURSE.exercises[0].id)
            await tui.until(pilot, lambda: fake_sandbox.warmed == 1, 10, "a spare asked for by the exercise")
            app._give_back_idle_worker()
            await tui.until(pilot, lambda: fake_sandbox.released == 1, 10, "the idle spare given back")

    asyncio.run(go())


def test_served_a_lesson_left_open_holds_no_worker(home, fake_sandbox, tui):
    """A class on one box: a learner reading a lesson with cells holds no JAX process (issue 51,
    item 8); an exercise still makes one ready. On 92686d9 the lesson asked for a spare."""
    with_cells = next(lesson for lesson in COURSE.lessons if any(b.cell for b in lesson.blocks))

    async def go():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox, worker_idle_s=300.0)
        async with app.run_test(size=tui.size) as pilot:
            app.open_step(Step("lesson", with_cells.id))
            await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is with_cells, 10, "the lesson")
            for _ in range(5):
                await pilot.pause()
            assert fake_sandbox.warmed == 0, "a served lesson made a worker ready"
            await tui.open_exercise(pilot, COURSE.exercises[0].id)
            await tui.until(pilot, lambda: fake_sandbox.warmed == 1, 10, "a spare asked for by the exercise")

    asyncio.run(go())


def test_a_run_that_starts_python_from_nothing_says_so(home, fake_sandbox, tui, monkeypatch):
    monkeypatch.setattr(type(fake_sandbox), "warm", lambda self: False)  # as after an idle release

    async def go():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            await tui.open_exercise(pilot, COURSE.exercises[0].id)
            await pilot.press("f5")
            await tui.until(
                pilot,
                lambda: any("Starting Python" in str(n.message) for n in app._notifications),
                10,
                "the starting-Python note",
            )

    asyncio.run(go())
