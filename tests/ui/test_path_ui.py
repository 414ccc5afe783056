"""A learner walks the whole chapter with the `c` key only: every lesson, its checkpoint and its
exercises in order, then the quiz. The first exercise is solved the way a learner with their own
editor does it: the solution is saved into the workspace file, the tutor re-checks it, then `c`;
the others are recorded as passed, as a `check` in another terminal would. Every checkpoint and
quiz question is answered right."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tutor.course import read_course
from tutor.progress import changes
from tutor.progress.path import Step, course_path
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
DEADLINE_S = 180


def test_the_c_key_walks_the_whole_path(home, sandbox, tui, answer_every_prediction):
    from tutor.ui.screens.exercise import ExerciseScreen
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.screens.progress import ProgressScreen
    from tutor.ui.screens.quiz import QuizScreen

    path = course_path(COURSE)
    # A learner who made every prediction: `c` over one never made asks first (test_skip_predictions)
    answer_every_prediction(home)

    def where(screen) -> Step | None:
        return getattr(screen, "here", None) if not isinstance(screen, ProgressScreen) else Step("progress")

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=sandbox)
        app.marks = Marks(ascii_only=False)
        visited, solved_for_real = [], []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("c")
            for expected in path:
                await tui.until(
                    pilot, lambda: where(app.screen) == expected, timeout=DEADLINE_S, what=f"{expected.key} to open"
                )
                visited.append(expected)
                screen = app.screen
                if isinstance(screen, LessonScreen):
                    # the lesson's end names the next step, so the learner knows what `c` does
                    await tui.until(
                        pilot,
                        lambda: (
                            "Press c to go on" in str(screen.query_one("#lesson-end").content)
                            or "last step" in str(screen.query_one("#lesson-end").content)
                        ),
                        timeout=DEADLINE_S,
                        what="the lesson end",
                    )
                elif isinstance(screen, ExerciseScreen) and not solved_for_real:
                    solution = COURSE.solution_path(expected.id).read_text(encoding="utf-8")
                    (home / "workspace" / f"{expected.id}.py").write_text(solution, encoding="utf-8")
                    await tui.until(
                        pilot,
                        lambda: screen.verdict is not None and screen.verdict.passed,
                        timeout=DEADLINE_S,
                        what=f"{expected.id} to pass after the file was saved",
                    )
                    solved_for_real.append(expected.id)
                elif isinstance(screen, ExerciseScreen):
                    # The others count as passed as `check` in another terminal would record them:
                    # every solution passing is verify's job, this test walks the path.
                    app.session.store.apply(changes.attempt, expected.id, True)
                    await tui.until(
                        pilot,
                        lambda: app.session.progress.exercise_status(expected.id) == "passed",
                        timeout=DEADLINE_S,
                        what="the screen to see the pass",
                    )  # it looks at progress.json off the UI thread
                elif isinstance(screen, QuizScreen):
                    # Every answer right: a checkpoint with a wrong one is not done, and `c` would
                    # come back to it. A template's number is the one its worker printed.
                    while not screen.finished:
                        q = screen.question
                        if q.numeric:
                            await tui.until(pilot, lambda: screen.verdict is not None, DEADLINE_S, f"{q.id}'s answer")
                            await pilot.press(*screen.computed, "enter", "enter")
                        else:
                            await pilot.press(screen.shown(q.answer).lower(), "enter", "enter")
                        await pilot.pause()
                await pilot.press("c")
            await tui.until(
                pilot,
                lambda: isinstance(app.screen, ProgressScreen),
                timeout=DEADLINE_S,
                what="the progress screen at the end",
            )
        assert visited == path
        data = app.session.store.load()  # what reached the disk
        assert all(data.exercises[e.id].status == "passed" for e in COURSE.exercises)
        assert all(data.lessons[lesson.id].status == "done" for lesson in COURSE.lessons)
        assert data.quiz.best_score is not None and len(data.quiz.answers) == len(COURSE.quiz)

    asyncio.run(body())


def test_continue_resumes_where_the_learner_left_off(home, sandbox, tui):
    """The outline's `c` goes back to the step last opened, across a restart of the tutor."""
    target = next(s for s in course_path(COURSE) if s.kind == "exercise" and s != course_path(COURSE)[1])

    async def session(action):
        app = make_app(home, "en", course=(COURSE, []), sandbox=sandbox)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await action(app, pilot)

    async def open_target(app, pilot):
        app.open_step(target)
        await tui.until(
            pilot, lambda: getattr(app.screen, "here", None) == target, timeout=DEADLINE_S, what="the exercise"
        )
        await tui.until(
            pilot,
            lambda: app.session.store.load().position == target.key,
            timeout=DEADLINE_S,
            what="the position to be saved",
        )

    async def press_c(app, pilot):
        assert COURSE.exercise(target.id).title.en in str(app.screen.query_one("#continue").content)
        await pilot.press("c")
        await tui.until(
            pilot,
            lambda: getattr(app.screen, "here", None) == target,
            timeout=DEADLINE_S,
            what="continue to reopen the exercise",
        )

    asyncio.run(session(open_target))
    asyncio.run(session(press_c))


def test_c_pressed_while_the_course_loads_opens_the_first_step(home, sandbox, tui, monkeypatch):
    """A learner who types `c` the moment the outline appears (the course is parsed off the UI
    thread) lands on the first lesson once it has loaded, not on the progress screen."""
    import threading

    import tutor.course

    first = course_path(COURSE)[0]
    # The real parse, held until the key is in: on a quiet machine it can finish before the first key.
    key_pressed = threading.Event()
    real_read = tutor.course.read_course

    def read_after_the_key(root):
        key_pressed.wait(60)
        return real_read(root)

    monkeypatch.setattr(tutor.course, "read_course", read_after_the_key)

    async def body():
        app = make_app(home, "en", sandbox=sandbox)  # no course given: the app loads it itself
        async with app.run_test(size=(80, 24)) as pilot:
            assert app.session.course is None, "the course loaded before the first key: nothing was tested"
            await pilot.press("c")
            key_pressed.set()
            await tui.until(pilot, lambda: app.session.course is not None, timeout=60, what="the course to load")
            await tui.until(
                pilot, lambda: getattr(app.screen, "here", None) == first, timeout=30, what=f"{first.key} to open"
            )

    asyncio.run(body())
