"""The repository's course, isolated homes, caches outside the user's, the CLI's environment and a built wheel."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def course():
    """The repository's course. Problems are ignored here (test_course.py reports them) so that
    one broken file does not stop every other exercise and cell from being tested."""
    from tutor.course import read_course

    return read_course(ROOT)[0]


@pytest.fixture(scope="session", autouse=True)
def cache_in_tmp(tmp_path_factory):
    """JAX's compilation caches of the tests' throwaway homes (one folder per home, outside it)
    go under pytest's temporary folder, not the user's ~/.cache; subprocesses inherit this."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))


@pytest.fixture
def home(tmp_path, monkeypatch):
    """An isolated tutor home, also exported for subprocesses."""
    monkeypatch.setenv("JAXSTATE_TUTOR_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="session")
def answer_every_prediction(course):
    """answer_every_prediction(home): a returning learner, who answered every prediction of the
    course in an earlier session; each lesson then shows whole (no open question holds back what
    follows it), as tests about scrolling and focus over a whole lesson need."""

    def answer(home: Path) -> None:
        from tutor.progress import ProgressStore, changes

        store = ProgressStore(home)
        for lesson in course.lessons:
            for cell in lesson.cells:
                if cell.predict is not None:
                    store.apply(changes.prediction, cell.id, cell.predict.answer)

    return answer


@pytest.fixture(scope="session")
def cli_env():
    """cli_env(home): the environment for running `python -m tutor` on `home` from this checkout."""

    def make(home: Path) -> dict:
        env = dict(os.environ)
        env["JAXSTATE_TUTOR_HOME"] = str(home)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.setdefault("JAXSTATE_TUTOR_LANG", "en")
        return env

    return make


@pytest.fixture(scope="session")
def installed_wheel(tmp_path_factory):
    """The tutor built as a wheel and installed in a venv of its own, as a learner's `pip install`
    gets it (no checkout, no tests/ beside it): `.python`, `.bin`, `.wheel` and `.env(home)`, an environment
    without this checkout on PYTHONPATH. Built once per test run."""
    import sys
    import sysconfig
    from types import SimpleNamespace

    pytest.importorskip("hatchling")
    where = tmp_path_factory.mktemp("wheel")
    dist = where / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-w", str(dist), "-q"],
        check=True,
        timeout=300,
        cwd=where,
    )
    wheel = next(dist.glob("jaxstate_tutor-*.whl"))
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # Dependencies (JAX, Textual, ...) come from the test environment's site-packages, added
    # as a plain path: its .pth files (e.g. an editable install of this repo) stay inactive.
    target = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (target / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "-q", str(wheel)], check=True, timeout=300)

    def env(home: Path) -> dict:
        out = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JAXSTATE_TUTOR_COURSE")}
        out["JAXSTATE_TUTOR_HOME"] = str(home)
        return out

    return SimpleNamespace(venv=venv, python=python, bin=venv / "bin", env=env, wheel=wheel)
