"""A cell's code lexed once and kept per width draws exactly what Rich's Syntax draws, at every
width it is asked for, in any order, and again after other widths."""

from __future__ import annotations

import io

from rich.console import Console
from rich.syntax import Syntax

from tutor.ui.widgets.code import code_view

CODE = '''def step(state, x):
    """One step: the new state and the output."""
    count = state["count"] + 1  # a long comment that must wrap at narrow widths, past forty columns
    return {"count": count}, x * count
'''


def drawn(renderable, width: int) -> str:
    console = Console(width=width, record=True, color_system="truecolor", file=io.StringIO())
    console.print(renderable)
    return console.export_text(styles=True)


def test_each_width_is_drawn_as_rich_draws_it_however_often_and_in_whatever_order():
    kept = code_view(CODE)
    plain = Syntax(
        CODE.rstrip("\n"), "python", theme="ansi_dark", background_color="default", word_wrap=True, line_numbers=True
    )
    for width in (78, 76, 30, 78, 12, 76, 120, 30, 78):
        assert drawn(kept, width) == drawn(plain, width), width


def test_the_code_is_lexed_once_whatever_the_widths():
    kept = code_view(CODE)
    lexed = []
    lexer_call = Syntax.highlight

    def counted(self, code, line_range=None):
        lexed.append(code)
        return lexer_call(self, code, line_range)

    Syntax.highlight = counted  # type: ignore[method-assign]
    try:
        for width in (78, 76, 30, 78):
            drawn(kept, width)
    finally:
        Syntax.highlight = lexer_call  # type: ignore[method-assign]
    assert len(lexed) == 1


def test_padding_is_drawn_as_rich_draws_it():
    from tutor.ui.widgets.code import CodeSyntax

    options = dict(theme="ansi_dark", word_wrap=True, line_numbers=True, padding=(1, 2))
    kept, plain = CodeSyntax(CODE, "python", **options), Syntax(CODE, "python", **options)
    for width in (40, 78, 40):
        assert drawn(kept, width) == drawn(plain, width), width
