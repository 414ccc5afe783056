"""After a pass, the learner's code and the reference side by side, the differences marked.

An offer (F4 after a pass), never shown unasked; asking is recorded as viewing the solution, as
F4 always was. The rows are aligned by difflib: a line only one side has faces a blank; lines
that differ are marked in the gutter (`diff -y`'s marks: `|` changed, `<` only yours, `>` only the
reference), which also says it without colour, and tinted where colour is on."""

from __future__ import annotations

import difflib

from rich.cells import cell_len, set_cell_size
from rich.console import Group
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.ui.screens.base import TutorModal, footer

MARKS = {"equal": " ", "replace": "|", "delete": "<", "insert": ">"}


def side_by_side(yours: str, reference: str) -> list[tuple[str, str, str]]:
    """(your line, mark, reference line) rows: equal lines face each other, differing runs are
    paired line by line and padded with blanks where one side is longer."""
    a, b = yours.splitlines(), reference.splitlines()
    rows: list[tuple[str, str, str]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            rows.extend((line, " ", line) for line in a[i1:i2])
            continue
        left, right = a[i1:i2], b[j1:j2]
        for k in range(max(len(left), len(right))):
            mine = left[k] if k < len(left) else None
            theirs = right[k] if k < len(right) else None
            mark = (
                MARKS["replace"]
                if mine is not None and theirs is not None
                else MARKS["delete" if theirs is None else "insert"]
            )
            rows.append((mine or "", mark, theirs or ""))
    return rows


def fit(line: str, width: int) -> str:
    """One line in exactly `width` cells: cut with '…' when longer (wide characters counted)."""
    line = line.expandtabs(4)
    if cell_len(line) <= width:
        return set_cell_size(line, width)
    return set_cell_size(line, max(width - 1, 0)) + "…"


def render_rows(rows: list[tuple[str, str, str]], width: int, colour: bool) -> Text:
    half = max((width - 3) // 2, 8)
    text = Text(no_wrap=True)
    for i, (mine, mark, theirs) in enumerate(rows):
        if i:
            text.append("\n")
        style = ""
        if mark != " " and colour:
            style = "on rgb(60,45,0)" if mark == "|" else ("on rgb(70,20,20)" if mark == "<" else "on rgb(20,60,20)")
        text.append(fit(mine, half), style=style)
        text.append(f" {mark} ", style="bold" if mark != " " else "dim")
        text.append(fit(theirs, half), style=style)
    return text


class CompareScreen(TutorModal):
    """Your passing code (left) beside the course's reference (right)."""

    BINDINGS = [Binding("escape,f4,q", "back", "Back")]

    def __init__(self, exercise_id: str, yours: str, reference: str):
        super().__init__()
        self.exercise_id = exercise_id
        self.rows = side_by_side(yours, reference)

    def compose(self):
        yield Static(id="compare-head")
        with VerticalScroll(id="compare-box"):
            yield Static(id="compare-rows")
        yield footer()

    def on_mount(self) -> None:
        self.query_one("#compare-box").focus()

    def differences(self) -> int:
        return sum(1 for _, mark, _ in self.rows if mark != " ")

    def render_texts(self) -> None:
        box = self.query_one("#compare-box")
        box.border_title = self.say("compare_title", id=self.exercise_id)
        width = max(self.app.size.width - 4, 20)
        half = max((width - 3) // 2, 8)
        head = Text(no_wrap=True)
        head.append(fit(self.say("compare_yours"), half), style="bold")
        head.append("   ")
        head.append(fit(self.say("compare_reference"), half), style="bold")
        head.append("\n" + self.say("compare_legend", n=self.differences()), style="dim")
        self.query_one("#compare-head", Static).update(head)
        rows = render_rows(self.rows, width, not self.marks.no_color)
        # Rows drawn by Rich as they are: Textual's own text layout dropped the code's indentation.
        self.query_one("#compare-rows", Static).update(Group(*rows.split("\n")))

    def on_resize(self, event) -> None:
        self.render_texts()

    def action_back(self) -> None:
        self.dismiss()
