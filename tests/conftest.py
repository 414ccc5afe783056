"""Shared fixtures: the real course, a real sandbox with a warm spare, a scripted fake sandbox for
UI tests, an isolated home, the command line's environment, Pilot helpers, filesystem faults, tmux.

Test modules never import each other or this file: what they share is a fixture here. The
`slow` marker is set here too, on every test that needs a real worker or a real terminal;
`pytest -m "not slow" -n 2` is the fast tier (about two minutes on 2 busy cores), plain `pytest`
runs everything.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import signal
import subprocess
import threading
import time
import uuid
import zlib
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path

import pytest

from tutor.i18n import Bilingual  # standard library only: safe at collection

ROOT = Path(__file__).resolve().parent.parent

# Tests press Ctrl+C (SIGINT) on the tutor's commands as a learner at a terminal would. A test
# run started as a background job of a non-interactive shell (how CI may run it) inherits SIGINT
# ignored, and children would inherit that: handle it here, so children start with the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# A test that asks for one of these starts a worker process (JAX) or drives a terminal: slow tier.
SLOW_FIXTURES = {"sandbox", "tmux", "installed_wheel"}


def pytest_addoption(parser):
    parser.addoption(
        "--mutant-share",
        default="1/1",
        metavar="K/N",
        help="judge only share K of N of the fail_* cases (stable by name); every pass_* case "
        "always runs. CI's second JAX version uses 1/6 to stay within its time budget.",
    )


def pytest_ignore_collect(collection_path, config):
    """Under -m "not slow", a file marked slow as a whole (`pytestmark = pytest.mark.slow` at its
    top level) is not even imported: test_checks.py alone would import JAX in every run."""
    if config.getoption("markexpr") != "not slow" or collection_path.suffix != ".py":
        return None
    try:
        source = collection_path.read_text(encoding="utf-8")
    except OSError:
        return None
    return "\npytestmark = pytest.mark.slow" in source or None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
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


# ---- the course, homes, caches ------------------------------------------------------------------


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
    gets it (no checkout, no tests/ beside it): `.python`, `.bin` and `.env(home)`, an environment
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

    return SimpleNamespace(venv=venv, python=python, bin=venv / "bin", env=env)


# ---- the real sandbox ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fast_tier_starts_no_worker(request, monkeypatch):
    """A test not marked slow that starts a worker process in this process fails and says why,
    so the fast tier stays fast as tests are added."""
    if request.node.get_closest_marker("slow"):
        return
    from tutor.sandbox import runner

    def refuse(*args, **kwargs):
        raise AssertionError(
            "this test starts a real worker process: mark it @pytest.mark.slow or give the UI the fake_sandbox fixture"
        )

    monkeypatch.setattr(runner.WorkerProcess, "__init__", refuse)


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory):
    from tutor.sandbox.runner import Sandbox

    box = Sandbox(tmp_path_factory.mktemp("sandbox-home"), keep_spare=True, spare_early=True)
    box.warm_up()
    yield box
    box.close()


@pytest.fixture(scope="session")
def run_source():
    """run_source(sandbox, exercise, source, name, timeout): the Verdict of checking `source`."""

    def run(sandbox, exercise, source: str, name: str = "learner.py", timeout=None):
        return sandbox.run_exercise(exercise, source, f"/learner/{name}", timeout).result()

    return run


# ---- a scripted sandbox for UI tests ------------------------------------------------------------


class FakeRun:
    """A run that replays scripted events, `delay` seconds apart, then its Verdict. Like a real
    Run: `events()` ends with the Verdict, `result()` waits for it, `cancel()` may come from any
    thread and ends the run with a "cancelled" verdict; `stop()` (a doctor run's) ends the
    events early but still gives the scripted verdict."""

    def __init__(self, events: list, delay: float):
        self._events, self._verdict = events[:-1], events[-1]
        self.delay = delay
        self._cancelled = threading.Event()
        self._stopped = threading.Event()
        self.verdict = None

    def events(self):
        for event in self._events:
            if self._cancelled.wait(self.delay) or self._stopped.is_set():
                break
            yield event
        verdict = replace(self._verdict)  # a run of its own: not the very object an earlier run gave
        if self._cancelled.wait(self.delay):
            verdict = replace(
                verdict, status="error", kind="cancelled", message=Bilingual(en="Check cancelled.", zh="检查已取消。")
            )
        self.verdict = verdict
        yield verdict

    def result(self):
        for _ in self.events():
            pass
        return self.verdict

    def cancel(self) -> None:
        self._cancelled.set()

    def stop(self) -> None:
        self._stopped.set()


class FakeSandbox:
    """What the UI uses of tutor.sandbox.runner.Sandbox, with runs scripted by the test.

    `script(key, *events, delay=)` sets what the next runs of an exercise or cell (by id), or of
    a doctor script ("doctor:<file name>"), yield; the last event must be a Verdict. An unscripted cell does what its YAML declares (prints its
    `output_contains`, raises its `raises`: test_cells.py proves the real cells do); an
    unscripted exercise ends in an error verdict that names the missing script."""

    def __init__(self):
        self.scripts: dict[str, tuple[list, float]] = {}
        self.asked: list[tuple[str, str]] = []  # (exercise or cell id, source) of every run started
        self.doctor_options: list[dict] = []  # args, timeout and nans of every doctor run started
        self.warmed = 0
        self.closed = False

    def script(self, key: str, *events, delay: float = 0.0) -> None:
        from tutor.sandbox.events import Verdict

        assert events and isinstance(events[-1], Verdict), "a script ends with its Verdict"
        self.scripts[key] = (list(events), delay)

    @staticmethod
    def verdict(status: str = "pass", checks=(), kind: str = "checks", stdout: str = "", message=None, cell=None):
        from tutor.sandbox.events import Verdict

        message = message or Bilingual(en=f"{status} (scripted)", zh=f"{status}（预设）")
        return Verdict(
            status=status,
            kind=kind,
            message=message,
            checks=list(checks),
            stdout=stdout,
            stderr="",
            duration_s=0.01,
            metrics={},
            cell=cell,
        )

    @staticmethod
    def checks(exercise, failing: dict | None = None) -> list:
        """CheckResults for every check of `exercise`: those in `failing` (id -> Bilingual) fail."""
        from tutor.sandbox.events import CheckResult

        failing = failing or {}
        return [
            CheckResult(
                id=c.id,
                status="fail" if c.id in failing else "pass",
                message=failing.get(c.id) or Bilingual(en="ok", zh="通过"),
                name=c.name,
            )
            for c in exercise.checks
        ]

    def run_exercise(self, exercise, source: str, filename: str, timeout: float | None = None) -> FakeRun:
        self.asked.append((exercise.id, source))
        if exercise.id in self.scripts:
            return FakeRun(*self.scripts[exercise.id])
        missing = f"the fake sandbox has no script for exercise {exercise.id}"
        return FakeRun([self.verdict("error", kind="internal", message=Bilingual.same(missing))], 0.0)

    def run_cell(self, cell, timeout: float | None = None) -> FakeRun:
        self.asked.append((cell.id, cell.code))
        if cell.id in self.scripts:
            return FakeRun(*self.scripts[cell.id])
        return FakeRun(self._as_declared(cell), 0.0)

    def run_doctor(self, script, args, cwd, timeout: float, nans: bool) -> FakeRun:
        key = f"doctor:{Path(script).name}"
        self.asked.append((key, " ".join(map(str, args))))
        self.doctor_options.append({"args": list(args), "timeout": timeout, "nans": nans})
        if key in self.scripts:
            return FakeRun(*self.scripts[key])
        missing = f"the fake sandbox has no script for {key}"
        return FakeRun([self.verdict("error", kind="internal", message=Bilingual.same(missing))], 0.0)

    def _as_declared(self, cell) -> list:
        from tutor.sandbox.events import CellResult, Output

        stdout = "".join(f"{text}\n" for text in cell.expect.output_contains)
        raised = cell.expect.raises
        result = None
        if raised:
            trace = f'Traceback (most recent call last):\n  File "<cell>", line 1\n{raised}: as declared\n'
            result = CellResult(raised=raised, exception_types=(raised,), message="as declared", traceback=trace)
        events = [Output("stdout", stdout)] if stdout else []
        return [*events, self.verdict("pass", kind="cell", stdout=stdout, cell=result)]

    def warm_up(self) -> None:
        self.warmed += 1

    def wait_ready(self, timeout: float = 120.0) -> bool:
        return True

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_sandbox():
    """A FakeSandbox: hand it to make_app(sandbox=...) so the UI runs without a worker process."""
    return FakeSandbox()


# ---- driving the TUI with Pilot -----------------------------------------------------------------


class Tui:
    """Helpers for Pilot tests at 80x24: wait on the UI's own state (never fixed sleeps), read what
    a widget shows, open an exercise, press F5 and wait for the verdict."""

    size = (80, 24)
    run_deadline_s = 180  # a run may have to wait for a worker's JAX import on a busy machine

    @staticmethod
    def plain(widget) -> str:
        """What a Static shows, as plain text."""
        from rich.console import Console

        console = Console(width=200, record=True, file=io.StringIO())
        console.print(widget.content)
        return console.export_text()

    async def until(self, pilot, condition, timeout: float | None = None, what: str = "condition"):
        deadline = time.monotonic() + (self.run_deadline_s if timeout is None else timeout)
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            await asyncio.sleep(0.05)
            await pilot.pause()

    @staticmethod
    def progress(home: Path, app=None) -> dict:
        """progress.json as on disk; with the app, after its background saves have landed."""
        if app is not None:
            assert app.session.state.wait_saved(10), "a progress save still pending after 10 s"
        return json.loads((home / "progress.json").read_text(encoding="utf-8"))

    async def where_shown(self, pilot, lesson_screen, view) -> tuple[int, float, int]:
        """Once every text block of the lesson has laid out: (the cell's y, the view's top, the
        view's height), for asserting that `view` is on screen and not merely focused."""
        texts = list(lesson_screen.query(".lesson-text"))
        await self.until(pilot, lambda: all(t.source and t.children for t in texts), 10, "the lesson's texts laid out")
        for _ in range(3):
            await pilot.pause()
        body = lesson_screen.query_one("#lesson-body")
        return view.virtual_region.y, body.scroll_y, body.scrollable_content_region.height

    async def open_exercise(self, pilot, exercise_id: str):
        from tutor.progress.path import Step
        from tutor.ui.screens.exercise import ExerciseScreen

        pilot.app.open_step(Step("exercise", exercise_id))
        await self.until(pilot, lambda: isinstance(pilot.app.screen, ExerciseScreen), 10, "the exercise screen")
        await pilot.pause()
        return pilot.app.screen

    async def check(self, pilot, screen):
        await pilot.press("f5")
        await self.until(pilot, lambda: screen.verdict is not None, what="the verdict")
        await pilot.pause()
        return screen.verdict


@pytest.fixture(scope="session")
def tui():
    return Tui()


# ---- real filesystem faults ---------------------------------------------------------------------
# A tiny tmpfs that fills up (ENOSPC) and a read-only mount. Mounting needs root (or
# CAP_SYS_ADMIN); where that is missing the test is skipped, never faked. Running as root also
# ignores permission bits, so chmod cannot make a home read-only: a read-only mount can.


def _mount(*args: str) -> None:
    proc = subprocess.run(["mount", *args], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount here ({proc.stderr.strip() or proc.returncode}); needs root")


@contextmanager
def _tmpfs(where: Path, size_kb: int = 64, inodes: int | None = None):
    where.mkdir(parents=True, exist_ok=True)
    # A tmpfs counts inodes apart from bytes: a folder or an empty file needs only an inode.
    limit = f",nr_inodes={inodes}" if inodes else ""
    _mount("-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755{limit}", "tmpfs", str(where))
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def _fill(folder: Path) -> None:
    fd = os.open(folder / ".filler", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    with suppress(OSError):  # tmpfs also counts inodes and small tail blocks
        for i in range(1000):
            (folder / f".filler{i}").write_bytes(b"\0" * 64)


@contextmanager
def _read_only(where: Path):
    _mount("--bind", str(where), str(where))
    try:
        _mount("-o", "remount,bind,ro", str(where))
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


@pytest.fixture(scope="session")
def tmpfs():
    """with tmpfs(where, size_kb=64, inodes=None) as where: a tmpfs of size_kb (and at most
    `inodes` files and folders) mounted at `where` (created)."""
    return _tmpfs


@pytest.fixture(scope="session")
def fill():
    """fill(folder): write until its filesystem is full (a real ENOSPC), leaving the filler files."""
    return _fill


@pytest.fixture(scope="session")
def read_only():
    """with read_only(where): `where` (a filled folder) turned read-only by a read-only bind mount."""
    return _read_only


# ---- a real terminal ----------------------------------------------------------------------------


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
