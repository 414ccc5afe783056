"""What screens and widgets ask of the tutor's app, as a type.

Screens and widgets cannot import `tutor.ui.app` (it imports them: a cycle, which import-linter's
acyclic contract also forbids under TYPE_CHECKING). So they name the app by what they use of it:
`TutorAppProtocol` lists the tutor's own members, and `TutorAppLike` is Textual's App with them,
the declared type of `self.app` in a screen or widget. TutorApp derives from TutorAppLike, so mypy
checks it against the protocol (a member it lacks makes it abstract, a wrong signature is an error).
At run time TutorAppLike is App itself: a test app that sets only the `lang` and `marks` a widget
reads still serves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.app import App
from textual.screen import Screen

if TYPE_CHECKING:
    from tutor.course.model import Cell
    from tutor.progress.path import Step
    from tutor.ui.mark_styles import Marks
    from tutor.ui.session import Session


class TutorAppProtocol(Protocol):
    """The tutor's members of the app, beyond Textual's App."""

    lang: str  # "en" or "zh"; a reactive on TutorApp (every screen re-renders when it changes)
    session: Session
    marks: Marks

    def open_step(self, step: Step) -> None: ...

    def screen_for(self, step: Step, at_cell: str | None = None) -> Screen | None: ...

    def continue_step(self) -> Step: ...

    def step_after(self, here: Step) -> Step: ...

    def go_on_from(self, here: Step) -> None: ...

    def step_title(self, step: Step) -> str: ...

    def course_title(self) -> str: ...

    def open_scratch(self, cell: Cell) -> None: ...

    def want_worker(self) -> None: ...


if TYPE_CHECKING:

    class TutorAppLike(App[object], TutorAppProtocol):
        """For mypy: Textual's App together with the tutor's members."""

else:
    TutorAppLike = App  # a Protocol base would clash with App's metaclass; the type matters to mypy only
