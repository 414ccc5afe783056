"""Every key of every screen, in the learner's language."""

from __future__ import annotations

import re

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from tutor.ui.screens.base import TutorModal, footer
from tutor.ui.widgets.markup import set_markdown


class HelpScreen(TutorModal):
    BINDINGS = [Binding("escape,f1,q", "back", "Back")]

    def compose(self):
        with VerticalScroll(id="help-box"):
            yield Markdown(id="help-text")
        yield footer()

    def render_texts(self) -> None:
        box = self.query_one("#help-box", VerticalScroll)
        box.border_title = self.say("help_title")
        set_markdown(self.query_one("#help-text", Markdown), offered(self.say("help_body"), self.session.course))

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()

    def action_back(self) -> None:
        self.dismiss()


# What the help says of a part a course may not have: its section, and its key on the outline's line.
_PARTS = {
    "quiz": (("## Quiz", "## 测验"), r" · \*\*z\*\* (?:quiz|测验)"),
    "doctor": (("## Doctor", "## 诊断"), r" · \*\*d\*\* (?:doctor|诊断)[^\n]*"),
}


def offered(body: str, course) -> str:
    """The help without the quiz or the doctor where the course has none (a course of one's own)."""
    if course is None:
        return body
    missing = [name for name, has in (("quiz", bool(course.quiz)), ("doctor", course.has_doctor)) if not has]
    for name in missing:
        headings, key = _PARTS[name]
        sections = re.split(r"(?m)^(?=## )", body)
        body = "".join(part for part in sections if not part.startswith(headings))
        body = re.sub(key, "", body)
    return body
