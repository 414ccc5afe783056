"""Status glyphs: distinct shapes (not only colours, for NO_COLOR), ASCII when the terminal is not UTF-8."""

from __future__ import annotations

import os
import sys


def unicode_ok() -> bool:
    """Whether the terminal can show non-ASCII glyphs, judged from the locale, then the stream."""
    env = dict(os.environ)
    if env.get("LC_CTYPE") == "C.UTF-8" and env.get("LANG") and not env.get("LC_ALL"):
        # Python itself sets LC_CTYPE=C.UTF-8 under LANG=C (PEP 538); the terminal was told LANG.
        env.pop("LC_CTYPE")
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var)
        if value:
            # Python may give stdout a UTF-8 encoding even under LANG=C, but the terminal
            # behind it was told "not UTF-8": trust the locale.
            return "utf" in value.lower().replace("-", "")
    stream = sys.__stdout__
    return "utf" in (getattr(stream, "encoding", None) or "").lower()


UNICODE = {
    # check results and verdicts
    "pass": "✓", "fail": "✗", "error": "!", "skipped": "-", "timeout": "✗", "running": "…",
    # progress of lessons and exercises
    "new": "○", "started": "◐", "attempted": "◐", "done": "✓", "passed": "✓",
    # quiz options
    "chosen": "▶", "right": "✓", "wrong": "✗",
    "chart": "braille",
}
ASCII = {
    "pass": "+", "fail": "x", "error": "!", "skipped": "-", "timeout": "x", "running": "...",
    "new": "-", "started": "~", "attempted": "~", "done": "+", "passed": "+",
    "chosen": ">", "right": "+", "wrong": "x",
    "chart": "*",
}


# Colours say the same as the glyphs, for those who see them. Under NO_COLOR Textual turns
# colours into greys, and dark red on a dark background all but vanishes: keep only the bold.
STYLES = {
    "pass": "bold green", "passed": "bold green", "right": "bold green",
    "fail": "bold red", "timeout": "bold red", "wrong": "bold red", "problem": "bold red",
    "error": "bold yellow", "skipped": "dim", "traceback": "red", "bar": "bold green",
}


class Marks:
    """The glyph set and text styles for this terminal: `marks[status]`, `marks.style(status)`."""

    def __init__(self, ascii_only: bool | None = None, no_color: bool | None = None):
        self.ascii = (not unicode_ok()) if ascii_only is None else ascii_only
        self.no_color = ("NO_COLOR" in os.environ) if no_color is None else no_color
        self.table = ASCII if self.ascii else UNICODE

    def __getitem__(self, status: str) -> str:
        return self.table.get(status, "?")

    def style(self, status: str, default: str = "") -> str:
        style = STYLES.get(status, default)
        if self.no_color:
            style = " ".join(w for w in style.split() if w in ("bold", "dim", "italic", "underline", "reverse"))
        return style
