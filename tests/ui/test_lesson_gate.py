"""Nothing answers a prediction before it is given (issue 38, item 1): a lesson shows nothing after
a cell whose question is open, neither prose nor the next cell, until the learner answers it or
skips it with Esc; then the rest appears, up to the next open question. A question answered in an
earlier session holds nothing back. End, Tab and a lesson opened at a cell stop at the gate.

The first test is the learner's walk: every lesson, at 80x24 and 120x40, in English and Chinese,
paged to its end at every stage (nothing after the open question has a row on screen), then each
question answered in turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.containers import VerticalScroll

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.widgets.cell_view import CellView

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
LESSONS_WITH_QUESTIONS = [l for l in COURSE.lessons if any(c.predict for c in l.cells)]


async def open_lesson(tui, pilot, lesson):
    app = pilot.app
    app.open_step(Step("lesson", lesson.id))
    await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is lesson, 10, f"lesson {lesson.id}")
    screen = app.screen
    await tui.until(pilot, lambda: screen.revealed, 60, f"lesson {lesson.id} shown up to its gate")
    return screen


def blocks(screen) -> list:
    """The lesson's blocks in reading order, its end included."""
    body = screen.query_one("#lesson-body", VerticalScroll)
    return [w for w in body.children if w.id != "lesson-gate"]


def first_open(lesson, answered: set[str]) -> int | None:
    """The index (among the blocks) of the first cell whose question is still open."""
    return next(
        (i for i, b in enumerate(lesson.blocks) if b.cell and b.cell.predict and b.cell.id not in answered), None
    )


def seen_after(screen, gate: int) -> list[str]:
    """Blocks after the gate that take room on screen or are not hidden: none may."""
    return [
        f"{w.id} ({'shown' if w.display else 'hidden'}, {w.region.height} rows)"
        for w in blocks(screen)[gate + 1 :]
        if w.display or w.region.height or w.virtual_region.height
    ]


async def page_to_the_end(tui, pilot, screen) -> None:
    """As a learner reading on: a page down, then End, the furthest any key scrolls (once what
    shows has laid out: End goes to the end as it is when pressed)."""
    await tui.laid_out(pilot, screen)
    await pilot.press("pagedown", "end")
    body = screen.query_one("#lesson-body", VerticalScroll)
    await tui.until(pilot, lambda: body.scroll_y == body.max_scroll_y, 5, "End to reach the end of what shows")


def notices(app) -> list[str]:
    """Every notice the app shows from now on, as words."""
    said: list[str] = []
    notify = app.notify

    def record(message, *args, **kwargs):
        said.append(str(message))
        return notify(message, *args, **kwargs)

    app.notify = record
    return said


async def answer(tui, pilot, view: CellView) -> None:
    """Focus the cell, Enter asks its question, a guess answers it (option 1, or the number 1)."""
    view.focus()
    await pilot.press("enter")
    await tui.until(pilot, lambda: view.asking, 10, f"cell {view.cell.id} to ask")
    await pilot.press("1")
    if view.cell.predict.numeric:
        await pilot.press("enter")
    await tui.until(pilot, lambda: view.verdict is not None, 20, f"cell {view.cell.id} to run")


def _questions(lesson) -> int:
    return sum(1 for c in lesson.cells if c.predict)


# The fast tier walks, in en at 80x24, the lesson with the most questions (of both kinds: options
# and a number) and those with one at most; the full suite (CI) walks every lesson, in en at 80x24
# and in zh at 120x40. Each language and each size once, not every pair: the gate hides blocks by
# their place in the lesson, whatever their text's length. One test per lesson, so that test
# processes share the walk (as one test it was the fast tier's longest, 40-70 s quiet). Every
# lesson's walk in the fast tier was 45-55 s of its four processes' time, a third of it spent on
# lessons that hold nothing the two kept here do not (six of ten lessons).
MOST_ASKED = max(COURSE.lessons, key=_questions)
WALKED_FAST = [l for l in COURSE.lessons if l is MOST_ASKED or _questions(l) <= 1]


