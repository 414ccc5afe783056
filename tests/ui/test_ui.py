"""The terminal UI, driven with Textual's Pilot at 80x24: a learner's day, screen by screen.

Tests are plain functions running asyncio.run(...) (no pytest-asyncio). Each uses a fresh
home and the scripted fake sandbox (conftest.py), so no worker process starts; three end-to-end
tests (a pass, a fail, a cancel) check with the session's real warm sandbox and are slow.
Waiting is done by polling on the UI's own state with a deadline, never by fixed sleeps.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest

pytest.importorskip("textual")

from tutor.course import read_course
from tutor.course.loader import Problem
from tutor.i18n import Bilingual, pick
from tutor.progress import ProgressStore, changes
from tutor.sandbox.events import Output
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)  # partial while the course is being written: use what loads
SIZE = (80, 24)


def needs_exercise(exercise_id: str):
    if COURSE.exercise(exercise_id) is None or not COURSE.solution_path(exercise_id).is_file():
        pytest.skip(f"exercise {exercise_id} is not in the course yet")
    return COURSE.exercise(exercise_id)


def revealing(prediction, value: str) -> str:
    """A line of output from which the prediction's `reveal` pattern reads `value`."""
    line = re.sub(r"(?<!\\)\((?!\?)(?:[^()\\]|\\.)*\)", lambda _: value, prediction.reveal, count=1)
    line = re.sub(r"\\[dSw]\+|\.\*\??", "0", line)  # what the pattern skips over, before the group
    line = re.sub(r"\\(.)", r"\1", line).lstrip("^")
    assert prediction.shown(line) == value, (prediction.reveal, line)
    return line + "\n"


def script_cell(fake_sandbox, cell, stdout: str) -> None:
    """The cell's runs print `stdout`, as it streams, then pass."""
    fake_sandbox.script(cell.id, Output("stdout", stdout), fake_sandbox.verdict("pass", kind="cell", stdout=stdout))


def new_app(home: Path, sandbox, lang: str = "en", problems=()):
    app = make_app(home, lang, course=(COURSE, list(problems)), sandbox=sandbox)
    app.marks = Marks(ascii_only=False)  # the same glyphs whatever the test machine's locale
    return app


# ---- outline ----------------------------------------------------------------------------------


