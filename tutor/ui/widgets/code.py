"""Python code as the tutor shows it: highlighted, wrapped, with line numbers. A layout asks a
Static for its height and then paints it, each time at the width it has then: Rich's Syntax lexes
the code again on every call (16 % of the time the lessons took to open, profiled). This one lexes
once and keeps what it drew at the last few widths."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.segment import Segment, Segments
from rich.syntax import Syntax
from rich.text import Text

_WIDTHS_KEPT = 4  # a pane is drawn at a width or two (with and without its scrollbar)


class CodeSyntax(Syntax):
    """Syntax that lexes its code once and keeps its lines for the last few widths it was drawn at."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._lexed: dict[tuple, Text] = {}
        self._drawn: dict[tuple, list[Segment]] = {}

    def highlight(self, code: str, line_range: tuple[int | None, int | None] | None = None) -> Text:
        key = (code, line_range)
        if key not in self._lexed:
            self._lexed[key] = super().highlight(code, line_range)
        return self._lexed[key].copy()  # the caller may change it

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        key = (options.max_width, options.ascii_only)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = list(self._get_syntax(console, options))
            if len(self._drawn) >= _WIDTHS_KEPT:
                self._drawn.pop(next(iter(self._drawn)))
            self._drawn[key] = drawn
        if any(self.padding):  # as Syntax itself does
            yield Padding(Segments(drawn), style=self._get_base_style(), pad=self.padding)
        else:
            yield Segments(drawn)


def code_view(code: str) -> Syntax:
    """A cell's code. Line numbers make a wrapped long line visible as one line: its continuation
    has no number, so it cannot be mistaken for a statement of its own."""
    # ansi_dark uses the terminal's own palette: right on 16-colour terminals and under NO_COLOR.
    return CodeSyntax(
        code.rstrip("\n"), "python", theme="ansi_dark", background_color="default", word_wrap=True, line_numbers=True
    )
