"""What all tutor screens share: the session, the language, and re-rendering when it changes."""

from __future__ import annotations

from textual.screen import ModalScreen, Screen
from textual.widgets import Footer

from tutor.ui.keys import translate_bindings
from tutor.ui.texts import say


def footer(palette: bool = False) -> Footer:
    """The key bar: compact, so that a screen's keys fit in 80 columns."""
    return Footer(compact=True, show_command_palette=palette)


class LangMixin:
    """Texts and footer labels that follow `app.lang`."""

    @property
    def session(self):
        return self.app.session

    @property
    def lang(self) -> str:
        return self.app.lang

    @property
    def marks(self):
        return self.app.marks

    def say(self, key: str, **fields) -> str:
        return say(key, self.app.lang, **fields)

    def key_labels(self) -> dict[str, str]:
        """Footer labels that depend on the screen's state (e.g. Check becomes Cancel)."""
        return {}

    def apply_lang(self) -> None:
        translate_bindings(self, self.lang, self.key_labels())
        self.render_texts()
        self.refresh_bindings()

    def render_texts(self) -> None:
        """Fill every text of the screen in the current language."""

    def on_mount(self) -> None:
        # Runs after a subclass's own on_mount: Textual calls handlers along the MRO.
        self.apply_lang()

    def record(self, fn, *args) -> None:
        """Save progress; if that fails, say why instead of crashing."""
        why = self.session.record(fn, *args)
        if why:
            self.notify(self.say("progress_error", why=why), severity="error", timeout=8)


class TutorScreen(LangMixin, Screen):
    pass


class TutorModal(LangMixin, ModalScreen):
    pass