def test_outline_lists_lessons_exercises_and_quiz(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.widgets import OptionList

            from tutor.progress.path import course_path
            from tutor.ui.screens.lesson import LessonScreen

            options = app.screen.query_one("#outline", OptionList)
            ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
            # one path: each lesson, then its checkpoint and exercises, then the quiz; a lesson's
            # spot-the-bug row ("drills:<lesson>") is beside the path, after its exercises
            steps = [i for i in ids if i and not i.startswith("drills:")]
            assert steps == [s.key for s in course_path(COURSE)]
            drills = [i for i in ids if i and i.startswith("drills:")]
            assert drills == [f"drills:{l}" for l in dict.fromkeys(d.lesson for d in COURSE.drills)]
            assert ("quiz:" in ids) == bool(COURSE.quiz)
            assert "0%" in tui.plain(app.screen.query_one("#summary"))
            if COURSE.lessons:
                await pilot.press("c")  # continue: nothing done yet, so the first lesson
                await tui.until(pilot, lambda: isinstance(app.screen, LessonScreen), 10, "the lesson")
                assert app.screen.lesson.id == COURSE.lessons[0].id
                assert tui.progress(home, app)["lessons"][COURSE.lessons[0].id]["status"] == "started"

    asyncio.run(body())


def test_course_problems_are_shown_not_raised(home, fake_sandbox, tui):
    async def body():
        problem = Problem("lessons/broken.yaml", 7, "unknown key 'titel' in lesson")
        app = new_app(home, fake_sandbox, problems=[problem])
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.outline import OutlineScreen
            from tutor.ui.screens.problems import ProblemsScreen

            await tui.until(pilot, lambda: isinstance(app.screen, ProblemsScreen), 10, "the problems screen")
            assert "lessons/broken.yaml:7: unknown key 'titel'" in tui.plain(app.screen.query_one("#problems"))
            await pilot.press("enter")  # what loaded can still be used
            await tui.until(pilot, lambda: isinstance(app.screen, OutlineScreen), 10, "the outline")

    asyncio.run(body())


# ---- lessons ----------------------------------------------------------------------------------


def _lesson_with(pred):
    for lesson in COURSE.lessons:
        for i, cell in enumerate(lesson.cells):
            if pred(cell):
                return lesson, i
    pytest.skip("no such cell in the course yet")


def test_lesson_runs_a_cell_and_shows_its_output(home, fake_sandbox, tui, answer_every_prediction):
    lesson, index = _lesson_with(lambda c: not c.expect.raises and c.expect.output_contains and c.predict is None)
    answer_every_prediction(home)  # a returning learner: each lesson shows whole

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.progress.path import Step
            from tutor.ui.widgets.cell_view import CellView

            app.open_step(Step("lesson", lesson.id))
            await tui.until(pilot, lambda: app.screen.query(CellView), 10, "the lesson's cells")
            for _ in range(index + 1):
                await pilot.press("tab")  # Tab walks from cell to cell
            cell = app.screen.focused
            assert isinstance(cell, CellView) and cell.cell is lesson.cells[index]
            await pilot.press("enter")
            await tui.until(pilot, lambda: cell.verdict is not None, what="the cell's verdict")
            assert cell.verdict.status == "pass", pick(cell.verdict.message, "en")
            assert cell.cell.expect.output_contains[0] in tui.plain(cell.query_one(".cell-output"))
            assert "✓" in tui.plain(cell.query_one(".cell-status"))

    asyncio.run(body())


def test_wrong_way_cell_shows_the_real_error(home, fake_sandbox, tui):
    lesson, index = _lesson_with(lambda c: c.expect.raises)

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.progress.path import Step
            from tutor.ui.widgets.cell_view import CellView

            app.open_step(Step("lesson", lesson.id))
            await tui.until(pilot, lambda: app.screen.query(CellView), 10, "the lesson's cells")
            cell = list(app.screen.query(CellView))[index]
            cell.focus()
            await pilot.press("r")
            await tui.until(pilot, lambda: cell.verdict is not None, what="the cell's verdict")
            expected = cell.cell.expect.raises
            assert expected in cell.verdict.cell.exception_types
            assert expected in tui.plain(cell.query_one(".cell-status"))  # "raised TypeError (as expected)"
            assert cell.verdict.cell.raised in tui.plain(cell.query_one(".cell-output"))  # the traceback

    asyncio.run(body())


async def _open_cell(tui, pilot, app, lesson, index):
    from tutor.progress.path import Step
    from tutor.ui.widgets.cell_view import CellView

    app.open_step(Step("lesson", lesson.id))
    await tui.until(
        pilot,
        lambda: getattr(app.screen, "lesson", None) is lesson and app.screen.query(CellView),
        10,
        "the lesson's cells",
    )
    cell = list(app.screen.query(CellView))[index]
    cell.focus()
    await pilot.pause()
    return cell


def test_predict_asks_first_then_the_run_reveals_and_progress_keeps_the_guess(home, fake_sandbox, tui):
    lesson, index = _lesson_with(lambda c: c.predict is not None and c.predict.numeric)
    p = lesson.cells[index].predict
    wrong = str(int(float(p.answer)) + 1)
    script_cell(fake_sandbox, lesson.cells[index], revealing(p, p.answer))

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.lesson import LessonScreen

            cell = await _open_cell(tui, pilot, app, lesson, index)
            await pilot.press("enter")
            assert cell.asking and cell.handle is None  # asked, not run
            asked = tui.plain(cell.query_one(".cell-predict"))
            assert "Predict first" in asked and p.question.en.split("`")[0][:20] in asked
            assert not cell.query(".cell-explain")  # why it comes out so stays out of sight while asked
            await pilot.press("x", "c", *wrong, "enter")  # letters neither answer nor act on the lesson
            await tui.until(pilot, lambda: cell.verdict is not None, what="the cell's verdict")
            assert isinstance(app.screen, LessonScreen)
            if p.explain is not None:  # ...and is shown once the run is over, under the guess
                await pilot.pause()
                explain = cell.query_one(".cell-explain")
                assert explain.display and p.explain.en.strip()[:30] in explain.source
            line = tui.plain(cell.query_one(".cell-predict"))
            assert f"You predicted {wrong} — the run shows {cell.shown}" in line and "✗" in line
            assert p.is_right(p.answer, cell.shown)
            entry = tui.progress(home, app)["predictions"][cell.cell.id]
            assert (entry["answer"], entry["correct"]) == (wrong, False)
            first = cell.verdict
            await pilot.press("enter")  # already predicted: it just runs
            assert not cell.asking
            await tui.until(
                pilot, lambda: cell.verdict is not None and cell.verdict is not first, what="the second run"
            )
            assert f"You predicted {wrong}" in tui.plain(cell.query_one(".cell-predict"))
        app = new_app(home, fake_sandbox, lang="zh")  # a new session remembers the guess before any run
        async with app.run_test(size=SIZE) as pilot:
            cell = await _open_cell(tui, pilot, app, lesson, index)
            assert cell.guess == wrong and f"你预测的是 {wrong}" in tui.plain(cell.query_one(".cell-predict"))

    asyncio.run(body())


def test_predict_options_take_a_letter_and_esc_skips_without_recording(home, fake_sandbox, tui):
    lesson, index = _lesson_with(lambda c: c.predict is not None and c.predict.options)
    p = lesson.cells[index].predict
    script_cell(fake_sandbox, lesson.cells[index], revealing(p, p.options[p.answer].value))

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.lesson import LessonScreen

            cell = await _open_cell(tui, pilot, app, lesson, index)
            await pilot.press("enter")
            asked = tui.plain(cell.query_one(".cell-predict"))
            from tutor.ui.widgets.markup import inline

            assert all(f"{k}) {inline(o.label('en')).plain}" in asked for k, o in p.options.items())
            await pilot.press("escape")  # skips the question and runs; the lesson stays open
            await tui.until(pilot, lambda: cell.verdict is not None, what="the skipped cell's run")
            assert isinstance(app.screen, LessonScreen) and not cell.query_one(".cell-predict").display
            assert cell.cell.id not in tui.progress(home, app).get("predictions", {})
            await app.screen.run_action("back")
            cell = await _open_cell(tui, pilot, app, lesson, index)  # opened again: asked again
            await pilot.press("enter")
            assert cell.asking
            await pilot.press(p.answer.lower())
            await tui.until(pilot, lambda: cell.verdict is not None, what="the answered cell's run")
            line = tui.plain(cell.query_one(".cell-predict"))
            assert (
                f"You predicted {inline(p.describe(p.answer, 'en')).plain} — the run shows" in line and "Right!" in line
            )
            assert "✓" in line
            entry = tui.progress(home, app)["predictions"][cell.cell.id]
            assert (entry["answer"], entry["shown"], entry["correct"]) == (p.answer, p.options[p.answer].value, True)

    asyncio.run(body())


def test_lesson_next_and_previous_mark_progress(home, fake_sandbox, tui, answer_every_prediction):
    if len(COURSE.lessons) < 2:
        pytest.skip("needs two lessons")
    answer_every_prediction(home)  # a returning learner: each lesson shows whole

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.progress.path import Step

            first, second = COURSE.lessons[0], COURSE.lessons[1]
            app.open_step(Step("lesson", first.id))
            await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is first, 10, "the first lesson")
            await pilot.press("n")
            await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is second, 10, "the next lesson")
            # the screen exists before its on_mount has recorded it: wait for the record, not the screen
            await tui.until(
                pilot, lambda: second.id in tui.progress(home, app)["lessons"], 10, "the next lesson's record"
            )
            lessons = tui.progress(home, app)["lessons"]
            assert lessons[first.id]["status"] == "done" and lessons[second.id]["status"] == "started"
            body = app.screen.query_one("#lesson-body")

            def at_the_end() -> bool:
                # Under load the lesson's text may still be laying out, which moves the end down:
                # scroll to it again on every look, as a reader pressing End would.
                body.scroll_end(animate=False)
                return tui.progress(home, app)["lessons"][second.id]["status"] == "done"

            await tui.until(pilot, at_the_end, 60, "reaching the end to mark the lesson done")
            await pilot.press("b")
            await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is first, 10, "the previous lesson")

    asyncio.run(body())


