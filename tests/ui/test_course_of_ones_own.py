"""Another author's course (`new-course`: one lesson, one exercise, a checkpoint, no quiz, no
doctor) is shown as itself: its own title in the header, in both languages, and no quiz or doctor
entry, key or help section; the shipped course, which has both, keeps them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.widgets import Header, OptionList

from tutor.course import read_course
from tutor.course.scaffold import new_course
from tutor.ui.app import make_app
from tutor.ui.widgets.key_bar import KeyBar

ROOT = Path(__file__).resolve().parents[2]


def _shown(app) -> tuple[str, str, list[str]]:
    """The header's text, the key bar's, and the outline's rows."""
    header = app.screen.query_one(Header)
    title = f"{app.screen.title} {app.screen.sub_title}"
    assert header is not None
    options = app.screen.query_one("#outline", OptionList)
    rows = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    return title, app.screen.query_one(KeyBar).render().plain, rows


def test_a_new_course_shows_its_own_title_and_no_quiz_or_doctor(tmp_path, home, fake_sandbox, tui):
    new_course(tmp_path / "stats-101")
    course, problems = read_course(tmp_path / "stats-101")
    assert not problems and course.title.en == "stats-101" and not course.quiz and not course.has_doctor

    async def body():
        app = make_app(home, "en", course=(course, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            await tui.until(pilot, lambda: app.screen.query_one("#outline", OptionList).option_count, 60, "the outline")
            title, keys, rows = _shown(app)
            assert title.startswith("stats-101") and "JAX" not in title, title
            assert app.title == "stats-101"
            assert "Quiz" not in keys and "Doctor" not in keys and "Continue" in keys, keys
            assert not any("Quiz" in row for row in rows), rows
            await pilot.press("z", "d")  # the keys of parts the course does not have do nothing
            await pilot.pause()
            assert type(app.screen).__name__ == "OutlineScreen"
            await pilot.press("f1")
            await tui.until(pilot, lambda: type(app.screen).__name__ == "HelpScreen", 60, "the help")
            helped = app.screen.query_one("#help-text").source
            assert "## Quiz" not in helped and "doctor" not in helped.lower() and "## Exercise" in helped
            await pilot.press("escape")
            await pilot.press("p")
            await tui.until(pilot, lambda: type(app.screen).__name__ == "ProgressScreen", 60, "the progress screen")
            head = tui.plain(app.screen.query_one("#progress-quiz"))
            assert "Lessons 0/1" in head and "Quiz" not in head and "Checkpoints" in head, head
            await pilot.press("escape")
            await pilot.press("ctrl+l")
            await tui.until(pilot, lambda: app.screen.title.startswith("stats-101") and app.lang == "zh", 60, "中文")
            assert "测验" not in _shown(app)[1] and "诊断" not in _shown(app)[1]

    asyncio.run(body())


def test_the_shipped_course_keeps_its_title_quiz_and_doctor(home, fake_sandbox, tui):
    course, _ = read_course(ROOT)

    async def body():
        app = make_app(home, "en", course=(course, []), sandbox=fake_sandbox)
        async with app.run_test(size=(120, 24)) as pilot:
            await tui.until(pilot, lambda: app.screen.query_one("#outline", OptionList).option_count, 60, "the outline")
            title, keys, rows = _shown(app)
            assert title.startswith("JAX state tutor") and "Quiz" in keys and "Doctor" in keys, (title, keys)
            assert any("Quiz" in row for row in rows)

    asyncio.run(body())
