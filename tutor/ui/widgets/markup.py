"""Small helpers for course text: cheap updates of Markdown widgets, and inline Markdown as Rich Text."""

from __future__ import annotations

import re

from rich.text import Text
from textual.await_complete import AwaitComplete
from textual.widgets import Markdown

_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*")


def set_markdown(widget: Markdown, source: str) -> AwaitComplete | None:
    """Update a Markdown widget only if its text changed: re-parsing rebuilds all its children.
    What it returns, awaited, is the new text laid out in blocks (None: nothing changed)."""
    if widget.source != source:
        return widget.update(source)
    return None


def inline(source: str, style: str = "") -> Text:
    """One line of Markdown with `code` and **bold**, as Rich Text (much lighter than a Markdown widget)."""
    text = Text(style=style)
    pos = 0
    for match in _INLINE.finditer(source):
        text.append(source[pos : match.start()])
        if match.group(1) is not None:
            text.append(match.group(1), style="bold cyan")
        else:
            text.append(match.group(2), style="bold")
        pos = match.end()
    text.append(source[pos:])
    return text
