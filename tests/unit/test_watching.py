"""The watch loop (tutor/cli/watch_loop.py) with a recording face: which saves it checks. A version
another view (the TUI) said it is checking is not checked again (every check is one attempt), the
first check runs whatever was said before, and watch says what it checks, so the TUI does not
check a version watch is checking."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tutor.cli.watch_loop import watch
from tutor.files.edited_file import EditedFile


class Face:
    def __init__(self, path: Path, steps):
        self.path, self.steps = path, list(steps)
        self.said: list[str] = []

    def file_for(self, exercise) -> Path:
        return self.path

    def watching(self, path: Path) -> None:
        self.said.append("watching")

    def check(self, exercise, path: Path) -> bool:
        self.said.append("check " + path.read_text())
        return False

    def offer(self, next_exercise) -> None:
        self.said.append("offer")

    def put_back(self, path: Path, why_not) -> None:
        self.said.append("put back")

    def checked_elsewhere(self, path: Path) -> None:
        self.said.append("elsewhere " + path.read_text())

    def enter_pressed(self, timeout: float) -> bool:
        if not self.steps:
            raise KeyboardInterrupt
        self.steps.pop(0)()
        time.sleep(0.02)  # a new mtime, whatever the file system's resolution
        return False


def test_watch_checks_each_version_once_whichever_view_checks_it(tmp_path):
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    path = workspace / "counter-jit.py"
    path.write_text("v1")
    tui = EditedFile(path, "v1")
    tui.checking("v1")  # said by a TUI earlier: watch's first check runs all the same

    def tui_checks(text):
        def step():
            tui.checking(text)  # as the exercise screen does on F5, before its save
            tui.save(text)

        return step

    def editor_saves(text):
        return lambda: path.write_text(text)

    face = Face(path, [tui_checks("v2"), editor_saves("v3"), editor_saves("v1"), lambda: None])
    with pytest.raises(KeyboardInterrupt):
        watch(None, object(), path, face, interval=0.01)
    assert face.said == ["watching", "check v1", "elsewhere v2", "check v3", "check v1"]
    assert tui.checked_elsewhere("v1")  # watch said it checked v1: the TUI, reloading it, does not check it again
