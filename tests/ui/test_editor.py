"""The code editor (CodeEditor) and the scratch copy of a lesson cell, driven with Pilot at 80x24.

Editing keys are tested in the exercise screen's editor, where the screen's own F-keys and Esc
must still work. Like tests/ui/test_ui.py: plain functions running asyncio.run(...), a fresh home
each and the scripted fake sandbox (the scratch run alone uses the real one); waiting polls the
UI's state against a deadline.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks
from tutor.ui.widgets.editor import CodeEditor, code_part, make_editor, opens_block

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
SIZE = (80, 24)
RUN_DEADLINE_S = 180  # a run may have to wait for a worker's JAX import on a busy machine
SCREENSHOTS = os.environ.get("JAXSTATE_TUTOR_SCREENSHOTS")  # a folder: save SVGs of the screens to look at


def new_app(home: Path, sandbox, lang: str = "en"):
    app = make_app(home, lang, course=(COURSE, []), sandbox=sandbox)
    app.marks = Marks(ascii_only=False)
    return app


def screenshot(app, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        app.save_screenshot(f"{name}.svg", SCREENSHOTS)


async def exercise_editor(tui, pilot, text: str, cursor=None) -> CodeEditor:
    """The pure-scale exercise's editor, focused (F2 goes from the task to the code), holding `text`."""
    from tutor.ui.screens.exercise import ExerciseScreen

    exercise = COURSE.exercise("pure-scale")
    if exercise is None:
        pytest.skip("exercise pure-scale is not in the course")
    pilot.app.push_screen(ExerciseScreen(exercise))
    await tui.until(pilot, lambda: isinstance(pilot.app.screen, ExerciseScreen), timeout=10, what="the exercise screen")
    await pilot.pause()
    if not isinstance(pilot.app.focused, CodeEditor):
        await pilot.press("f2")
        await tui.until(pilot, lambda: isinstance(pilot.app.focused, CodeEditor), timeout=10, what="the editor")
    editor = pilot.app.focused
    editor.load_text(text)
    lines = text.split("\n")
    editor.move_cursor(cursor if cursor is not None else (len(lines) - 1, len(lines[-1])))
    await pilot.pause()
    return editor


# ---- the line rules, without a screen ---------------------------------------------------------


def test_a_block_opens_after_a_colon_whatever_comment_follows():
    assert opens_block("def f(x):")
    assert opens_block("    for i in range(3):   # count  ")
    assert opens_block("if a == '#':")
    assert not opens_block("d = {'a': 1}  # note:")
    assert not opens_block("s = 'x:'")
    assert not opens_block("print('a:#b')")
    assert code_part('x = "a#b"  # c') == 'x = "a#b"  '
    assert code_part("t = '''#'''  # c") == "t = '''#'''  "


# ---- editing keys -----------------------------------------------------------------------------


