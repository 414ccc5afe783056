"""Every key typed takes effect, in order, whatever the screen is doing (issue 25, item 1).

Keys are sent as one burst through the app's driver, as a slow SSH link delivers them: none
waits for the one before it (Pilot's `press` would wait for the app to be idle after each).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events

from tutor.course import read_course
from tutor.i18n import Bilingual
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.widgets.editor import CodeEditor

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
SIZE = (80, 24)


def burst(app, *keys: str) -> None:
    """Keys arriving together from the terminal: a one-character key is typed text."""
    for key in keys:
        app._driver.send_message(events.Key(key, key if len(key) == 1 else None))


async def settle(tui, pilot, condition, what: str) -> None:
    await tui.until(pilot, condition, timeout=20, what=what)
    for _ in range(3):
        await pilot.pause()


def exercise(home: Path, fake_sandbox):
    ex = COURSE.exercise("pure-scale")
    if ex is None:
        pytest.skip("exercise pure-scale is not in the course")
    checks = fake_sandbox.checks(ex, failing={ex.checks[0].id: Bilingual.same("wrong")})
    fake_sandbox.script(ex.id, *checks, fake_sandbox.verdict("fail", checks))
    return make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox), ex


def test_a_letter_right_after_f2_reaches_the_editor(home, fake_sandbox, tui):
    app, ex = exercise(home, fake_sandbox)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            await tui.check(pilot, screen)  # the results view shows, and has the focus
            assert screen.query_one("#ex-tabs").active == "results"
            before = screen.editor.text
            screen.editor.move_cursor((0, 0))
            burst(app, "f2", "q", "x")
            await settle(tui, pilot, lambda: screen.editor.text == "qx" + before, "both letters in the editor")
            assert screen.query_one("#ex-tabs").active == "code"
            assert screen.editor.text == "qx" + before

    asyncio.run(go())


def test_arrows_right_after_f2_move_the_cursor(home, fake_sandbox, tui):
    app, ex = exercise(home, fake_sandbox)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            await tui.check(pilot, screen)
            screen.editor.load_text("a\nb\nc\nd\n")
            screen.editor.move_cursor((0, 0))
            burst(app, "f2", "down", "down", "end", "Z")
            await settle(tui, pilot, lambda: "Z" in screen.editor.text, "the Z typed")
            assert screen.editor.text == "a\nb\ncZ\nd\n"  # two lines down, at its end

    asyncio.run(go())


def test_typing_while_the_exercise_opens_lands_in_its_editor(home, fake_sandbox, tui):
    """The screen is pushed, then keys arrive before its editor is mounted and focused; Ctrl+S
    in the same burst saves them all."""
    app, ex = exercise(home, fake_sandbox)
    path = home / "workspace" / f"{ex.id}.py"
    typed = "def f(x):\n    return x"

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            app.open_step(Step("exercise", ex.id))  # a new exercise opens on its task: F2 goes to the code
            burst(app, "f2", "ctrl+a", *["enter" if ch == "\n" else ch for ch in "def f(x):\nreturn x"], "ctrl+s")
            await settle(tui, pilot, lambda: path.exists() and path.read_text() == typed, "the typed text saved")
            assert isinstance(app.focused, CodeEditor)

    asyncio.run(go())


def test_keys_after_f5_wait_for_the_check_to_start(home, fake_sandbox, tui):
    """Typing, F5 and F2 in one burst: the text is checked, and the keys after F2 are typed in
    the editor again, after the view went to the results and came back."""
    app, ex = exercise(home, fake_sandbox)
    path = home / "workspace" / f"{ex.id}.py"

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            await pilot.press("f2")
            await settle(tui, pilot, lambda: isinstance(app.focused, CodeEditor), "the editor")
            screen.editor.load_text("")
            burst(app, "a", "b", "f5", "f2", "c", "d", "ctrl+s")
            await settle(tui, pilot, lambda: path.read_text() == "abcd", "all four letters saved")
            assert fake_sandbox.asked[-1] == (ex.id, "ab")  # F5 checked what was typed before it

    asyncio.run(go())


def test_a_burst_with_a_backspace_and_enter_inside_lands_as_typed(home, fake_sandbox, tui):
    """Letters queued together go into the editor as one run, never past a key that is not a
    letter: the Backspace takes the letter before it, the letters after Enter start the new line."""
    app, ex = exercise(home, fake_sandbox)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            await pilot.press("f2")
            await settle(tui, pilot, lambda: isinstance(app.focused, CodeEditor), "the editor")
            before = screen.editor.text
            screen.editor.move_cursor((0, 0))
            burst(app, "a", "b", "backspace", "c", "d", "enter", "e", "f", "ctrl+a", "g", "h")
            await settle(tui, pilot, lambda: screen.editor.text == "gh", "the selection replaced by gh")
            screen.editor.undo()  # the burst after Ctrl+A is one edit: undone, the text before it
            assert screen.editor.text == "acd\nef" + before

    asyncio.run(go())


def test_a_burst_reaches_a_widget_that_takes_one_letter_at_a_time_in_order(home, fake_sandbox, tui):
    """The doctor's command line is Textual's Input: it types the first letter of a run only, and
    the letters behind it come back to the queue, each in its turn."""
    from textual.widgets import Input

    app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("d")
            await settle(tui, pilot, lambda: isinstance(app.focused, Input), "the doctor's command line")
            burst(app, *"train.py", "backspace", "y", "left", "Z")
            line = app.focused
            await settle(tui, pilot, lambda: "Z" in line.value, "the Z typed")
            assert line.value == "train.pZy"

    asyncio.run(go())


def test_a_key_still_queued_when_the_last_screen_is_gone_is_dropped():
    """At exit the screen stack empties while a key may still wait for its turn (a retry timer
    fires): the queue drops it; asking the app for its screen then raised ScreenStackError."""
    from textual import events
    from textual.app import App

    from tutor.ui.key_order import KeyQueue

    async def deliver(event):
        raise AssertionError("nothing may be delivered without a screen")

    queue = KeyQueue(App(), deliver)
    queue.waiting.append(events.Key("a", "a"))
    queue._next()
    assert queue.current is None and len(queue.waiting) == 1