# ---- exercises --------------------------------------------------------------------------------


def test_exercise_passes_with_the_solution_and_counts_the_attempt(home, sandbox, tui):
    exercise = needs_exercise("counter-jit")
    solution = COURSE.solution_path("counter-jit").read_text(encoding="utf-8")

    async def body():
        app = new_app(home, sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            screen.editor.load_text(solution)  # as if typed
            verdict = await tui.check(pilot, screen)
            assert verdict.passed, pick(verdict.message, "en")
            # the check saved the editor first
            assert (home / "workspace" / "counter-jit.py").read_text(encoding="utf-8") == solution
            shown = tui.plain(screen.query_one("#checks"))
            assert shown.count("✓") == len(exercise.checks) and "✗" not in shown
            assert "PASS" in tui.plain(screen.query_one("#verdict"))
            record = tui.progress(home, app)["exercises"]["counter-jit"]
            assert record["attempts"] == 1 and record["status"] == "passed"
            # the exact source that passed is kept for `export` (tests/cli/test_grade.py)
            assert (home / "passed" / "counter-jit.py").read_text(encoding="utf-8") == solution
            nxt = app.step_after(screen.here)  # after a pass, Ctrl+N moves on along the path
            assert app.step_title(nxt) in tui.plain(screen.query_one("#verdict"))
            await pilot.press("ctrl+n")
            await tui.until(pilot, lambda: getattr(app.screen, "here", None) == nxt, 10, "the next step")

    asyncio.run(body())


def test_failing_check_shows_the_cross_and_the_message(home, sandbox, tui):
    needs_exercise("counter-jit")

    async def body():
        app = new_app(home, sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")  # the starter, which must fail
            verdict = await tui.check(pilot, screen)
            assert verdict.status == "fail"
            failed = [c for c in verdict.checks if c.status == "fail"]
            assert failed
            shown = tui.plain(screen.query_one("#checks"))
            assert "✗" in shown
            first_line = pick(failed[0].message, "en").splitlines()[0]
            assert first_line[:40] in shown.replace("\n    ", " ")
            record = tui.progress(home, app)["exercises"]["counter-jit"]
            assert record["attempts"] == 1 and record["status"] == "attempted"
            assert not screen.check_action("next_exercise", ())  # no "next" before a pass

    asyncio.run(body())


def test_a_running_check_can_be_cancelled(home, sandbox, tui):
    needs_exercise("counter-jit")

    async def body():
        (home / "workspace").mkdir(parents=True)
        (home / "workspace" / "counter-jit.py").write_text("while True:\n    pass\n", encoding="utf-8")
        app = new_app(home, sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            await pilot.press("f5")
            await tui.until(pilot, lambda: screen.handle is not None and screen.handle.run is not None, 30, "the run")
            assert screen.running
            first = screen.handle
            await pilot.press("f5")  # pressed again while running: a fresh check of the same text
            await tui.until(
                pilot, lambda: screen.handle is not first and screen.handle.run is not None, 30, "the restart"
            )
            assert first.cancelled and screen.running and screen.verdict is None
            assert screen.check_action("cancel_check", ()) is True  # the footer offers Cancel now
            await pilot.press("f7")  # cancelling is its own key
            await tui.until(pilot, lambda: screen.verdict is not None, 30, "the cancelled verdict")
            assert screen.verdict.kind == "cancelled" and not screen.running
            assert "cancelled" in tui.plain(screen.query_one("#ex-status")).lower()
            # a cancelled check was not a check of the learner's code: no attempt is counted
            attempts = (
                tui.progress(home, app)["exercises"].get("counter-jit", {}).get("attempts", 0)
                if (home / "progress.json").exists()
                else 0
            )
            assert attempts == 0

    asyncio.run(body())


def test_a_streamed_failure_shows_its_output_checks_and_message(home, fake_sandbox, tui):
    """The fake tier's twin of the real failing check: events arrive one by one, as a worker's do."""
    exercise = needs_exercise("counter-jit")
    failed = exercise.checks[0]
    message = Bilingual(en="update_counter returned 0 for count 0; it should add 1", zh="计数没有加 1")
    checks = fake_sandbox.checks(exercise, failing={failed.id: message})
    fake_sandbox.script(
        "counter-jit",
        Output("stdout", "tracing update_counter\n"),
        *checks,
        fake_sandbox.verdict("fail", checks, stdout="tracing update_counter\n"),
        delay=0.05,
    )

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            verdict = await tui.check(pilot, screen)
            assert verdict.status == "fail" and fake_sandbox.asked == [("counter-jit", exercise.starter)]
            shown = tui.plain(screen.query_one("#checks"))
            assert "✗" in shown and message.en[:40] in shown.replace("\n    ", " ")
            assert "tracing update_counter" in screen.query_one("#output").content.plain
            record = tui.progress(home, app)["exercises"]["counter-jit"]
            assert record["attempts"] == 1 and record["status"] == "attempted"
            assert not screen.check_action("next_exercise", ())  # no "next" before a pass

    asyncio.run(body())


def test_a_streaming_check_is_cancelled_and_not_counted(home, fake_sandbox, tui):
    """The fake tier's twin of the real cancel: F7 while the events are still coming."""
    exercise = needs_exercise("counter-jit")
    fake_sandbox.script(
        "counter-jit",
        *[Output("stdout", f"step {i}\n") for i in range(100)],
        fake_sandbox.verdict("pass", fake_sandbox.checks(exercise)),
        delay=0.1,
    )

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            await pilot.press("f5")
            await tui.until(pilot, lambda: "step 1" in screen.query_one("#output").content.plain, 10, "the output")
            assert screen.running and screen.check_action("cancel_check", ()) is True
            await pilot.press("f7")
            await tui.until(pilot, lambda: screen.verdict is not None, 10, "the cancelled verdict")
            assert screen.verdict.kind == "cancelled" and not screen.running
            assert "step 99" not in screen.query_one("#output").content.plain
            assert "cancelled" in tui.plain(screen.query_one("#ex-status")).lower()
            assert not (home / "progress.json").exists() or "counter-jit" not in tui.progress(home, app)["exercises"]
            shown = tui.plain(screen.query_one("#verdict"))
            assert "Check cancelled." in shown and "ERROR" not in shown and "FAIL" not in shown, shown
            # Ctrl+L: the note, the verdict line and the footer's own Ctrl+P all speak Chinese
            await pilot.press("ctrl+l")
            await tui.until(pilot, lambda: "检查已取消" in tui.plain(screen.query_one("#ex-status")), 10, "the zh note")
            assert "检查已取消" in tui.plain(screen.query_one("#verdict"))
            assert app.screen.active_bindings["ctrl+p"].binding.description == "搜索"

    asyncio.run(body())


def test_saving_the_file_elsewhere_rechecks_it(home, fake_sandbox, tui):
    needs_exercise("counter-jit")
    solution = COURSE.solution_path("counter-jit").read_text(encoding="utf-8")
    fake_sandbox.script(
        "counter-jit", fake_sandbox.verdict("pass", fake_sandbox.checks(COURSE.exercise("counter-jit")))
    )

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            path = home / "workspace" / "counter-jit.py"
            path.write_text(solution, encoding="utf-8")  # another editor saves the file
            await tui.until(pilot, lambda: screen.verdict is not None, what="the automatic re-check")
            assert screen.verdict.passed and fake_sandbox.asked[-1] == ("counter-jit", solution)
            assert screen.editor.text == solution
            assert tui.progress(home, app)["exercises"]["counter-jit"]["attempts"] == 1

    asyncio.run(body())


def test_hints_are_revealed_one_by_one_and_recorded(home, fake_sandbox, tui):
    exercise = needs_exercise("counter-jit")

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.widgets import Markdown

            screen = await tui.open_exercise(pilot, "counter-jit")
            await pilot.press("f3")
            await tui.until(pilot, lambda: (home / "progress.json").exists(), 10, "progress")
            assert tui.progress(home, app)["exercises"]["counter-jit"]["hints_shown"] == 1
            await pilot.press("ctrl+g")
            await pilot.pause()
            assert tui.progress(home, app)["exercises"]["counter-jit"]["hints_shown"] == 2
            hints = screen.query_one("#hints", Markdown).source
            assert exercise.hints[0].en in hints and exercise.hints[1].en in hints
            # hints live in the task view, which is shown; nothing floats over the work
            assert screen.query_one("#ex-tabs").active == "task"
            assert not app._notifications
            for _ in range(len(exercise.hints)):
                await pilot.press("f3")
                await pilot.pause()
            assert tui.progress(home, app)["exercises"]["counter-jit"]["hints_shown"] == len(exercise.hints)

    asyncio.run(body())


def test_reset_asks_first_and_restores_the_starter(home, fake_sandbox, tui):
    exercise = needs_exercise("counter-jit")

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.confirm import ConfirmScreen

            screen = await tui.open_exercise(pilot, "counter-jit")
            path = home / "workspace" / "counter-jit.py"
            screen.editor.load_text("# my own attempt\n")
            await pilot.press("ctrl+s")
            assert path.read_text(encoding="utf-8") == "# my own attempt\n"
            await pilot.press("f8")
            await tui.until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 10, "the confirmation")
            await pilot.press("n")
            await tui.until(pilot, lambda: app.screen is screen, 10, "the exercise again")
            assert path.read_text(encoding="utf-8") == "# my own attempt\n"
            await pilot.press("f8")
            await tui.until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 10, "the confirmation")
            await pilot.press("y")
            await tui.until(pilot, lambda: screen.editor.text == exercise.starter, 10, "the starter in the editor")
            assert path.read_text(encoding="utf-8") == exercise.starter
            backups = list((home / "workspace" / ".backup").glob("counter-jit-*.py"))
            assert [b.read_text(encoding="utf-8") for b in backups] == ["# my own attempt\n"]

    asyncio.run(body())


def test_solution_before_a_pass_needs_confirmation_and_is_recorded(home, fake_sandbox, tui):
    needs_exercise("counter-jit")

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.confirm import ConfirmScreen
            from tutor.ui.screens.solution import SolutionScreen

            screen = await tui.open_exercise(pilot, "counter-jit")
            await pilot.press("f4")
            await tui.until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 10, "the confirmation")
            await pilot.press("escape")
            await tui.until(pilot, lambda: app.screen is screen, 10, "the exercise again")
            assert not (home / "progress.json").exists() or not tui.progress(home, app)["exercises"].get(
                "counter-jit", {}
            ).get("solution_viewed")
            await pilot.press("f4")
            await tui.until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 10, "the confirmation")
            await pilot.press("y")
            await tui.until(pilot, lambda: isinstance(app.screen, SolutionScreen), 10, "the solution")
            assert "def update_counter" in tui.plain(app.screen.query_one("#solution-code"))
            assert tui.progress(home, app)["exercises"]["counter-jit"]["solution_viewed"] is True

    asyncio.run(body())


