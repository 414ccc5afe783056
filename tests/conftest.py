"""Shared fixtures: the real course, a real sandbox with a warm spare, an isolated home."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cases"
sys.path.insert(0, str(ROOT))

from tutor.course import read_course  # noqa: E402
from tutor.sandbox.runner import Sandbox  # noqa: E402


# Tests press Ctrl+C (SIGINT) on the tutor's commands as a learner at a terminal would. A test
# run started as a background job of a non-interactive shell (how CI may run it) inherits SIGINT
# ignored, and children would inherit that: handle it here, so children start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser):
    parser.addoption("--mutant-share", default="1/1", metavar="K/N",
                     help="judge only share K of N of the fail_* cases (stable by name); every pass_* case "
                          "always runs. CI's second JAX version uses 1/2 to stay within its time budget.")


def pytest_collection_modifyitems(config, items):
    k, _, n = config.getoption("--mutant-share").partition("/")
    k, n = int(k), int(n)
    if n <= 1:
        return
    keep, drop = [], []
    for item in items:
        path = getattr(item, "callspec", None) and item.callspec.params.get("path")
        is_mutant = isinstance(path, Path) and path.name.startswith("fail_")
        share = zlib.crc32(f"{path.parent.name}/{path.name}".encode()) % n + 1 if is_mutant else k
        (keep if share == k else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def shipped_course():
    """The repository's course. Problems are ignored here (test_course.py reports them) so that
    one broken file does not stop every other exercise and cell from being tested."""
    return read_course(ROOT)[0]


@pytest.fixture(scope="session")
def course():
    return shipped_course()


@pytest.fixture(scope="session", autouse=True)
def cache_in_tmp(tmp_path_factory):
    """JAX's compilation caches of the tests' throwaway homes (one folder per home, outside it)
    go under pytest's temporary folder, not the user's ~/.cache; subprocesses inherit this."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory):
    box = Sandbox(tmp_path_factory.mktemp("sandbox-home"), keep_spare=True, spare_early=True)
    box.warm_up()
    yield box
    box.close()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An isolated tutor home, also exported for subprocesses."""
    monkeypatch.setenv("JAXSTATE_TUTOR_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def run_source(sandbox, exercise, source: str, name: str = "learner.py", timeout=None):
    return sandbox.run_exercise(exercise, source, f"/learner/{name}", timeout).result()


def cli_env(home: Path) -> dict:
    env = dict(os.environ)
    env["JAXSTATE_TUTOR_HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.setdefault("JAXSTATE_TUTOR_LANG", "en")
    return env


class Tmux:
    """One tmux server of our own (-L), so the test never touches the user's sessions."""

    def __init__(self, env: dict):
        self.socket = f"jaxstate-test-{uuid.uuid4().hex[:8]}"
        self.env = env

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                             env=self.env, timeout=30)
        return out.stdout

    def start(self, command: list[str]) -> None:
        self.run("new-session", "-d", "-x", "80", "-y", "24", "-s", "tutor",
                 *[a for k in ("JAXSTATE_TUTOR_HOME", "PYTHONPATH", "LANG", "NO_COLOR") if k in self.env
                   for a in ("-e", f"{k}={self.env[k]}")],
                 " ".join(command) + "; sleep 60")  # keep the pane after exit: its last words matter
        self.socket_path = self.run("display-message", "-p", "#{socket_path}").strip()

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "tutor")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "tutor", *keys)

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
        if getattr(self, "socket_path", ""):
            try:
                os.unlink(self.socket_path)  # tmux leaves its socket file behind
            except OSError:
                pass


@pytest.fixture
def tmux(home):
    """A private tmux server at 80x24 for end-to-end tests; skipped where tmux is missing."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    env = cli_env(home)
    env["LANG"] = "C.UTF-8"
    env.pop("NO_COLOR", None)
    t = Tmux(env)
    yield t
    t.kill()
