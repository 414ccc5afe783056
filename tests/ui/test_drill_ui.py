"""Spot the bug as a learner does it (Pilot at 80x24): b on the outline opens the lesson's drills;
the line is picked by its number typed or with the arrows and Enter, then the belief; the first try
is kept and feeds the misconceptions the progress screen names; the program runs in the worker
(here a scripted one) and the failing check's message is shown."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import OptionList, Static

from tutor.course import read_course
from tutor.progress.misconceptions import misconceptions
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def new_app(home, sandbox, lang):
    app = make_app(home, lang, course=(COURSE, []), sandbox=sandbox)
    app.marks = Marks(ascii_only=True)
    return app


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_drill_typed_line_then_wrong_belief_is_kept_and_the_check_speaks(home, fake_sandbox, tui, lang):
    from tutor.i18n import Bilingual
    from tutor.ui.screens.drill import DrillScreen

    drill = COURSE.drills_of("6.1")[0]
    exercise = COURSE.exercise(drill.exercise)
    check_says = Bilingual(en="it changed history (scripted)", zh="它改了 history（预设）")
    checks = fake_sandbox.checks(exercise, {drill.check: check_says})
    fake_sandbox.script(exercise.id, *checks, fake_sandbox.verdict("fail", checks=checks))

    async def body():
        app = new_app(home, fake_sandbox, lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(pilot, lambda: app.session.course is not None, 10, "the course")
            await pilot.press("b")
            await tui.until(pilot, lambda: isinstance(app.screen, DrillScreen), 10, "the drill")
            screen = app.screen
            assert screen.drill == drill
            await pilot.press(*str(drill.line), "enter")
            await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
            assert screen.line == drill.line
            said = tui.plain(screen.query_one("#drill-ask", Static))
            assert {"en": "right", "zh": "对了"}[lang] in said, said
            wrong = next(i for i, b in enumerate(screen.choices) if b.id != drill.belief)
            beliefs = screen.query_one("#drill-beliefs", OptionList)
            for _ in range(wrong):
                await pilot.press("down")
            await pilot.press("enter")
            await tui.until(pilot, lambda: screen.stage == "done", 10, "the verdict")
            await tui.until(pilot, lambda: screen.verdict is not None, 30, "the run")
            assert beliefs.display
            result = tui.plain(screen.query_one("#drill-result", Static))
            assert {"en": "Not that one", "zh": "不是这个"}[lang] in result, result
            assert check_says.get(lang) in result, result  # the failing check's own words
            assert fake_sandbox.asked[-1] == (exercise.id, drill.code)  # the program shown is what ran
            assert app.session.state.wait_saved(30)
            record = app.session.progress.drill(drill.id)
            assert record.tries == 1 and record.first_correct is False and record.line == drill.line
            missed = {m.misconception.id for m in misconceptions(COURSE, app.session.progress).missed}
            assert drill.belief in missed
            await pilot.press("n")
            await tui.until(pilot, lambda: screen.index == 1 and screen.stage == "line", 10, "the next drill")
            second = screen.drill
            for _ in range(second.line - 1):
                await pilot.press("down")
            await pilot.press("enter")
            await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
            right = next(i for i, b in enumerate(screen.choices) if b.id == second.belief)
            for _ in range(right):
                await pilot.press("down")
            await pilot.press("enter")
            await tui.until(pilot, lambda: screen.stage == "done", 10, "the verdict")
            assert app.session.state.wait_saved(30)
            assert app.session.progress.drill(second.id).first_correct is True

    asyncio.run(body())


def test_every_lesson_with_exercises_has_three_drills_that_fit_80x24():
    lessons = {e.lesson for e in COURSE.exercises}
    assert lessons
    for lesson in sorted(lessons):
        drills = COURSE.drills_of(lesson)
        assert len(drills) >= 3, f"lesson {lesson} has {len(drills)} drills"


def test_the_outline_has_a_spot_the_bug_row_per_lesson_that_opens_its_drills(home, fake_sandbox, tui):
    from tutor.ui.screens.drill import DrillScreen

    async def body():
        app = new_app(home, fake_sandbox, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(pilot, lambda: app.session.course is not None, 10, "the course")
            options = app.screen.query_one("#outline", OptionList)
            await tui.until(pilot, lambda: options.option_count > 0, 10, "the outline")
            rows = [options.get_option_at_index(i).id for i in range(options.option_count)]
            lessons = {e.lesson for e in COURSE.exercises}
            assert {r.removeprefix("drills:") for r in rows if r.startswith("drills:")} == lessons
            where = rows.index("drills:6.2")
            options.highlighted = where
            label = str(options.get_option_at_index(where).prompt)
            assert "Spot the bug (3)" in label, label
            await pilot.press("enter")
            await tui.until(pilot, lambda: isinstance(app.screen, DrillScreen), 10, "the drills")
            assert app.screen.lesson_id == "6.2"

    asyncio.run(body())


def test_a_long_drills_result_is_brought_into_view_and_the_keys_scroll_it(home, fake_sandbox, tui):
    """6.4's first drill (14 lines) at 80x24: once answered, the failing check's words are below the
    program and the beliefs. They are scrolled into view when they arrive, and the keys move the
    page (in the beliefs' list PgDn and End did nothing, and the words could not be reached)."""
    from tutor.i18n import Bilingual
    from tutor.ui.screens.drill import DrillScreen

    drill = COURSE.drills_of("6.4")[0]
    assert len(drill.code.splitlines()) >= 14
    exercise = COURSE.exercise(drill.exercise)
    says = Bilingual(en="the input was changed in place (scripted)", zh="输入被就地修改了（预设）")
    checks = fake_sandbox.checks(exercise, {drill.check: says})
    fake_sandbox.script(exercise.id, *checks, fake_sandbox.verdict("fail", checks=checks), delay=0.5)

    async def body():
        app = new_app(home, fake_sandbox, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(pilot, lambda: app.session.course is not None, 10, "the course")
            screen = DrillScreen("6.4")
            await app.push_screen(screen)
            await tui.until(pilot, lambda: screen.stage == "line" and screen.choices, 10, "the drill")
            await pilot.press(*str(drill.line), "enter")
            await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
            await pilot.press("enter")
            await tui.until(pilot, lambda: screen.verdict is not None, 30, "the run")
            await pilot.pause()
            await pilot.pause()
            result = screen.query_one("#drill-result", Static)
            page = screen.query_one("#drill-body")
            assert app.focused is page
            await tui.until(pilot, lambda: 0 < result.region.y and result.region.bottom <= 23, 10, "the result in view")
            page.scroll_home(animate=False)
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            assert page.scroll_y == page.max_scroll_y > 0

    asyncio.run(body())


@pytest.mark.slow  # every drill laid out and answered (~19 s): the full suite's; the fast tier's
# test_every_lesson_with_exercises_has_three_drills_that_fit_80x24 measures their lines without a screen
def test_every_drills_lines_fit_80_columns_with_the_scrollbar_shown(home, fake_sandbox, tui):
    """Each shipped drill at 80x24, answered (the page then scrolls, its scrollbar shown): each line
    of the program is one row (rnn's 75-column line wrapped its `])` onto a row of its own)."""
    from textual.widgets import OptionList

    from tutor.ui.screens.drill import DrillScreen

    async def body():
        app = new_app(home, fake_sandbox, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(pilot, lambda: app.session.course is not None, 10, "the course")
            for lesson in sorted({d.lesson for d in COURSE.drills}):
                screen = DrillScreen(lesson)
                await app.push_screen(screen)
                for i, drill in enumerate(COURSE.drills_of(lesson)):
                    await tui.until(pilot, lambda: screen.index == i and screen.stage == "line", 10, "the drill")
                    await pilot.press(*str(drill.line), "enter")
                    await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
                    await pilot.press("enter")
                    await tui.until(pilot, lambda: screen.verdict is not None, 30, "the run")
                    await pilot.pause()
                    code = screen.query_one("#drill-code", OptionList)
                    rows = len(drill.code.splitlines())
                    assert code.virtual_size.height == rows, (drill.id, code.virtual_size, rows)
                    await pilot.press("n")
                app.pop_screen()

    asyncio.run(body())


def test_keys_typed_ahead_reach_the_beliefs_after_the_line(home, fake_sandbox, tui):
    """A fast typist (or a paste) sends the line, Enter, Downs and Enter before the tutor has
    drawn the beliefs: the Downs after the line's Enter move the beliefs' highlight, not the
    code's (the browser walk's Downs went to the code list under CI's load)."""
    from textual import events

    from tutor.ui.screens.drill import DrillScreen

    drill = COURSE.drills_of("6.1")[0]
    exercise = COURSE.exercise(drill.exercise)
    checks = fake_sandbox.checks(exercise)
    fake_sandbox.script(exercise.id, *checks, fake_sandbox.verdict("fail", checks=checks))

    async def body():
        app = new_app(home, fake_sandbox, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(pilot, lambda: app.session.course is not None, 10, "the course")
            await pilot.press("b")
            await tui.until(pilot, lambda: isinstance(app.screen, DrillScreen), 10, "the drill")
            screen = app.screen
            keys = [*str(drill.line), "enter", "down", "down"]
            for key in keys:  # all queued at once, as a terminal delivers a burst
                char = key if len(key) == 1 else None
                app.post_message(events.Key(key, char))
            await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
            beliefs = screen.query_one("#drill-beliefs", OptionList)
            await tui.until(pilot, lambda: beliefs.highlighted == 2, 10, "two Downs in the beliefs")
            assert screen.query_one("#drill-code", OptionList).highlighted == drill.line - 1

    asyncio.run(body())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_belief_is_on_screen_while_one_is_chosen_at_80x24(home, fake_sandbox, tui, lang):
    """Each lesson's first drill at 80x24: once the line is picked, every belief's rows are inside
    the page as shown, and still when Down has gone to the last. Was: the beliefs' list is as tall
    as its options, so only the page could scroll, and it did not follow the highlight; in four
    lessons the fourth belief sat below the fold and Down chose it unseen (the browser walk failed
    whenever the drawn order put the drill's own belief last)."""
    from tutor.ui.screens.drill import DrillScreen

    lessons = [l.id for l in COURSE.lessons if COURSE.drills_of(l.id)]

    def all_shown(screen) -> bool:
        page = screen.query_one("#drill-body").region
        beliefs = screen.query_one("#drill-beliefs", OptionList).region
        return beliefs.height > 0 and page.contains_region(beliefs)

    async def body():
        app = new_app(home, fake_sandbox, lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await tui.until(pilot, lambda: app.session.course is not None, 10, "the course")
            for lesson in lessons:
                app.push_screen(DrillScreen(lesson))
                await tui.until(pilot, lambda l=lesson: getattr(app.screen, "lesson_id", None) == l, 10, "the drill")
                screen = app.screen
                await tui.until(pilot, lambda: screen.is_mounted and screen.drill is not None, 10, "its program")
                await pilot.press(*str(screen.drill.line), "enter")
                await tui.until(pilot, lambda: screen.stage == "belief", 10, "the beliefs")
                await tui.until(pilot, lambda: all_shown(screen), 10, f"{lesson}: every belief on screen")
                beliefs = screen.query_one("#drill-beliefs", OptionList)
                for _ in range(beliefs.option_count - 1):
                    await pilot.press("down")
                await tui.until(pilot, lambda: beliefs.highlighted == beliefs.option_count - 1, 10, "the last belief")
                await pilot.pause()
                assert all_shown(screen), (lesson, screen.query_one("#drill-body").region, beliefs.region)
                await pilot.press("escape")
                await tui.until(pilot, lambda s=screen: app.screen is not s, 10, "the drill to close")

    asyncio.run(body())