# ---- language ---------------------------------------------------------------------------------


def test_language_switch_rerenders_every_text(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.widgets import OptionList

            assert app.title == "JAX state tutor"
            await pilot.press("ctrl+l")
            await pilot.pause()
            assert app.lang == "zh" and app.title == "JAX 状态管理教程"
            options = app.screen.query_one("#outline", OptionList)
            prompts = " ".join(str(options.get_option_at_index(i).prompt) for i in range(options.option_count))
            if COURSE.lessons:
                assert COURSE.lessons[0].title.zh in prompts
            labels = {b.binding.description for b in app.screen.active_bindings.values()}
            assert "进度" in labels and "Progress" not in labels
            if COURSE.exercise("counter-jit"):
                screen = await tui.open_exercise(pilot, "counter-jit")
                tabs = screen.query_one("#ex-tabs")
                assert str(tabs.get_tab("code").label) == "代码"
                await pilot.press("ctrl+l")  # works inside the exercise screen too
                await pilot.pause()
                assert str(tabs.get_tab("code").label) == "Code"
                assert screen.title == COURSE.exercise("counter-jit").title.en

    asyncio.run(body())


# ---- quiz -------------------------------------------------------------------------------------


def test_quiz_answered_right_and_wrong_then_retried(home, fake_sandbox, tui):
    if not COURSE.quiz:
        pytest.skip("the quiz is not in the course yet")
    quiz = COURSE.quiz

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.quiz import QuizScreen

            await pilot.press("z")
            await tui.until(pilot, lambda: isinstance(app.screen, QuizScreen), 10, "the quiz")
            screen = app.screen
            for i, q in enumerate(quiz):
                letter = q.answer if i == 0 else next(x for x in "ABCD" if x != q.answer)
                await pilot.press(letter.lower() if i % 2 else str("ABCD".index(letter) + 1))
                await pilot.press("enter")
                await pilot.pause()
                feedback = screen.query_one("#q-feedback").source
                assert ("Right!" in feedback) == (i == 0)
                assert q.explanations[letter].en.strip()[:30] in feedback
                if i:
                    assert q.explanations[q.answer].en.strip()[:30] in feedback
                await pilot.press("enter")
                await pilot.pause()
            assert screen.finished and screen.score == 1
            summary = screen.query_one("#q-prompt").source
            assert "To review" in summary and f"({quiz[1].answer})" not in summary  # no letters given away
            data = tui.progress(home, app)["quiz"]
            assert data["best_score"] == 1 and data["attempts"] == 1 and len(data["answers"]) == len(quiz)
            await pilot.press("r")  # retry the wrong ones, right this time
            await tui.until(pilot, lambda: app.screen is not screen and isinstance(app.screen, QuizScreen), 10, "retry")
            retry = app.screen
            assert [q.id for q in retry.questions] == [q.id for q in quiz[1:]]
            # answered before, so the options come back in a new order: letters alone do not help
            assert all(retry.orders[q.id] != ("A", "B", "C", "D") for q in retry.questions)
            for _ in retry.questions:  # each as asked now: a sibling of the one answered, where it has one
                await pilot.press(retry.shown(retry.question.answer).lower())
                await pilot.press("enter", "enter")
                await pilot.pause()
            assert retry.finished and retry.score == len(quiz)
            data = tui.progress(home, app)["quiz"]
            # A retry of the wrong ones is not a round: the best round is still the one that scored 1.
            assert data["best_score"] == 1 and data["attempts"] == 1

    asyncio.run(body())


def test_quiz_evidence_cell_runs(home, fake_sandbox, tui):
    with_evidence = [i for i, q in enumerate(COURSE.quiz) if q.evidence is not None]
    if not with_evidence:
        pytest.skip("no quiz question with an evidence cell yet")

    async def body():
        from tutor.ui.screens.quiz import QuizScreen
        from tutor.ui.widgets.cell_view import CellView

        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            q = COURSE.quiz[with_evidence[0]]
            app.push_screen(QuizScreen([q]))
            await pilot.pause()
            await pilot.press("1", "enter", "e")
            await tui.until(pilot, lambda: app.screen.query(CellView), 10, "the evidence cell")
            cell = app.screen.query_one(CellView)
            await tui.until(pilot, lambda: cell.verdict is not None, what="the evidence verdict")
            assert cell.verdict.status == "pass", pick(cell.verdict.message, "en")

    asyncio.run(body())


# ---- progress ---------------------------------------------------------------------------------


def test_progress_screen_shows_and_resets_progress(home, fake_sandbox, tui):
    if not COURSE.exercises:
        pytest.skip("no exercises yet")
    first = COURSE.exercises[0]

    async def body():
        store = ProgressStore(home)
        store.apply(changes.attempt, first.id, False)
        store.apply(changes.attempt, first.id, True)
        store.apply(changes.hint, first.id, 1)
        store.apply(changes.quiz_result, 5)
        store.apply(changes.prediction, "l61-global-write", "1")
        store.apply(changes.reveal, "l61-global-write", "1", True)
        store.apply(changes.prediction, "l64-leaves-order", "A")
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.confirm import ConfirmScreen
            from tutor.ui.screens.progress import ProgressScreen

            await pilot.press("p")
            await tui.until(pilot, lambda: isinstance(app.screen, ProgressScreen), 10, "the progress screen")
            table = tui.plain(app.screen.query_one("#progress-exercises"))
            row = next(line for line in table.splitlines() if line.startswith(first.id))
            assert "✓ passed" in row and " 2 " in row and f"1/{len(first.hints)}" in row
            assert "best round 5/8" in tui.plain(app.screen.query_one("#progress-quiz"))
            assert "Predictions before running a cell: 1 of 2 right" in tui.plain(
                app.screen.query_one("#progress-quiz")
            )
            await pilot.press("r")
            await tui.until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 10, "the confirmation")
            await pilot.press("y")
            await tui.until(pilot, lambda: isinstance(app.screen, ProgressScreen), 10, "the progress screen")
            # the file is moved aside in a thread (it waits for the lock), then the screen redraws
            await tui.until(
                pilot,
                lambda: "best round -/8" in tui.plain(app.screen.query_one("#progress-quiz")),
                10,
                "the reset progress on screen",
            )
            assert not (home / "progress.json").exists()
            assert list(home.glob("progress.json.bak-*"))

    asyncio.run(body())