@pytest.mark.parametrize(
    "lesson",
    [l if l in WALKED_FAST else pytest.param(l, marks=pytest.mark.slow) for l in COURSE.lessons],
    ids=[l.id for l in COURSE.lessons],
)
@pytest.mark.parametrize(
    ("lang", "size"),
    [("en", (80, 24)), pytest.param("zh", (120, 40), marks=pytest.mark.slow)],
    ids=["en-80x24", "zh-120x40"],
)
def test_every_lesson_shows_nothing_after_an_open_question(home, fake_sandbox, tui, lang, size, lesson):
    async def body():
        app = make_app(home, lang, course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=size) as pilot:
            screen = await open_lesson(tui, pilot, lesson)
            answered: set[str] = set()
            while True:
                gate = first_open(lesson, answered)
                await page_to_the_end(tui, pilot, screen)
                if gate is None:
                    assert screen.gate is None
                    assert all(w.display for w in blocks(screen)), f"{lesson.id}: a block left hidden"
                    break
                view = screen.query_one(f"#cell-{gate}", CellView)
                assert screen.gate is view, (lesson.id, gate, screen.gate)
                assert not seen_after(screen, gate), (lesson.id, view.cell.id, seen_after(screen, gate))
                assert all(w.display for w in blocks(screen)[: gate + 1]), f"{lesson.id}: a block before hidden"
                line = screen.query_one("#lesson-gate")
                assert line.display and line.region.height > 0  # why the lesson stops here, on screen
                await answer(tui, pilot, view)
                answered.add(view.cell.id)
                await tui.until(pilot, lambda g=view: screen.revealed and screen.gate is not g, 20, "the rest")
                following = blocks(screen)[gate + 1]
                assert following.display, (lesson.id, following.id)  # the next part appears
                await pilot.pause()
                assert following.virtual_region.height > 0, (lesson.id, following.id)

    asyncio.run(body())


def test_questions_answered_before_hold_nothing_back(home, fake_sandbox, tui, answer_every_prediction):
    answer_every_prediction(home)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            for lesson in LESSONS_WITH_QUESTIONS:
                screen = await open_lesson(tui, pilot, lesson)
                assert screen.gate is None and all(w.display for w in blocks(screen)), lesson.id
                assert not screen.query_one("#lesson-gate").display

    asyncio.run(body())


def test_esc_skips_a_question_and_the_rest_appears_without_recording_a_guess(home, fake_sandbox, tui):
    lesson = LESSONS_WITH_QUESTIONS[0]

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            screen = await open_lesson(tui, pilot, lesson)
            view = screen.gate
            view.focus()
            await pilot.press("enter")
            await tui.until(pilot, lambda: view.asking, 10, "the question")
            await pilot.press("escape")
            await tui.until(pilot, lambda: screen.revealed and screen.gate is not view, 20, "the rest")
            gate = blocks(screen).index(view)
            assert blocks(screen)[gate + 1].display
            assert view.cell.id not in tui.progress(home, app).get("predictions", {})

    asyncio.run(body())


def test_end_and_tab_stop_at_the_gate_and_the_lesson_is_not_done_there(home, fake_sandbox, tui):
    lesson = max(LESSONS_WITH_QUESTIONS, key=lambda l: len(l.cells))

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            screen = await open_lesson(tui, pilot, lesson)
            gate = screen.gate
            cells = list(screen.query(CellView))
            shown = cells[: cells.index(gate) + 1]
            said = notices(app)
            await tui.laid_out(pilot, screen)  # End then goes to the end of the lesson as it will stay
            await pilot.press("end")
            body_ = screen.query_one("#lesson-body", VerticalScroll)
            await tui.until(pilot, lambda: body_.scroll_y == body_.max_scroll_y, 5, "the end of what shows")
            for _ in range(3):
                await pilot.pause()
            line = screen.query_one("#lesson-gate")  # the word on why: on screen, under the question
            assert line.display and body_.region.contains_region(line.region), (line.region, body_.region)
            assert said == []  # no notice over the question's options
            assert gate.virtual_region.bottom <= body_.virtual_size.height  # the end is the gate's line
            for _ in range(len(shown) + 1):  # Tab walks the shown cells and wraps: never past the gate
                await pilot.press("tab")
                assert app.focused in shown, app.focused
            await asyncio.sleep(1.0)  # the end-of-lesson poll has had its turns
            await pilot.pause()
            assert tui.progress(home, app)["lessons"][lesson.id]["status"] == "started"

    asyncio.run(body())


def test_a_lesson_opened_at_a_cell_behind_an_open_question_opens_at_the_question(home, fake_sandbox, tui):
    """The doctor's Enter on a finding opens a lesson at a demo cell; one behind an open question
    would be read before the question is answered: the lesson opens at the question instead."""
    lesson = next(l for l in LESSONS_WITH_QUESTIONS if first_open(l, set()) < len(l.blocks) - 1)
    gate = first_open(lesson, set())
    behind = next(b.cell for b in lesson.blocks[gate + 1 :] if b.cell)

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            said = notices(app)
            app.push_screen(app.screen_for(Step("lesson", lesson.id), at_cell=behind.id))
            await tui.until(pilot, lambda: getattr(app.screen, "lesson", None) is lesson, 10, "the lesson")
            screen = app.screen
            await tui.until(pilot, lambda: screen.revealed, 60, "the lesson up to its gate")
            assert app.focused is screen.gate and screen.gate.cell is lesson.blocks[gate].cell
            assert not seen_after(screen, gate)
            assert any(behind.id in n for n in said), said

    asyncio.run(body())
