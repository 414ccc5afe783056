"""The code editor in the real `python -m tutor`, in tmux at 80x24, typed into like a learner would.

An exercise's code view: select all, type a function (Enter indents after the colon), save,
and read the workspace file; then Shift+Tab dedents and the next key still lands in the editor,
and keys sent in one burst apply in order.
Screens and the file are polled against a deadline; nothing waits a fixed time. The `tmux`
fixture (a private tmux server at 80x24, skipped without tmux) is in conftest.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def type_text(tmux, text: str) -> None:
    """Send `text` as typed characters (tmux's -l: no key names)."""
    tmux.run("send-keys", "-t", "tutor", "-l", text)


def wait_for_file(path, predicate, what: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    text = None
    while True:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            pass
        if text is not None and predicate(text):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} never had {what}; it holds:\n{text}")
        time.sleep(0.1)


def focus_the_editor(tmux, first_line: str, within_s: float = 60) -> None:
    """The code shows a moment before the editor has the focus: type a mark until it lands there
    (a mark typed before that goes to the screen, which has no binding for it)."""
    deadline = time.monotonic() + within_s  # a ceiling for a loaded machine: it ends at the first mark shown
    while time.monotonic() < deadline:
        type_text(tmux, "#")
        try:
            tmux.wait_for("#" + first_line, timeout=1)
            return
        except AssertionError:
            continue
    raise AssertionError("the editor never took the typing:\n" + tmux.screen())


def test_typing_a_function_in_the_exercise_editor(tmux, home):
    exercise = COURSE.exercise("pure-scale")
    if exercise is None:
        pytest.skip("exercise pure-scale is not in the course")
    path = home / "workspace" / "pure-scale.py"
    starter_line = next(line for line in exercise.starter.splitlines() if line.strip())[:30]

    tmux.start([sys.executable, "-m", "tutor", "--home", str(home), "--lang", "en"])
    tmux.wait_for("Continue:", timeout=30)  # the course is loaded: the palette can find the exercise
    tmux.keys("C-p")  # the command palette finds the exercise by its id
    tmux.wait_for("🔎", "Search")
    type_text(tmux, "pure-scale")
    tmux.wait_for("pure-scale:")
    tmux.keys("Enter")
    tmux.wait_for("Results")  # the exercise screen's tabs
    if starter_line not in tmux.screen():
        tmux.keys("F2")  # a new exercise opens on its task: F2 goes to the code
        tmux.wait_for(starter_line)
    focus_the_editor(tmux, starter_line)

    tmux.keys("C-a")  # select all, then typing replaces it
    type_text(tmux, "def f(x):")
    tmux.keys("Enter")
    type_text(tmux, "return x")
    tmux.wait_for("    return x")
    tmux.keys("C-s")
    text = wait_for_file(path, lambda t: t.splitlines() == ["def f(x):", "    return x"], "the typed function")
    assert "    return x" in text.splitlines()  # indented by Enter after the colon

    tmux.keys("BTab")  # Shift+Tab: dedent the line, and stay in the editor
    type_text(tmux, "Z")
    tmux.keys("C-s")
    wait_for_file(path, lambda t: t.splitlines() == ["def f(x):", "return xZ"], "the dedented line and the Z")
    tmux.wait_for("return xZ")  # the file is written before the screen repaints: wait for both

    # Keys that arrive in one burst (as over a slow link) apply in order: Backspace, Ctrl+A and
    # Shift+Tab act before the keys sent after them.
    tmux.keys("y", "BSpace", "z", "C-s")
    wait_for_file(path, lambda t: t.splitlines() == ["def f(x):", "return xZz"], "the burst, in order")
    tmux.keys("C-a", "Tab", "Tab", "BTab", "C-s")
    wait_for_file(path, lambda t: t.splitlines() == ["    def f(x):", "    return xZz"], "Tab on all lines")