def test_help_screen_and_quit(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.screens.help import HelpScreen

            await pilot.press("f1")
            await tui.until(pilot, lambda: isinstance(app.screen, HelpScreen), 10, "help")
            assert "F5" in app.screen.query_one("#help-text").source
            await pilot.press("escape")
            await tui.until(pilot, lambda: not isinstance(app.screen, HelpScreen), 10, "help to close")
            await pilot.press("ctrl+q")
            await tui.until(pilot, lambda: not app.is_running, 10, "the app to quit")

    asyncio.run(body())


def test_make_app_does_not_touch_the_real_home(tmp_path, fake_sandbox):
    before = set(os.listdir(tmp_path))
    app = make_app(tmp_path / "home", "en", mouse=False, course=(COURSE, []), sandbox=fake_sandbox)
    assert app.session.home == tmp_path / "home"
    assert set(os.listdir(tmp_path)) == before  # nothing is written before the learner does something


# ---- small parts ------------------------------------------------------------------------------


def test_live_chart_grows_with_several_series_and_a_log_scale(tui):
    from textual.app import App

    from tutor.ui.widgets.loss_chart import LossChart

    class ChartApp(App):
        def compose(self):
            yield LossChart("loss", ascii_marker=True, waiting="waiting", log_note=" (log)")

    async def body():
        app = ChartApp()
        async with app.run_test(size=SIZE) as pilot:
            chart = app.query_one(LossChart)
            assert chart._plot is None  # plotext is not even imported before the first point
            chart.add([("loss", i, 10.0**-i) for i in range(4)])
            chart.add([("ema", i, 2.0**-i) for i in range(4)])
            await tui.until(pilot, lambda: chart._plot is not None, 10, "the plot")
            # the note is written once the picture is drawn (in its own thread): waited for, not one pause
            await tui.until(pilot, lambda: "ema: 0.125" in tui.plain(chart.query_one("#chart-note")), 10, "the note")
            note = tui.plain(chart.query_one("#chart-note"))
            assert "loss: 0.001" in note and "ema: 0.125" in note and "(log)" in note
            assert chart.marker == "*" and chart.point_count() == 8

    asyncio.run(body())


def test_marks_are_ascii_without_utf8_and_bold_only_without_colour(monkeypatch):
    from tutor.terminal.marks import unicode_ok

    for var in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C")
    assert not unicode_ok()
    monkeypatch.setenv("LC_CTYPE", "C.UTF-8")  # what Python's C-locale coercion sets by itself
    assert not unicode_ok()
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert unicode_ok()
    ascii_marks = Marks(ascii_only=True, no_color=True)
    glyphs = [ascii_marks[s] for s in ("pass", "fail", "skipped", "new", "started", "done")]
    assert all(g.isascii() for g in glyphs) and len({ascii_marks[s] for s in ("pass", "fail", "skipped")}) == 3
    assert ascii_marks.style("fail") == "bold" and Marks(no_color=False).style("fail") == "bold red"


def test_the_editor_says_when_highlighting_is_missing(home, fake_sandbox, monkeypatch, tui):
    needs_exercise("counter-jit")
    import tutor.ui.screens.exercise as exercise_screen
    import tutor.ui.widgets.editor as editor

    monkeypatch.setattr(exercise_screen, "highlighting_available", lambda: False)
    monkeypatch.setattr(editor, "highlighting_available", lambda: False)

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            assert screen.editor.language is None
            assert "Syntax highlighting is off" in tui.plain(screen.query_one("#file-note"))

    asyncio.run(body())


def test_titles_that_do_not_fit_lose_the_subtitle_then_the_icon_then_wrap_never_cut():
    from tutor.ui.screens.base import header_layout

    assert header_layout("6.1 Purity", "Section 1 of 10", 80) == ("row", "6.1 Purity", "Section 1 of 10")
    title = "6.7 State meets jit, grad, vmap and pmap"
    assert header_layout(title, "Section 7 of 10", 68) == ("row", title, "")  # the subtitle goes first
    assert header_layout(title, "Section 7 of 10", 48) == ("wide", title, "")  # then the icon and clock space
    assert header_layout(title, "Section 7 of 10", 30) == ("rows", title, "")  # then it wraps, whole
    zh = "第 6.7 节:状态遇上 jit、grad、vmap 与 pmap 的各种组合方式"
    assert header_layout(zh, "第 7/10 节", 20) == ("rows", zh, "")


def test_a_lesson_opens_at_its_top_and_enter_runs_the_first_cell_on_screen(
    home, fake_sandbox, tui, answer_every_prediction
):
    lesson = next((l for l in COURSE.lessons if len(l.cells) >= 2), None)
    if lesson is None:
        pytest.skip("needs a lesson with two cells")
    answer_every_prediction(home)  # a returning learner: each lesson shows whole

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.containers import VerticalScroll

            from tutor.progress.path import Step
            from tutor.ui.widgets.cell_view import CellView

            app.open_step(Step("lesson", lesson.id))
            await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is lesson, 10, "the lesson")
            await pilot.pause(0.6)
            screen = app.screen
            body_ = screen.query_one("#lesson-body", VerticalScroll)
            assert body_.scroll_y == 0  # the intro is what the learner sees first
            cells = list(screen.query(CellView))
            second = cells[1]

            def second_at_top() -> bool:
                """Read down to the second cell; again if Markdown's late layout moved it meanwhile."""
                if body_.scroll_y == second.virtual_region.y:
                    return True
                body_.scroll_to(y=second.virtual_region.y, animate=False)
                return False

            # Read down only once the lesson is whole: until then its texts are still laying out
            # (under load, seconds), and the cell scrolled to would move away from the top.
            await tui.until(pilot, lambda: screen.revealed, 60, "the whole lesson")
            await tui.until(pilot, second_at_top, 10, "the second cell at the top")
            await pilot.pause(0.2)
            await tui.until(pilot, second_at_top, 10, "the second cell still at the top")
            assert not any(c.has_focus for c in cells)
            await pilot.press("enter")  # nothing focused: the first cell on screen runs

            def took_enter() -> bool:
                return any(c.asking or c.verdict is not None for c in cells)

            await tui.until(pilot, took_enter, 60, "a cell to take Enter")
            assert second.asking or second.verdict is not None, [(c.asking, c.verdict) for c in cells]
            if second.asking:
                await pilot.press("escape")  # its predict question: skipped, so it runs
            await tui.until(pilot, lambda: second.verdict is not None, what="the cell on screen to run")
            assert cells[0].verdict is None
            await pilot.press("home")
            await pilot.pause()
            assert body_.scroll_y == 0

    asyncio.run(body())


