"""The checks of an exercise as a list: a mark per check, and the message of each that did not pass."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text
from textual.widgets import Static

from tutor.controls import show_controls
from tutor.i18n import pick

INDENT = 4  # messages sit under their check; wrapped lines keep the indent


class CheckList(Static):
    """Rows in the exercise's declared order; checks not reported yet are shown as pending."""

    _shape: tuple = ()  # what decides the list's height: its rows and their messages

    def show(self, checks, results: dict, lang: str, marks, running: bool) -> None:
        rows: list[RenderableType] = []
        shape: list = [self.size.width]
        width = max(self.size.width, 1)
        last_message = None
        for check in checks:
            result = results.get(check.id)
            name = check.name.get(lang) or check.id
            if result is None:
                mark = marks["running"] if running else marks["skipped"]
                rows.append(Text(f"{mark} {name}", style="dim"))
                shape.append(cell_len(f"{mark} {name}") // width)
                continue
            line = Text()
            line.append(f"{marks[result.status]} ", style=marks.style(result.status))
            line.append(name, style="bold" if result.status != "skipped" else "dim")
            line.append(f"  ({check.id})", style="dim")
            rows.append(line)
            shape.append(cell_len(line.plain) // width)  # the rows it wraps to
            # A message may quote the learner's exception: its control sequences are shown, not obeyed.
            message = show_controls(pick(result.message, lang).rstrip(), not marks.ascii) if result.message else ""
            repeated, last_message = message == last_message, message
            if result.status != "pass" and message and not repeated:  # "not run: ..." once, not per check
                rows.append(
                    Padding(Text(message, style="dim" if result.status == "skipped" else ""), (0, 0, 0, INDENT))
                )
                shape.append(message)
        # A check that passes while the run goes turns a pending row into a done one: same height,
        # so a repaint; a full layout of the screen per check cost 20-100 ms of the event loop.
        self.update(Group(*rows), layout=not running or tuple(shape) != self._shape)
        self._shape = tuple(shape)
