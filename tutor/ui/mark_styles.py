"""Status marks in the TUI: the glyphs of tutor.terminal.marks (one rule for CLI and TUI) plus text styles."""

from __future__ import annotations

import os

from tutor.terminal.marks import Glyphs

# Colours say the same as the glyphs, for those who see them. Under NO_COLOR Textual turns
# colours into greys, and dark red on a dark background all but vanishes: keep only the bold.
STYLES = {
    "pass": "bold green",
    "passed": "bold green",
    "right": "bold green",
    "fail": "bold red",
    "timeout": "bold red",
    "wrong": "bold red",
    "problem": "bold red",
    "error": "bold yellow",
    "skipped": "dim",
    "cancelled": "bold dim",
    "traceback": "red",
    "bar": "bold green",
}


class Marks(Glyphs):
    """The glyph set and text styles for this terminal: `marks[status]`, `marks.style(status)`."""

    def __init__(self, ascii_only: bool | None = None, no_color: bool | None = None):
        super().__init__(ascii_only)  # the terminal Textual draws on: the process's real stdout
        self.no_color = ("NO_COLOR" in os.environ) if no_color is None else no_color

    def style(self, status: str, default: str = "") -> str:
        style = STYLES.get(status, default)
        if self.no_color:
            style = " ".join(w for w in style.split() if w in ("bold", "dim", "italic", "underline", "reverse"))
        return style