def test_a_lesson_opened_at_a_cell_shows_it_after_the_layout_settles_and_keys_win_then(
    home, fake_sandbox, tui, answer_every_prediction
):
    """The doctor's Enter on a finding opens the lesson at its demo cell: the cell must still be on
    screen once every Markdown block above it has laid out, and the learner's Home must stick."""
    lesson = max(COURSE.lessons, key=lambda l: len(l.cells))
    cell = lesson.cells[-2]  # far down: every text block above it grows after mounting
    answer_every_prediction(home)  # a returning learner: each lesson shows whole

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.containers import VerticalScroll

            from tutor.progress.path import Step
            from tutor.ui.widgets.cell_view import CellView

            app.push_screen(app.screen_for(Step("lesson", lesson.id), at_cell=cell.id))
            await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is lesson, 10, "the lesson")
            screen = app.screen
            await tui.until(pilot, lambda: screen.query("#lesson-body"), 10, "the lesson's body")
            body_ = screen.query_one("#lesson-body", VerticalScroll)
            view = next(v for v in screen.query(CellView) if v.cell.id == cell.id)
            y, top, height = await tui.where_shown(pilot, screen, view)
            assert y > 2 * SIZE[1]  # far enough down that opening at the top would miss it
            assert top <= y < top + height, (y, top)
            assert app.focused is view
            await pilot.press("home")  # the learner moves: the pin lets go
            for _ in range(3):
                await pilot.pause()
            assert body_.scroll_y == 0

    asyncio.run(body())


