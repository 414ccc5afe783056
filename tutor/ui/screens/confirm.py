"""A yes/no question; dismisses with True only on an explicit yes."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from tutor.ui.screens.base import TutorModal


class ConfirmScreen(TutorModal[bool]):
    BINDINGS = [
        Binding("y,enter", "yes", "Yes"),
        Binding("n,escape", "no", "No"),
    ]

    def __init__(self, question_key: str, **fields):
        super().__init__()
        self.question_key = question_key
        self.fields = fields

    def compose(self):
        with Vertical(id="confirm-box"):
            yield Static(id="confirm-question")
            yield Static(id="confirm-keys")

    def render_texts(self) -> None:
        self.query_one("#confirm-question", Static).update(
            Text(self.say(self.question_key, **self.fields), style="bold")
        )
        self.query_one("#confirm-keys", Static).update(self.say("confirm_keys"))

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
