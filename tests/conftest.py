"""Shared fixtures: the real course, a real sandbox with a warm spare, an isolated home."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cases"
sys.path.insert(0, str(ROOT))

from tutor.course import read_course  # noqa: E402
from tutor.sandbox.runner import Sandbox  # noqa: E402


def shipped_course():
    """The repository's course. Problems are ignored here (test_course.py reports them) so that
    one broken file does not stop every other exercise and cell from being tested."""
    return read_course(ROOT)[0]


@pytest.fixture(scope="session")
def course():
    return shipped_course()


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