def test_a_file_that_cannot_be_read_is_said_in_the_language_on_screen(home, fake_sandbox, tui):
    """The reason is kept in both languages and picked when shown: after Ctrl+L it is Chinese."""
    (home / "workspace").mkdir(parents=True)
    (home / "workspace" / "counter-jit.py").write_bytes(b"def update_counter(c, i):\n    return '\xff'\n")

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            problem = screen.load_problem
            assert problem is not None and problem.en != problem.zh
            assert pick(screen.results.problem, "en") == problem.en
            await pilot.press("ctrl+l")
            await pilot.pause()
            assert app.lang == "zh" and pick(screen.results.problem, app.lang) == problem.zh

    asyncio.run(body())


def test_why_a_save_failed_is_said_in_the_language_on_screen(home, fake_sandbox, tui):
    """The save's reason is kept in both languages too: a failure seen in English is said in
    Chinese after Ctrl+L, when leaving asks to press Esc again and when the text is rescued."""
    import shutil

    workspace = home / "workspace"

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            shutil.rmtree(workspace)
            workspace.write_text("a file where the workspace folder was")  # the next save cannot happen
            screen.editor.load_text("# typed, not saved\n")  # as if typed
            await pilot.press("ctrl+s")
            await tui.until(pilot, lambda: app._notifications, 5, "the save failure")
            assert "Not saved: cannot write" in str(list(app._notifications)[-1].message)
            why = screen.file.save_problem
            assert isinstance(why, Bilingual) and why.en != why.zh
            app.clear_notifications()
            await pilot.press("ctrl+l")
            await pilot.pause()
            screen.show_view("task")
            await pilot.press("escape")
            await tui.until(pilot, lambda: app._notifications, 5, "the note that Esc again leaves")
            assert app.lang == "zh" and str(list(app._notifications)[-1].message).startswith("没有保存：" + why.zh)
            await pilot.press("escape")
            await tui.until(pilot, lambda: app.session.after_exit, 5, "the rescue note")
            assert f"（{why.zh}）" in app.session.after_exit[-1], app.session.after_exit
        rescued = list((home / "unsaved").glob("counter-jit-*.py"))  # the home can be written: kept there
        assert [p.read_text() for p in rescued] == ["# typed, not saved\n"]

    asyncio.run(body())


