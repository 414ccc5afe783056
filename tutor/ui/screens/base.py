"""What all tutor screens share: the session, the language, and re-rendering when it changes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import events
from textual.screen import ModalScreen, Screen, ScreenResultType
from textual.widgets import Header

from tutor.ui.keys import translate_bindings
from tutor.ui.saving import record
from tutor.ui.texts import say
from tutor.ui.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from tutor.ui.app_protocol import TutorAppLike
    from tutor.ui.mark_styles import Marks
    from tutor.ui.session import Session


def footer(palette: bool = False) -> KeyBar:
    """The key bar: the screen's keys on one line, compact so that they fit in 80 columns."""
    return KeyBar(palette=palette)


HEADER_SIDES = 18  # columns the Header keeps for its icon (8) and the clock space (10)
HEADER_EDGE = 1  # a column kept free at each end where the title takes the header's whole row


def header_layout(title: str, sub: str, width: int) -> tuple[str, str, str]:
    """(how, title, subtitle) for a header `width` cells wide that never cuts the title: the
    less important parts give way first. "row": title and subtitle beside the icon; the subtitle
    (an exercise's id, a lesson's place) goes first; then the icon and the clock's space give the
    title their room ("wide"); a title wider than the whole row wraps over more rows ("rows")."""
    beside = max(width - HEADER_SIDES, 1)
    if cell_len(title) + (cell_len(sub) + 3 if sub else 0) <= beside:
        return "row", title, sub
    if cell_len(title) <= beside:
        return "row", title, ""
    if cell_len(title) <= width - 2 * HEADER_EDGE:
        return "wide", title, ""
    return "rows", title, ""


class TutorScreen(Screen[ScreenResultType]):
    """What every tutor screen has: the session, and texts and footer labels that follow `app.lang`."""

    if TYPE_CHECKING:  # the tutor's app, named by what screens use of it (tutor.ui.app imports screens)
        app: TutorAppLike

    @property
    def session(self) -> Session:
        return self.app.session

    def notify(self, message: str, **options: Any) -> None:
        """The app's notification, by its rule (TutorApp.notify: text unless markup is asked for);
        Textual's own would ask for markup."""
        self.app.notify(message, **options)

    @property
    def lang(self) -> str:
        return self.app.lang

    @property
    def marks(self) -> Marks:
        return self.app.marks

    def say(self, key: str, **fields: Any) -> str:
        return say(key, self.app.lang, **fields)

    def shown_path(self, path: Path | None) -> str:
        """A path as the learner can use it: whole in a terminal; in a browser (`serve`), where the
        file is on the server, from the tutor's home (workspace/.backup/...)."""
        if path is None or not self.app.is_web:
            return str(path)
        try:
            return str(path.relative_to(self.session.home))
        except ValueError:
            return path.name

    def key_labels(self) -> dict[str, str]:
        """Footer labels that depend on the screen's state (e.g. Check becomes Cancel)."""
        return {}

    def apply_lang(self) -> None:
        translate_bindings(self, self.lang, self.key_labels())
        self.render_texts()
        self.refresh_bindings()

    def render_texts(self) -> None:
        """Fill every text of the screen in the current language."""

    _full_title = ("", "")

    def set_title(self, title: str, sub: str = "") -> None:
        """Set the header's title and subtitle as they fit the terminal (again on resize): the
        title whole, in as many of the header's rows as it needs (header_layout)."""
        self._full_title = (title, sub)
        how, self.title, self.sub_title = header_layout(title, sub, self.app.size.width)
        for header in self.query(Header):
            header.set_class(how == "wide", "-wide")
            header.set_class(how == "rows", "-rows")

    def on_resize(self, event: events.Resize) -> None:
        if self._full_title != ("", ""):
            self.set_title(*self._full_title)

    def on_mount(self) -> None:
        # Runs after a subclass's own on_mount: Textual calls handlers along the MRO.
        self.apply_lang()

    def runs_code(self) -> bool:
        """Whether learner code may run from this screen: then a worker is made ready while it shows."""
        return False

    def on_screen_resume(self) -> None:
        # After a subclass's own handler (handlers run along the MRO); also on the first show.
        if self.runs_code():
            self.app.want_worker()

    def record(self, fn: Callable[..., Any], *args: Any) -> None:
        """Change progress (a tutor.progress.changes function), saved off the UI thread (tutor.ui.saving)."""
        record(self.app, fn, *args)


class TutorModal(TutorScreen[ScreenResultType], ModalScreen[ScreenResultType]):
    """A tutor screen drawn over the one below it (help, a yes/no question, the solution)."""
