"""F9 ($VISUAL / $EDITOR) in the real `python -m tutor`, in tmux at 80x24: an editor that does not
exist or fails gives the TUI back (keys work, Ctrl+Q quits) with a message, and nothing is
checked; an editor given as a shell snippet with arguments edits the file, which is re-checked.
Screens and files are polled against a deadline; nothing waits a fixed time."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def open_counter_jit(tmux, home) -> None:
    tmux.start([sys.executable, "-m", "tutor", "--home", str(home), "--lang", "en"])
    tmux.wait_for("Continue:", timeout=30)
    tmux.keys("C-p")  # the command palette finds the exercise by its id
    tmux.wait_for("🔎", "Search")
    tmux.run("send-keys", "-t", "tutor", "-l", "counter-jit")
    tmux.wait_for("counter-jit:")
    tmux.keys("Enter")
    tmux.wait_for("Results")  # the exercise screen's tabs
    # The tabs show a moment before the screen takes keys: F2 until the code view shows.
    last_line = COURSE.exercise("counter-jit").starter.strip().splitlines()[-1].strip()
    deadline = time.monotonic() + 60  # a ceiling for a loaded machine: it ends once a key is taken
    while time.monotonic() < deadline:
        tmux.keys("F2")
        try:
            tmux.wait_for(last_line, timeout=1)
            return
        except AssertionError:
            continue
    raise AssertionError("the exercise screen never took a key:\n" + tmux.screen())


def said(tmux, *words: str) -> str:
    """The screen's text once it holds all `words`, a notification's wrapped lines joined."""
    deadline = time.monotonic() + 60  # a ceiling, not a speed
    while True:
        # A notification is drawn over the right of the screen, each line after a "▌".
        lines = [line.rsplit("▌", 1)[-1] for line in tmux.screen().splitlines() if "▌" in line]
        shown = " ".join(" ".join(lines).split())
        if all(w in shown for w in words):
            return shown
        assert time.monotonic() < deadline, f"never said {words!r}:\n" + tmux.screen()
        time.sleep(0.1)


def quits(tmux) -> None:
    tmux.keys("C-q")
    deadline = time.monotonic() + 60  # a ceiling, not a speed
    while "Results" in tmux.screen():
        assert time.monotonic() < deadline, "Ctrl+Q did not quit:\n" + tmux.screen()
        time.sleep(0.1)


@pytest.mark.parametrize(
    ("editor", "why"),
    [
        ("/no/such/editor -w", "no such command"),  # a typo'd $EDITOR, with an argument as `code -w` has
        ("false", "it exited with status 1"),
    ],
)
def test_an_editor_that_fails_gives_the_tui_back_with_a_message(tmux, home, editor, why):
    if COURSE.exercise("counter-jit") is None:
        pytest.skip("exercise counter-jit is not in the course")
    tmux.env["EDITOR"] = editor
    tmux.env.pop("VISUAL", None)
    open_counter_jit(tmux, home)
    before = (home / "workspace" / "counter-jit.py").read_text()

    tmux.keys("F9")
    said(tmux, "did not work", why)  # the TUI is back, and says what happened
    tmux.keys("F2")  # keys reach the TUI again: F2 goes from the code to the task
    tmux.wait_for("file:")
    assert "^[[" not in tmux.screen()  # no keys echoed by a terminal left in cooked mode
    assert (home / "workspace" / "counter-jit.py").read_text() == before
    assert not (home / "progress.json").exists() or '"attempts": 0' in (home / "progress.json").read_text()
    quits(tmux)


def test_an_editor_given_as_a_shell_snippet_edits_the_file_and_it_is_checked(tmux, home):
    if COURSE.exercise("counter-jit") is None:
        pytest.skip("exercise counter-jit is not in the course")
    # Only a shell makes this an editor: a redirection, with the file as the last argument, as git runs $EDITOR.
    tmux.env["EDITOR"] = "printf 'edited_by_snippet = 1\\n' >"
    tmux.env.pop("VISUAL", None)
    open_counter_jit(tmux, home)

    tmux.keys("F9")
    path = home / "workspace" / "counter-jit.py"
    deadline = time.monotonic() + 60  # a ceiling, not a speed
    while path.read_text() != "edited_by_snippet = 1\n":
        assert time.monotonic() < deadline, "the snippet never wrote the file:\n" + tmux.screen()
        time.sleep(0.1)
    tmux.wait_for("PASS", "FAIL", "ERROR", "TIMEOUT", timeout=180)  # re-checked when the editor returned
    quits(tmux)
