"""Every key of every screen, in the learner's language."""

from __future__ import annotations

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
        set_markdown(self.query_one("#help-text", Markdown), self.say("help_body"))

    def on_mount(self) -> None:
        self.query_one("#help-box").focus()

    def action_back(self) -> None:
        self.dismiss()
