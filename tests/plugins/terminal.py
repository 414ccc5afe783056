"""A real terminal: the tutor in tmux, keys sent and the screen read."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Tmux:
    """One tmux server of our own (-L), so the test never touches the user's sessions."""

    def __init__(self, env: dict):
        self.socket = f"jaxstate-test-{uuid.uuid4().hex[:8]}"
        self.env = env

    def run(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=self.env, timeout=30
        )
        return out.stdout

    def start(self, command: list[str]) -> None:
        self.run(
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "tutor",
            *[
                a
                for k in ("JAXSTATE_TUTOR_HOME", "PYTHONPATH", "LANG", "NO_COLOR")
                if k in self.env
                for a in ("-e", f"{k}={self.env[k]}")
            ],
            " ".join(command) + "; sleep 60",
        )  # keep the pane after exit: its last words matter
        self.socket_path = self.run("display-message", "-p", "#{socket_path}").strip()

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "tutor")

    def history(self) -> str:
        """Everything the pane has shown, scrollback included, with wrapped lines joined (-J):
        for output longer than the screen, and for long paths that wrap inside a word."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", "tutor")

    def wait_in_history(self, predicate, what: str, timeout: float = 60) -> str:
        """The history, once `predicate(history)` holds."""
        deadline = time.monotonic() + timeout
        while True:
            shown = self.history()
            if predicate(shown):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} never appeared; the pane's last lines:\n{shown[-3000:]}")
            time.sleep(0.1)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "tutor", *keys)

    def wait_for(self, *texts: str, timeout: float = 60) -> str:
        """The screen, once it shows any of `texts`; `timeout` is a ceiling for a loaded machine, not a speed."""
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
        if getattr(self, "socket_path", ""):
            try:
                os.unlink(self.socket_path)  # tmux leaves its socket file behind
            except OSError:
                pass


@pytest.fixture
def tmux(home, cli_env):
    """A private tmux server at 80x24 for end-to-end tests; skipped where tmux is missing."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    env = cli_env(home)
    env["LANG"] = "C.UTF-8"
    env.pop("NO_COLOR", None)
    t = Tmux(env)
    yield t
    t.kill()
