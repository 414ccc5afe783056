"""Shown when the course files have problems: each with file and line; what loaded is still usable."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from tutor.ui.screens.base import TutorScreen, footer


class ProblemsScreen(TutorScreen):
    BINDINGS = [
        Binding("enter,escape", "back", "Continue"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def compose(self):
        yield Header()
        yield Static(id="problems-intro")
        with VerticalScroll(id="problems-list"):
            yield Static(id="problems")
        yield footer()

    def render_texts(self) -> None:
        problems = self.session.problems
        self.set_title(self.say("app_title"), self.say("problems_title"))
        self.query_one("#problems-intro", Static).update(
            Text(self.say("problems_intro", n=len(problems)), style="bold")
        )
        body = Text()
        for p in problems:
            body.append(f"{p.file}:{p.line}", style="bold")
            body.append(f": {p.message}\n")
        self.query_one("#problems", Static).update(body)

    def action_back(self) -> None:
        self.app.pop_screen()
