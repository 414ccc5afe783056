"""Snapshots of the main screens at 80x24, in English and Chinese, two of them also under NO_COLOR:
the outline, a lesson with a demo cell that ran, an exercise with a failed verdict, the quiz and
the progress screen. They render the small course under tests/fixtures/course, not the shipped
one, so that the shipped course can gain an exercise without new snapshots (issue 41). Runs come
from the scripted fake sandbox, the home is a fixed temporary folder (its path is on screen), so
a snapshot depends on the code, not on the machine.

A changed screen fails its test and pytest writes snapshot_report.html beside the run to compare
old and new. After a deliberate change, regenerate and look at the SVGs before committing:

    .venv/bin/python -m pytest tests/ui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.course.author_rules import author_problems
from tutor.i18n import Bilingual
from tutor.progress import ProgressStore, changes
from tutor.progress.path import Step
from tutor.settings import COURSE_VAR
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "course"
COURSE, PROBLEMS = read_course(FIXTURE, lint=True)
# A fixed home (one per pytest-xdist worker, which run side by side), not pytest's tmp_path:
# nothing of the machine may reach a screen.
HOME = Path("/tmp/jaxstate-tutor-snapshots") / os.environ.get("PYTEST_XDIST_WORKER", "main") / "home"
LANGS = ["en", "zh"]
WITH_NO_COLOR = [("en", False), ("zh", False), ("en", True)]


@pytest.fixture
def snap_home(monkeypatch):
    shutil.rmtree(HOME, ignore_errors=True)
    HOME.mkdir(parents=True)
    HOME.chmod(0o700)  # as the tutor makes a home: a 0755 one would be made private, and say so
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield HOME
    shutil.rmtree(HOME.parent, ignore_errors=True)


def test_the_fixture_course_is_valid():
    """What the snapshots show is a course `validate` accepts (its rules change, this follows)."""
    assert [str(p) for p in PROBLEMS + author_problems(COURSE, FIXTURE)] == []


def tutor_app(home: Path, lang: str, sandbox, no_color: bool, monkeypatch):
    monkeypatch.setenv(COURSE_VAR, str(FIXTURE))  # whatever asks for the course's folder finds this one
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")  # read by Textual when the app is made
    app = make_app(home, lang, course=(COURSE, []), sandbox=sandbox)
    app.marks = Marks(ascii_only=False, no_color=no_color)  # the same glyphs whatever the machine's locale
    return app


@pytest.mark.parametrize("lang, no_color", WITH_NO_COLOR, ids=["en", "zh", "en-no-color"])
def test_outline(lang, no_color, snap_home, fake_sandbox, monkeypatch, snap_compare):
    app = tutor_app(snap_home, lang, fake_sandbox, no_color, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24))


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_with_a_demo_cell_that_ran(
    lang, snap_home, fake_sandbox, monkeypatch, snap_compare, tui, answer_every_prediction
):
    answer_every_prediction(snap_home)  # a returning learner: the lesson shows whole
    lesson = next(l for l in COURSE.lessons if l.id == "1")
    cell = next(c for c in lesson.cells if c.id == "fx-three-steps")

    async def run_the_cell(pilot):
        from tutor.ui.widgets.cell_view import CellView

        pilot.app.open_step(Step("lesson", lesson.id))
        await tui.until(pilot, lambda: any(v.cell is cell for v in pilot.app.screen.query(CellView)), 10, "the cell")
        view = next(v for v in pilot.app.screen.query(CellView) if v.cell is cell)
        view.focus()
        await pilot.press("enter")  # the fake sandbox runs it as its YAML declares
        await tui.until(pilot, lambda: view.verdict is not None, 10, "the cell's verdict")
        # The cell at the top of the screen, its output under it. Markdown above it is laid out
        # late and moves it: scroll again until it has stayed put a while, so the snapshot does
        # not depend on timing.
        body, still = pilot.app.screen.query_one("#lesson-body"), 0
        for _ in range(100):
            if body.scroll_y == view.virtual_region.y:
                still += 1
                if still == 5:
                    break
            else:
                still = 0
                body.scroll_to(y=view.virtual_region.y, animate=False)
            await pilot.pause(0.1)

    app = tutor_app(snap_home, lang, fake_sandbox, False, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_the_cell)


@pytest.mark.parametrize("lang, no_color", WITH_NO_COLOR, ids=["en", "zh", "en-no-color"])
def test_exercise_with_a_failed_verdict(lang, no_color, snap_home, fake_sandbox, monkeypatch, snap_compare, tui):
    exercise = COURSE.exercise("counter")
    message = Bilingual(
        en="update_counter(0) returned 0; the new count should be 1",
        zh="update_counter(0) 返回 0，新的计数应为 1",
    )
    checks = fake_sandbox.checks(exercise, failing={"counts-up": message})
    n = len(checks)  # the summary a real verdict gives (tutor/sandbox/verdict.py)
    summary = Bilingual(en=f"1 of {n} checks failed", zh=f"{n} 项检查中 1 项未通过")
    verdict = fake_sandbox.verdict("fail", checks, stdout="called once\n", message=summary)
    fake_sandbox.script("counter", *checks, verdict)

    async def check_it(pilot):
        screen = await tui.open_exercise(pilot, "counter")
        await tui.check(pilot, screen)

    app = tutor_app(snap_home, lang, fake_sandbox, no_color, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=check_it)


@pytest.mark.parametrize("lang, no_color", WITH_NO_COLOR, ids=["en", "zh", "en-no-color"])
def test_exercise_with_the_trace_panel_open(lang, no_color, snap_home, fake_sandbox, monkeypatch, snap_compare, tui):
    """Issue 56, item 4: the panel beside the results at 80x24 (off until F10), with a retrace and its reason."""
    from tutor.protocol import TraceFacts

    exercise = COURSE.exercise("counter")
    checks = fake_sandbox.checks(exercise)
    reason = Bilingual(
        en="trace 2 happened because count was int32[] (weak), now float32[]",
        zh="第 2 次追踪的原因：count 之前是 int32[]（弱类型），这次是 float32[]",
    )
    facts = [
        TraceFacts("update_counter", 1, (("count", "~int32[]"), ("increment", "int32[]"))),
        TraceFacts("update_counter", 2, (("count", "float32[]"), ("increment", "int32[]")), reason),
    ]
    fake_sandbox.script("counter", *facts, *checks, fake_sandbox.verdict("pass", checks))

    async def check_it(pilot):
        screen = await tui.open_exercise(pilot, "counter")
        await pilot.press("f10")
        await tui.check(pilot, screen)

    app = tutor_app(snap_home, lang, fake_sandbox, no_color, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=check_it)


@pytest.mark.parametrize("lang, no_color", WITH_NO_COLOR, ids=["en", "zh", "en-no-color"])
def test_your_code_beside_the_reference_after_a_pass(
    lang, no_color, snap_home, fake_sandbox, monkeypatch, snap_compare, tui
):
    """Issue 56, item 5: F4 after a pass, the differences marked in the gutter."""
    exercise = COURSE.exercise("counter")
    checks = fake_sandbox.checks(exercise)
    fake_sandbox.script("counter", *checks, fake_sandbox.verdict("pass", checks))
    workspace = snap_home / "workspace"
    workspace.mkdir(mode=0o700)  # private, as the tutor makes it (else it says it made it so)
    mine = (FIXTURE / "solutions" / "counter.py").read_text(encoding="utf-8").replace("count + 1", "1 + count")
    (workspace / "counter.py").write_text(mine + "# checked twice\n", encoding="utf-8")
    (workspace / "counter.py").chmod(0o600)

    async def compare(pilot):
        from tutor.ui.screens.compare import CompareScreen

        screen = await tui.open_exercise(pilot, "counter")
        await tui.check(pilot, screen)
        await tui.until(pilot, lambda: screen._status() == "passed", 10, "the pass recorded")
        await pilot.press("f4")
        await tui.until(pilot, lambda: isinstance(pilot.app.screen, CompareScreen), 10, "the comparison")

    app = tutor_app(snap_home, lang, fake_sandbox, no_color, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=compare)


@pytest.mark.parametrize("lang", LANGS)
def test_quiz(lang, snap_home, fake_sandbox, monkeypatch, snap_compare, tui):
    async def open_quiz(pilot):
        from tutor.ui.screens.quiz import QuizScreen

        await pilot.press("z")
        await tui.until(pilot, lambda: isinstance(pilot.app.screen, QuizScreen), 10, "the quiz")

    app = tutor_app(snap_home, lang, fake_sandbox, False, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=open_quiz)


@pytest.mark.parametrize("lang", LANGS)
def test_progress(lang, snap_home, fake_sandbox, monkeypatch, snap_compare, tui):
    store = ProgressStore(snap_home)
    (exercise,) = COURSE.exercises
    store.apply(changes.attempt, exercise.id, False)
    store.apply(changes.hint, exercise.id, 1)
    store.apply(changes.attempt, exercise.id, True)
    store.apply(changes.quiz_result, 1)

    async def open_progress(pilot):
        from tutor.ui.screens.progress import ProgressScreen

        await pilot.press("p")
        await tui.until(pilot, lambda: isinstance(pilot.app.screen, ProgressScreen), 10, "the progress screen")

    app = tutor_app(snap_home, lang, fake_sandbox, False, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=open_progress)


@pytest.mark.parametrize("lang, no_color", WITH_NO_COLOR, ids=["en", "zh", "en-no-color"])
def test_drill(lang, no_color, snap_home, fake_sandbox, monkeypatch, snap_compare, tui):
    """Spot the bug, the line found, a wrong belief picked, and what the failing check says."""
    import random

    (drill,) = COURSE.drills
    (exercise,) = COURSE.exercises
    says = Bilingual(
        en="calling update_counter changed your module's globals", zh="调用 update_counter 改动了模块的全局变量"
    )
    checks = fake_sandbox.checks(exercise, {drill.check: says})
    fake_sandbox.script(exercise.id, *checks, fake_sandbox.verdict("fail", checks=checks))

    async def do_the_drill(pilot):
        from tutor.ui.screens.drill import DrillScreen

        screen = DrillScreen(drill.lesson, rng=random.Random(0))
        await pilot.app.push_screen(screen)
        await tui.until(pilot, lambda: screen.stage == "line" and screen.choices, 10, "the drill")
        await pilot.press(*str(drill.line), "enter")
        await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
        wrong = next(i for i, b in enumerate(screen.choices) if b.id != drill.belief)
        await pilot.press(*["down"] * wrong, "enter")
        await tui.until(pilot, lambda: screen.verdict is not None, 30, "the run")
        await pilot.pause()

    app = tutor_app(snap_home, lang, fake_sandbox, no_color, monkeypatch)
    assert snap_compare(app, terminal_size=(80, 24), run_before=do_the_drill)


@pytest.mark.parametrize("lang, no_color", WITH_NO_COLOR, ids=["en", "zh", "en-no-color"])
def test_review(lang, no_color, snap_home, fake_sandbox, monkeypatch, snap_compare, tui):
    """The day after a wrong answer: the outline says what is due, and v asks it again."""
    import random
    from datetime import date

    q = COURSE.quiz[0]
    wrong = next(x for x in "ABCD" if x != q.answer)
    ProgressStore(snap_home).apply(changes.answer, q.id, wrong, False, True, date(2026, 12, 7))

    async def open_review(pilot):
        from tutor.ui.screens.quiz import QuizScreen

        await tui.until(pilot, lambda: pilot.app.screen.query_one("#review").display, 10, "the review line")
        due = pilot.app.session.progress.reviews_due()
        await pilot.app.push_screen(QuizScreen(due, review=tuple(x.id for x in due), rng=random.Random(0)))
        await tui.until(pilot, lambda: isinstance(pilot.app.screen, QuizScreen), 10, "the review")

    monkeypatch.setenv(COURSE_VAR, str(FIXTURE))
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(snap_home, lang, course=(COURSE, []), sandbox=fake_sandbox, clock=lambda: date(2026, 12, 8))
    app.marks = Marks(ascii_only=False, no_color=no_color)
    assert snap_compare(app, terminal_size=(80, 24), run_before=open_review)


@pytest.mark.parametrize("lang", LANGS)
def test_outline_with_a_review_due(lang, snap_home, fake_sandbox, monkeypatch, snap_compare, tui):
    from datetime import date

    q = COURSE.quiz[0]
    ProgressStore(snap_home).apply(
        changes.answer, q.id, next(x for x in "ABCD" if x != q.answer), False, True, date(2026, 12, 7)
    )

    async def wait_for_line(pilot):
        await tui.until(pilot, lambda: pilot.app.screen.query_one("#review").display, 10, "the review line")

    monkeypatch.setenv(COURSE_VAR, str(FIXTURE))
    app = make_app(snap_home, lang, course=(COURSE, []), sandbox=fake_sandbox, clock=lambda: date(2026, 12, 8))
    app.marks = Marks(ascii_only=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=wait_for_line)


def with_a_loss_chart(course):
    """The fixture course with its one exercise given a loss chart, its last check the one that
    trains and plots (as rnn's `trains`): the chart's place on the results screen, at 80x24."""
    from dataclasses import replace

    (exercise,) = course.exercises
    *first, last = exercise.checks
    chart = Bilingual(en="Training loss: your counter learning", zh="训练损失：你的计数器的学习")
    charted = replace(exercise, chart=chart, checks=(*first, replace(last, plots=True)))
    return replace(course, exercises=(charted,))


@pytest.mark.parametrize("lang, no_color", WITH_NO_COLOR, ids=["en", "zh", "en-no-color"])
def test_exercise_with_a_loss_chart_after_a_pass(
    lang, no_color, snap_home, fake_sandbox, monkeypatch, snap_compare, tui
):
    """Issue 56, item 3: after a pass at 80x24 the verdict heads the results and the chart under it
    shows both curves whole (the learner's leaves the reference's dimmer one at step 300); the
    checks follow. With the checks above it, two rows of plot were on screen."""
    import math

    from tutor.protocol import MetricPoints

    course = with_a_loss_chart(COURSE)
    (exercise,) = course.exercises
    checks = fake_sandbox.checks(exercise)
    reference = tuple(("loss", i, math.exp(-i / 150) + 1e-3) for i in range(0, 1000, 4))
    mine = tuple(("loss", i, math.exp(-min(i, 300) / 150) + 1e-3 + i * 4e-5) for i in range(0, 1000, 4))
    # The reference is the course solution's run through the same sandbox (tutor.sandbox.reference_curve)
    fake_sandbox.script(exercise.id, MetricPoints(reference), *checks, fake_sandbox.verdict("pass", checks))

    async def check_it(pilot):
        screen = await tui.open_exercise(pilot, exercise.id)
        await tui.until(pilot, lambda: screen.reference_state == "ready", 10, "the reference curve")
        fake_sandbox.script(exercise.id, MetricPoints(mine), *checks, fake_sandbox.verdict("pass", checks))
        await tui.check(pilot, screen)
        chart = screen.results.chart
        await tui.until(pilot, chart.settled, 10, "the plot")

    monkeypatch.setenv(COURSE_VAR, str(FIXTURE))
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(snap_home, lang, course=(course, []), sandbox=fake_sandbox)
    app.marks = Marks(ascii_only=False, no_color=no_color)
    assert snap_compare(app, terminal_size=(80, 24), run_before=check_it)
