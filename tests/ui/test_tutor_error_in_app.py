"""The app's one handler of the tutor's own errors (issue 54, step 6): a TutorError escaping a key's
action is told as its message, in the learner's language, and the learner stays where they were;
the app does not end with a traceback. (The command line's handler is cli/main's.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from tutor.course import read_course
from tutor.errors import TutorError
from tutor.i18n import Bilingual
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
SMALL, _ = read_course(ROOT / "tests" / "fixtures" / "course")
SAID = Bilingual(en="the workspace file cannot be written here", zh="这里无法写入练习文件")


class Failing(Screen):
    """A screen whose action fails the way the tutor's own code does: by raising its error."""

    BINDINGS = [Binding("x", "fail", "Fail")]

    def compose(self):
        yield Static("a screen")

    def action_fail(self) -> None:
        raise TutorError(SAID)


def _said(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


def test_a_tutor_error_in_an_action_is_said_in_the_learners_language_and_the_app_goes_on(home, fake_sandbox, tui):
    async def body():
        app = make_app(home, "en", course=(SMALL, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            await app.push_screen(Failing())
            await tui.until(pilot, lambda: isinstance(app.screen, Failing), 60, "the failing screen")
            await pilot.press("x")
            await tui.until(pilot, lambda: SAID.en in _said(app), 60, "the error's English words")
            assert app.is_running and isinstance(app.screen, Failing)
            assert next(n for n in app._notifications if n.message == SAID.en).severity == "error"
            await pilot.press("ctrl+l")  # 中文
            await tui.until(pilot, lambda: app.lang == "zh", 60, "中文")
            await pilot.press("x")
            await tui.until(pilot, lambda: SAID.zh in _said(app), 60, "the error's Chinese words")
            assert app.is_running and isinstance(app.screen, Failing)
        assert app.return_code in (0, None)  # it ended because the test ended, not by the error

    asyncio.run(body())
