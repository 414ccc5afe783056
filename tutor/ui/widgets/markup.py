"""Small helpers for course text: cheap updates of Markdown widgets, inline Markdown as Rich Text,
and rows whose wrapped lines hang under their text, not under their label."""

from __future__ import annotations

import re

from rich.table import Table
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


def hanging(rows: list[tuple[Text, Text]]) -> Table:
    """Rows of (label, text), e.g. ("✓ A. ", an answer option): a text that wraps continues under
    itself, so the labels stay a column of their own."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for label, text in rows:
        grid.add_row(label, text)
    return grid