def test_enter_after_a_colon_indents_one_level(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            editor = await exercise_editor(tui, pilot, "def f(x):")
            await pilot.press("enter")
            assert editor.text == "def f(x):\n    " and editor.cursor_location == (1, 4)
            await pilot.press("r", "e", "t", "u", "r", "n", "space", "x")
            assert editor.text == "def f(x):\n    return x"
            screenshot(app, "exercise-editor")
            # a comment after the colon does not stop it
            editor.load_text("    if x:  # positive")
            editor.move_cursor((0, 21))
            await pilot.press("enter")
            assert editor.text == "    if x:  # positive\n        "
            await pilot.press("ctrl+z")  # the new line and its indentation are one undo step
            assert editor.text == "    if x:  # positive"

    asyncio.run(body())


def test_enter_keeps_the_indentation(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            editor = await exercise_editor(tui, pilot, "def f(x):\n    y = 2 * x")
            await pilot.press("enter")
            assert editor.text == "def f(x):\n    y = 2 * x\n    " and editor.cursor_location == (2, 4)
            await pilot.press("enter")  # the line left holding only spaces is emptied
            assert editor.text == "def f(x):\n    y = 2 * x\n\n    " and editor.cursor_location == (3, 4)
            editor.load_text("    return a, b")
            editor.move_cursor((0, 13))  # Enter in the middle of a line: the rest goes down, indented
            await pilot.press("enter")
            assert editor.text == "    return a,\n     b"

    asyncio.run(body())


def test_backspace_in_the_indentation_removes_one_level(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            editor = await exercise_editor(tui, pilot, "        return x", cursor=(0, 8))
            await pilot.press("backspace")
            assert editor.text == "    return x" and editor.cursor_location == (0, 4)
            await pilot.press("backspace")
            assert editor.text == "return x" and editor.cursor_location == (0, 0)
            await pilot.press("ctrl+z")  # one level back per undo step
            assert editor.text == "    return x"
            await pilot.press("ctrl+z")
            assert editor.text == "        return x"
            editor.load_text("      x")  # between two levels: back to the previous one
            editor.move_cursor((0, 6))
            await pilot.press("backspace")
            assert editor.text == "    x"
            editor.load_text("    xy")  # after text, Backspace deletes one character as usual
            editor.move_cursor((0, 6))
            await pilot.press("backspace")
            assert editor.text == "    x"

    asyncio.run(body())


def test_tab_and_shift_tab_indent_and_dedent_a_selection_of_three_lines(home, fake_sandbox, tui):
    text = "a = 1\nif a:\n    b = 2\nc = 3"

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.widgets.text_area import Selection

            editor = await exercise_editor(tui, pilot, text)
            editor.selection = Selection((0, 0), (2, 9))
            await pilot.press("tab")
            assert editor.text == "    a = 1\n    if a:\n        b = 2\nc = 3"
            assert editor.selected_text == "    a = 1\n    if a:\n        b = 2"  # the lines stay selected
            await pilot.press("shift+tab")
            assert editor.text == text and editor.selected_text == "a = 1\nif a:\n    b = 2"
            await pilot.press("shift+tab")  # only the lines that have a level to give lose one
            assert editor.text == "a = 1\nif a:\nb = 2\nc = 3"
            await pilot.press("ctrl+z")  # each is one undo step
            assert editor.text == text
            await pilot.press("ctrl+z")
            assert editor.text == "    a = 1\n    if a:\n        b = 2\nc = 3"
            await pilot.press("ctrl+z")
            assert editor.text == text
            # a selection that ends at the start of a line leaves that line alone
            editor.selection = Selection((2, 0), (3, 0))
            await pilot.press("tab")
            assert editor.text == "a = 1\nif a:\n        b = 2\nc = 3"
            # Tab with no selection: spaces to the next tab stop, as TextArea does
            editor.load_text("x=1")
            editor.move_cursor((0, 1))
            await pilot.press("tab")
            assert editor.text == "x   =1"

    asyncio.run(body())


def test_shift_tab_dedents_and_keeps_the_focus_in_the_editor(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            editor = await exercise_editor(tui, pilot, "def f(x):\n    return x")
            await pilot.press("shift+tab")
            assert app.focused is editor
            assert editor.text == "def f(x):\nreturn x" and editor.cursor_location == (1, 8)
            await pilot.press("shift+tab")  # nothing left to dedent: still here
            await pilot.press("Z")
            assert app.focused is editor and editor.text == "def f(x):\nreturn xZ"

    asyncio.run(body())


def test_escape_posts_leave_and_the_editor_does_not_close_the_screen(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.screen import Screen
            from textual.widgets import Static

            class Host(Screen):
                left: list = []

                def compose(self):
                    yield make_editor("x = 1")
                    yield Static("below", id="below")

                def on_code_editor_leave(self, message: CodeEditor.Leave) -> None:
                    self.left.append(message)

            host = Host()
            app.push_screen(host)
            await pilot.pause()
            editor = host.query_one(CodeEditor)
            editor.focus()
            await pilot.pause()
            await pilot.press("escape")
            await tui.until(pilot, lambda: host.left, timeout=10, what="CodeEditor.Leave")
            assert host.left[0].editor is editor and host.left[0].control is editor
            # the screen decides: this one does nothing, so the editor stays, focused and unchanged
            assert app.screen is host and app.focused is editor and editor.text == "x = 1"

            # In the exercise screen, Esc in the editor does not close the screen either.
            editor = await exercise_editor(tui, pilot, "x = 1")
            screen = app.screen
            await pilot.press("escape")
            await tui.until(pilot, lambda: app.focused is not editor, timeout=10, what="Esc to leave the editor")
            assert app.screen is screen

    asyncio.run(body())


def test_f_keys_reach_the_screen(home, fake_sandbox, tui):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.widgets import TabbedContent

            editor = await exercise_editor(tui, pilot, "x = 1")
            await pilot.press("f2")  # the exercise screen's key: from the code to what was being read
            await tui.until(pilot, lambda: app.focused is not editor, timeout=10, what="F2 to leave the editor")
            assert app.screen.query_one(TabbedContent).active != "code"
            await pilot.press("f2")
            await tui.until(pilot, lambda: app.focused is editor, timeout=10, what="F2 to come back")
            assert editor.text == "x = 1"
            bound = {key for key in CodeEditor._merge_bindings().key_to_bindings}
            assert not {k for k in bound if k[:1] == "f" and k[1:].isdigit()}, "the editor binds an F-key"

    asyncio.run(body())


def test_a_fresh_editor_highlights_python(home, fake_sandbox):
    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.screen import Screen

            class Host(Screen):
                def compose(self):
                    yield make_editor("def f(x):\n    return x\n")

            app.push_screen(Host())
            await pilot.pause()
            editor = app.screen.query_one(CodeEditor)
            assert editor.language == "python"
            await pilot.pause()
            # line 2, away from the cursor's line: the keyword has a style of its own
            segments = {s.text.strip(): s.style for s in editor.render_line(1) if s.text.strip()}
            assert segments["return"].color != segments["x"].color, segments

    asyncio.run(body())


def test_without_colour_keywords_are_bold_not_grey(home, fake_sandbox, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from textual.screen import Screen

            class Host(Screen):
                def compose(self):
                    yield make_editor("def f(x):\n    return x  # note\n")

            app.push_screen(Host())
            await pilot.pause()
            editor = app.screen.query_one(CodeEditor)
            await pilot.pause()
            assert editor.theme == "tutor-monochrome"
            segments = {s.text.strip(): s.style for s in editor.render_line(1) if s.text.strip()}
            assert segments["return"].bold and not segments["x"].bold and segments["# note"].italic, segments

    asyncio.run(body())


# ---- the scratch copy of a cell ---------------------------------------------------------------


def _lesson(lesson_id: str = "6.1"):
    lesson = COURSE.lesson(lesson_id)
    if lesson is None or not lesson.cells:
        pytest.skip(f"lesson {lesson_id} with cells is not in the course")
    return lesson


async def open_scratch(tui, pilot, lesson):
    """The lesson, Tab to its first cell, e: the scratch screen on a copy of that cell."""
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.screens.scratch import ScratchScreen
    from tutor.ui.widgets.cell_view import CellView

    pilot.app.push_screen(LessonScreen(lesson))
    await tui.until(
        pilot,
        lambda: isinstance(pilot.app.screen, LessonScreen) and pilot.app.screen.query(CellView),
        timeout=10,
        what="the lesson's cells",
    )
    lesson_screen = pilot.app.screen
    await pilot.press("tab")
    await tui.until(pilot, lambda: isinstance(pilot.app.focused, CellView), timeout=10, what="a focused cell")
    cell = pilot.app.focused.cell
    await pilot.press("e")
    await tui.until(pilot, lambda: isinstance(pilot.app.screen, ScratchScreen), timeout=10, what="the scratch screen")
    await pilot.pause()
    return lesson_screen, cell, pilot.app.screen


def test_scratch_copy_of_a_cell_runs_the_changed_code(home, sandbox, tui):
    lesson = _lesson()

    async def body():
        app = new_app(home, sandbox)
        async with app.run_test(size=SIZE) as pilot:
            lesson_screen, cell, screen = await open_scratch(tui, pilot, lesson)
            editor = screen.editor
            assert app.focused is editor and editor.text == cell.code
            editor.action_select_all()
            for key in 'print("scratch says", 6 * 7)':
                await pilot.press(key)
            await pilot.press("enter")
            for key in "1 / 0":
                await pilot.press(key)
            await pilot.press("f5")
            await tui.until(pilot, lambda: screen.verdict is not None, RUN_DEADLINE_S, "the scratch run's verdict")
            output = tui.plain(screen.query_one("#scratch-output"))
            assert "scratch says 42" in output, (
                editor.text,
                screen.verdict.status,
                screen.verdict.kind,
                screen.verdict.message,
                tui.plain(screen.query_one("#scratch-status")),
            )
            assert "ZeroDivisionError" in output  # the traceback, under what it printed
            assert "raised ZeroDivisionError" in tui.plain(screen.query_one("#scratch-status"))
            assert app.focused is editor  # keep editing right away
            editor.load_text('print("again")')
            await pilot.press("ctrl+r")
            await tui.until(pilot, lambda: screen.verdict is not None, RUN_DEADLINE_S, "the second verdict")
            assert "again" in tui.plain(screen.query_one("#scratch-output"))
            assert "✓ finished" in tui.plain(screen.query_one("#scratch-status"))
            screenshot(app, "scratch-ran")
            # Esc leaves the editor, Esc again goes back: the lesson's cell is as it was
            await pilot.press("escape")
            await tui.until(pilot, lambda: app.focused is not editor, timeout=10, what="Esc to leave the editor")
            assert app.screen is screen
            await pilot.press("escape")
            await tui.until(pilot, lambda: app.screen is lesson_screen, timeout=10, what="the lesson again")
            assert COURSE.lesson(lesson.id).cells[0].code == cell.code
            # progress is saved off the UI thread: poll while the loop runs (it starts the saves)
            await tui.until(pilot, lambda: app.session.state.wait_saved(0), 10, "the background saves")
            progress = json.loads((home / "progress.json").read_text(encoding="utf-8"))
            assert not progress.get("exercises") and progress["lessons"][lesson.id]["status"] == "started"

    asyncio.run(body())


def test_scratch_screen_fits_80x24_and_follows_the_language(home, fake_sandbox, tui):
    lesson = _lesson()

    async def body():
        app = new_app(home, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            from tutor.ui.widgets.key_bar import KeyBar

            _, cell, screen = await open_scratch(tui, pilot, lesson)
            for lang in ("en", "zh"):
                if app.lang != lang:
                    await pilot.press("ctrl+l")
                    await pilot.pause()
                editor = screen.editor
                box = screen.query_one("#scratch-output-box")
                editor.scroll_to(x=0, y=0, animate=False)
                await pilot.pause()
                assert editor.scrollable_content_region.height >= 10, editor.scrollable_content_region
                assert box.region.height >= 4 and box.region.bottom <= 23, box.region
                keys = screen.query_one(KeyBar).keys()
                labels = " ".join(k.description for k in keys)
                assert keys and all(k.end <= 80 and k.end > k.start for k in keys), labels
                note = tui.plain(screen.query_one("#scratch-note"))
                if lang == "zh":
                    assert "运行" in labels and "返回" in labels and "课程内容" in note
                else:
                    assert "Run" in labels and "Back" in labels and "lesson" in note
                screenshot(app, f"scratch-{lang}")
                await pilot.press("f8")  # reset: the lesson's code again
            assert screen.editor.text == cell.code

    asyncio.run(body())
