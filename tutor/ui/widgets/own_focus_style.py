"""Restyle only the widget itself when it gains or loses the focus.

Textual restyles a widget's whole subtree on a focus change, in case a rule styles descendants
by an ancestor's `:focus`. No rule of the tutor's does (tests/ui/test_focus_styles.py holds
that), and for a lesson body of 100-250 Markdown nodes that restyle cost 0.1-0.3 s on every Tab
that moved the focus between the lesson and a cell."""

from __future__ import annotations

from textual.containers import VerticalScroll


class OwnFocusStyle:
    def watch_has_focus(self, _has_focus: bool) -> None:
        self.app.stylesheet.update_nodes([self], animate=True)  # type: ignore[attr-defined]


class ReadingScroll(OwnFocusStyle, VerticalScroll):
    """A VerticalScroll of course text (a lesson, a task) that takes the focus for its scroll keys."""
