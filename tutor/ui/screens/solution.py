"""The reference solution of an exercise, read-only, over the exercise screen."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.ui.screens.base import TutorModal, footer
from tutor.ui.widgets.code import code_view


class SolutionScreen(TutorModal):
    BINDINGS = [Binding("escape,f4,q", "back", "Back")]

    def __init__(self, exercise_id: str, code: str):
        super().__init__()
        self.exercise_id = exercise_id
        self.code = code

    def compose(self):
        with VerticalScroll(id="solution-box"):
            yield Static(code_view(self.code), id="solution-code")
        yield footer()

    def on_mount(self) -> None:
        self.query_one("#solution-box").focus()

    def render_texts(self) -> None:
        self.query_one("#solution-box").border_title = self.say("solution_title", id=self.exercise_id)

    def action_back(self) -> None:
        self.dismiss()
