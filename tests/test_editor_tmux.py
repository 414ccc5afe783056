"""The code editor in the real `python -m tutor`, in tmux at 80x24, typed into like a learner would.

An exercise's code view: select all, type a function (Enter indents after the colon), save,
and read the workspace file; then Shift+Tab dedents and the next key still lands in the editor,
and keys sent in one burst apply in order.
Screens and the file are polled against a deadline; nothing waits a fixed time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from conftest import ROOT, cli_env
from tutor.course import read_course

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
pytest.importorskip("textual")

COURSE, _ = read_course(ROOT)


class Tmux:
    """One tmux server of our own (-L, no config file), so the test never touches the user's sessions."""

    def __init__(self, env: dict):
        self.socket = f"jaxstate-editor-{uuid.uuid4().hex[:8]}"
        self.env = env
        self.socket_path = ""

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True,
                             text=True, env=self.env, timeout=30)
        return out.stdout

    def start(self, command: list[str]) -> None:
        self.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "tutor",
                 *[a for k in ("JAXSTATE_TUTOR_HOME", "PYTHONPATH", "LANG") if k in self.env
                   for a in ("-e", f"{k}={self.env[k]}")],
                 " ".join(command) + "; sleep 60")  # keep the pane after exit: its last words matter
        self.socket_path = self.run("display-message", "-p", "#{socket_path}").strip()

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "tutor")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "tutor", *keys)

    def type(self, text: str) -> None:
        self.run("send-keys", "-t", "tutor", "-l", text)

    def wait_for(self, *texts: str, timeout: float = 20) -> str:
        """The screen, once it shows any of `texts`."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if any(t in shown for t in texts):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"none of {texts!r} appeared; the screen shows:\n{shown}")
            time.sleep(0.1)

    def kill(self) -> None:
        self.run("kill-server")
        if self.socket_path:
            try:
                os.unlink(self.socket_path)  # tmux leaves its socket file behind
            except OSError:
                pass


@pytest.fixture
def tmux(home):
    env = cli_env(home)
    env["LANG"] = "C.UTF-8"
    env.pop("NO_COLOR", None)
    t = Tmux(env)
    yield t
    t.kill()


def wait_for_file(path, predicate, what: str, timeout: float = 20) -> str:
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


def focus_the_editor(tmux, first_line: str, tries: int = 20) -> None:
    """The code shows a moment before the editor has the focus: type a mark until it lands there
    (a mark typed before that goes to the screen, which has no binding for it)."""
    for _ in range(tries):
        tmux.type("#")
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
    tmux.type("pure-scale")
    tmux.wait_for("pure-scale:")
    tmux.keys("Enter")
    tmux.wait_for("Results")  # the exercise screen's tabs
    if starter_line not in tmux.screen():
        tmux.keys("F2")  # a new exercise opens on its task: F2 goes to the code
        tmux.wait_for(starter_line)
    focus_the_editor(tmux, starter_line)

    tmux.keys("C-a")  # select all, then typing replaces it
    tmux.type("def f(x):")
    tmux.keys("Enter")
    tmux.type("return x")
    tmux.wait_for("    return x")
    tmux.keys("C-s")
    text = wait_for_file(path, lambda t: t.splitlines() == ["def f(x):", "    return x"], "the typed function")
    assert "    return x" in text.splitlines()  # indented by Enter after the colon

    tmux.keys("BTab")  # Shift+Tab: dedent the line, and stay in the editor
    tmux.type("Z")
    tmux.keys("C-s")
    wait_for_file(path, lambda t: t.splitlines() == ["def f(x):", "return xZ"], "the dedented line and the Z")
    assert "return xZ" in tmux.screen()

    # Keys that arrive in one burst (as over a slow link) apply in order: Backspace, Ctrl+A and
    # Shift+Tab act before the keys sent after them.
    tmux.keys("y", "BSpace", "z", "C-s")
    wait_for_file(path, lambda t: t.splitlines() == ["def f(x):", "return xZz"], "the burst, in order")
    tmux.keys("C-a", "Tab", "Tab", "BTab", "C-s")
    wait_for_file(path, lambda t: t.splitlines() == ["    def f(x):", "    return xZz"], "Tab on all lines")
