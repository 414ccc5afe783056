"""The editor at 80x24: every starter fits its editable columns, and a long line never hides the
start of the other lines (no view scrolled sideways under them)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tutor.course import read_course
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks
from tutor.ui.widgets.editor import CodeEditor

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
LONG = "x = 1  # " + "a comment that runs far past the right edge of an eighty-column terminal, " * 2
TEXT = f"import jax\nimport jax.numpy as jnp\n{LONG}\ny = 2\n"


async def _open_editor(app, pilot, tui, text: str) -> CodeEditor:
    from tutor.ui.screens.exercise import ExerciseScreen

    exercise = COURSE.exercise("pure-scale") or COURSE.exercises[0]
    app.push_screen(ExerciseScreen(exercise))
    await tui.until(pilot, lambda: isinstance(app.screen, ExerciseScreen), timeout=10, what="the exercise screen")
    await pilot.pause()
    if not isinstance(app.focused, CodeEditor):
        await pilot.press("f2")
        await tui.until(pilot, lambda: isinstance(app.focused, CodeEditor), timeout=10, what="the editor")
    editor = app.focused
    editor.load_text(text)
    await pilot.pause()
    return editor


def _rows(editor: CodeEditor) -> list[str]:
    """The editor's rows as shown, line-number gutter included."""
    return [editor.render_line(y).text for y in range(editor.size.height)]


def test_a_long_line_never_hides_the_start_of_the_others(home, fake_sandbox, tui):
    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        app.marks = Marks(ascii_only=False)
        async with app.run_test(size=(80, 24)) as pilot:
            editor = await _open_editor(app, pilot, tui, TEXT)
            editor.move_cursor((2, len(LONG)))  # the end of the long line, as typing there leaves it
            await pilot.pause()
            await pilot.press("down")  # and on to a short line below it
            await pilot.pause()
            shown = "\n".join(_rows(editor))
            for line in ("import jax", "import jax.numpy as jnp", "y = 2"):
                assert line in shown, f"{line!r} is not whole on screen:\n{shown}"
            assert "x = 1  # a comment" in shown
            assert all(len(row.rstrip()) <= editor.size.width for row in _rows(editor))

    asyncio.run(body())


def test_validate_knows_how_wide_the_editor_is(home, fake_sandbox, tui):
    """`validate` flags a starter line wider than the editor shows (tutor.course.author_rules):
    measured here in the editor itself, a line of exactly that width fits, one more does not,
    for files shorter and taller than the editor and with 1 to 3 digits of line numbers."""
    from tutor.course.author_rules import editor_columns

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=(80, 24)) as pilot:
            editor = await _open_editor(app, pilot, tui, "")
            for count in (9, 12, 19, 20, 150):
                for width in (editor_columns(count), editor_columns(count) + 1):
                    lines = ["y = 2"] * count
                    lines[3] = "x" * width
                    editor.load_text("\n".join(lines))
                    editor.move_cursor((3, width))
                    await pilot.pause()
                    await pilot.pause()
                    scrolled = bool(editor.scroll_x) or editor.wrapped_document.height > count
                    assert scrolled == (width > editor_columns(count)), (count, width)

    asyncio.run(body())