def test_a_long_prediction_option_wraps_under_its_own_text():
    """At a narrow width a long option continues under its text, not under its letter (zh and en)."""
    import io

    from rich.console import Console

    from tutor.ui.texts import say
    from tutor.ui.widgets.cell_view import predict_text

    cells = [c for l in COURSE.lessons for c in l.cells if c.predict is not None and c.predict.options]
    view = type("Asking", (), {"asking": True, "typed": ""})()
    wrapped = 0
    for lang in ("en", "zh"):
        for cell in cells:
            letters = list(cell.predict.options)
            keys = say("predict_keys_options", lang, first=letters[0].lower(), last=letters[-1].lower(), n=len(letters))
            console = Console(width=44, file=io.StringIO(), record=True)
            console.print(predict_text(view, cell.predict, lang, Marks(ascii_only=False)))
            lines = console.export_text().splitlines()
            first = next(n for n, l in enumerate(lines) if l.startswith(f"  {letters[0]}) "))
            end = next(n for n, l in enumerate(lines) if n > first and keys.startswith(l.strip()[:8]))
            for line in lines[first:end]:
                if not any(line.startswith(f"  {k}) ") for k in letters):
                    wrapped += 1
                    assert line.startswith("     "), f"{cell.id} [{lang}]: {line!r}"
    assert wrapped > 0  # the width is narrow enough for some option to wrap


def test_a_home_whose_path_holds_markup_is_shown_as_written(tmp_path, fake_sandbox, tui):
    """Issue 50's replay: `[/x]` in the home's path killed the tutor with Textual's MarkupError where
    a notification named a file in the home (here: where reset progress was kept)."""
    home = tmp_path / "a[/x]b[bold]"
    ProgressStore(home).apply(changes.hint, COURSE.exercises[0].id, 1)

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            from tutor.ui.screens.confirm import ConfirmScreen
            from tutor.ui.screens.progress import ProgressScreen

            await pilot.press("p")
            await tui.until(pilot, lambda: isinstance(app.screen, ProgressScreen), 10, "the progress screen")
            await pilot.press("r")
            await tui.until(pilot, lambda: isinstance(app.screen, ConfirmScreen), 10, "the confirmation")
            await pilot.press("y")
            await tui.until(pilot, lambda: app._notifications, 10, "the note of where progress was kept")
            said = str(list(app._notifications)[-1].message)
            assert f"{home}/progress.json.bak-" in said, said
            await tui.until(pilot, lambda: app.screen.query("Toast"), 10, "the note drawn")
            drawn = " ".join(str(toast.render()) for toast in app.screen.query("Toast"))
            assert f"{home}/progress.json.bak-" in drawn, drawn

    asyncio.run(body())
