"""The editor at 80x24: every starter fits its editable columns, and a long line never hides the
start of the other lines (no view scrolled sideways under them)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.ui.app import make_app
from tutor.ui.marks import Marks
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


def test_every_starter_fits_the_editor_at_80_columns(home, fake_sandbox, tui):
    """Measured in the editor itself: the widest line of each starter, with the cursor after it,
    needs no sideways scrolling."""

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=(80, 24)) as pilot:
            editor = await _open_editor(app, pilot, tui, "")
            too_wide = []
            for ex in COURSE.exercises:
                starter = ROOT / "lessons" / "exercises" / ex.id / "starter.py"
                text = starter.read_text(encoding="utf-8")
                lines = text.split("\n")
                widest = max(range(len(lines)), key=lambda i: len(lines[i]))
                editor.load_text(text)
                editor.move_cursor((widest, len(lines[widest])))
                await pilot.pause()
                if editor.scroll_x or editor.wrapped_document.height > len(lines):
                    too_wide.append(f"{starter.relative_to(ROOT)}:{widest + 1} ({len(lines[widest])} columns)")
            assert not too_wide, "starters wider than the editor at 80 columns:\n" + "\n".join(too_wide)

    if not COURSE.exercises:
        pytest.skip("no exercises")
    asyncio.run(body())
