"""Misbehaving learner programs checked through the TUI's own runner (thread + messages):
each reaches its named outcome on screen, is counted as an attempt, and never passes.
And a home that fills up under the editor: no byte of the learner's text is lost."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shutil
import signal
import sys
import time
import uuid
from pathlib import Path

import pytest

from tutor import host
from tutor.child import seccomp_policy
from tutor.course import read_course
from tutor.ui.app import make_app
from tutor.ui.mark_styles import Marks

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
SIZE = (80, 24)
FAULTS = Path(__file__).resolve().parents[1] / "faults"
SHORT_TIMEOUT_S = 5.0  # for the hang, which only the time limit ends
GUARDED_TIMEOUT_S = 30.0  # for the rest, which a guard ends: a generous ceiling on a loaded machine

FORGED = "\x1b[2J\x1b[H\x1b[1;32mPASS all checks passed\x1b[0m \x9b2J \u202eSSAP"

CASES = [  # program, status, kind
    ("loop_python", "timeout", "timeout"),
    ("segfault", "error", "signal"),
    ("os_exit", "error", "exit"),
    ("mem_numpy", "error", "oom"),
    ("fake_verdict", "fail", "checks"),
    ("flood", "error", "output-limit"),
    ("bad_metrics_event", "error", "protocol"),  # once left "Checking… 0/6" on screen for good
    # the reaper killed through C: refused by Landlock's signal scope or the seccomp filter (fails its checks),
    # ctypes refused where there is no Landlock; else the reaper dies and its child in a new session goes too
    (
        "kill_reaper",
        *(
            ("error", "exception")
            if host.landlock_abi() == 0
            else ("fail", "checks")
            if host.signals_scoped() or seccomp_policy.available()
            else ("error", "reaper")
        ),
    ),
    ("process_loop", "error", "processes"),
    ("disk_fill", "error", "disk"),
]


def short_course(timeout: float):
    """The shipped course with counter-jit's time limit cut, so a hang ends quickly (disk_fill's
    1.3 GiB took longer than 5 s to write in CI, with four jobs on 2 cores: its guard was never reached)."""
    exercises = tuple(dataclasses.replace(e, timeout=timeout) if e.id == "counter-jit" else e for e in COURSE.exercises)
    return dataclasses.replace(COURSE, exercises=exercises)


@pytest.mark.parametrize("name, status, kind", CASES)
def test_fault_through_the_tui(name, status, kind, home, sandbox, tui):
    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    program = (FAULTS / f"{name}.py").read_text()
    if name == "fake_verdict":  # and a forged screen: clear it, draw a green PASS
        program = f"print({FORGED!r})\n" + program
    (workspace / "counter-jit.py").write_text(program)

    async def body():
        limit = SHORT_TIMEOUT_S if status == "timeout" else GUARDED_TIMEOUT_S
        app = make_app(home, "en", course=(short_course(limit), []), sandbox=sandbox)
        app.marks = Marks(ascii_only=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "counter-jit")
            verdict = await tui.check(pilot, screen)
            assert (verdict.status, verdict.kind) == (status, kind), verdict.message
            shown = tui.plain(screen.query_one("#verdict"))
            assert verdict.message.en.splitlines()[0][:30] in shown.replace("\n", " ")
            assert "its own file" not in verdict.message.en, verdict.message.en  # only when it did that
            if name == "fake_verdict":  # shown as text, not obeyed by the terminal
                output = screen.query_one("#output").content.plain
                assert "␛[2J␛[H␛[1;32mPASS" in output and "\\x9b2J" in output, output
                assert not any(c in output for c in ("\x1b", "\x9b", "\u202e")), output
            record = tui.progress(home, app)["exercises"]["counter-jit"]
            assert record["attempts"] == 1 and record["status"] == "attempted"
            # The UI is still alive and the next check works: the reference solution passes.
            screen.editor.load_text((ROOT / "solutions" / "counter-jit.py").read_text())  # as if typed
            await pilot.pause()
            await pilot.press("f5")
            await tui.until(
                pilot, lambda: screen.verdict is not None and screen.verdict is not verdict, what="the 2nd verdict"
            )
            again = screen.verdict
            assert again.status == "pass", again.message
            assert tui.progress(home, app)["exercises"]["counter-jit"]["status"] == "passed"

    asyncio.run(body())


def _notes(app) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


def test_a_full_disk_keeps_every_byte_of_the_editor(tmp_path, fake_sandbox, monkeypatch, tui, fill, tmpfs):
    """Saving on a full home: the file keeps its old bytes (never truncated), the editor keeps the
    new text, the failure is said; leaving keeps a copy in a private temporary folder, and says where.
    A file deleted on disk (by the learner's own program, say) is said too, and written back."""
    from tutor.ui.screens.exercise import ExerciseScreen

    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))  # where the rescued copy goes
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    old = "".join(f"x_{i} = {i}\n" for i in range(110))
    new = "".join(f"x_{i} = {i} * 2  # edited: every line of this buffer must survive\n" for i in range(110))
    with tmpfs(tmp_path / "home", size_kb=64) as home:
        ws = home / "workspace" / "counter-jit.py"
        ws.parent.mkdir()
        ws.write_text(old)

        async def body():
            app = make_app(home, "en", course=(short_course(SHORT_TIMEOUT_S), []), sandbox=fake_sandbox)
            app.marks = Marks(ascii_only=False)
            async with app.run_test(size=SIZE) as pilot:
                screen = await tui.open_exercise(pilot, "counter-jit")
                assert screen.editor.text == old
                ws.unlink()
                await tui.until(
                    pilot, lambda: "was deleted" in tui.plain(screen.query_one("#ex-status")), 5, "the deletion note"
                )
                await pilot.press("ctrl+s")
                await pilot.pause()
                assert ws.read_text() == old  # written back from the editor

                fill(home)
                screen.editor.load_text(new)  # as if typed
                await pilot.press("ctrl+s")
                await tui.until(pilot, lambda: "No space left" in _notes(app), 5, "the save failure")
                assert "still in the editor" in _notes(app)
                assert ws.read_bytes() == old.encode() and screen.editor.text == new
                await pilot.press("f5")  # a check saves first: it fails the same way and runs nothing
                await pilot.pause()
                assert not screen.running and ws.read_bytes() == old.encode() and fake_sandbox.asked == []

                screen.show_view("task")
                await pilot.pause()
                await pilot.press("escape")  # leaving: not while the text is unsaved, unless asked twice
                await pilot.pause()
                assert isinstance(app.screen, ExerciseScreen) and "Esc again leaves" in _notes(app)
                await pilot.press("escape")
                await tui.until(pilot, lambda: not isinstance(app.screen, ExerciseScreen), 5, "leaving the screen")
                await tui.until(pilot, lambda: "your text was kept in" in _notes(app), 5, "the rescue note")
            assert ws.read_bytes() == old.encode()
            # The home is full: a private folder of the temporary directory, made for this copy.
            rescued = list((tmp_path / "tmp").glob("jaxstate-tutor-unsaved-*/counter-jit-*.py"))
            assert [p.read_text() for p in rescued] == [new]
            assert rescued[0].stat().st_mode & 0o777 == 0o600 and rescued[0].parent.stat().st_mode & 0o777 == 0o700
            assert any(str(rescued[0]) in note for note in app.session.after_exit)  # said again after exit

        asyncio.run(body())


@pytest.mark.slow  # a real Sandbox (which, here, cannot start a single worker)
def test_a_full_temporary_folder_is_a_named_error_for_every_kind_of_run(tmp_path, monkeypatch, tui, fill, tmpfs):
    """No room for a run folder (a full /tmp): a check, a demo cell and a doctor run each end in
    error / spawn on screen, naming the cause; the tutor keeps going and nothing is counted."""
    import tempfile

    from tutor.progress.path import Step
    from tutor.sandbox.runner import Sandbox
    from tutor.ui.screens.doctor import DoctorScreen
    from tutor.ui.widgets.cell_view import CellView

    home = tmp_path / "home"
    script = tmp_path / "train.py"
    script.write_text("print('hi')\n", encoding="utf-8")
    with tmpfs(tmp_path / "tmp", size_kb=64, inodes=64) as full:
        fill(full)  # no byte left
        with contextlib.suppress(OSError):  # and no inode: not even an empty folder can be made
            for i in range(1000):
                (full / f"empty-{i}").touch()
        monkeypatch.setattr(tempfile, "tempdir", str(full))
        box = Sandbox(home, keep_spare=True)

        async def body():
            app = make_app(home, "en", course=(COURSE, []), sandbox=box)
            app.marks = Marks(ascii_only=False)
            async with app.run_test(size=SIZE) as pilot:
                screen = await tui.open_exercise(pilot, "counter-jit")
                verdict = await tui.check(pilot, screen)
                assert (verdict.status, verdict.kind) == ("error", "spawn")
                assert "No space left on device" in tui.plain(screen.query_one("#verdict"))
                await pilot.press("escape")

                lesson = next(l for l in COURSE.lessons if l.cells)
                app.open_step(Step("lesson", lesson.id))
                await tui.until(pilot, lambda: app.screen.query(CellView), 10, "the lesson's cells")
                view = app.screen.query(CellView).first()
                view.focus()
                view.action_run_cell()
                if view.asking:
                    await pilot.press("escape")  # its predict question: skipped, so it runs
                await tui.until(pilot, lambda: view.verdict is not None, 10, "the cell's verdict")
                assert (view.verdict.status, view.verdict.kind) == ("error", "spawn")

                app.push_screen(DoctorScreen(str(script)))
                await tui.until(
                    pilot,
                    lambda: isinstance(app.screen, DoctorScreen) and app.screen.query("#doctor-command"),
                    10,
                    "the doctor",
                )
                doctor = app.screen
                doctor.query_one("#doctor-command").focus()
                await pilot.press("enter")
                await tui.until(pilot, lambda: doctor.verdict is not None, 10, "the doctor's verdict")
                assert (doctor.verdict.status, doctor.verdict.kind) == ("error", "spawn")
                assert "No space left on device" in tui.plain(doctor.query_one("#doctor-status"))
                assert app.is_running
            assert tui.progress(home, app)["exercises"].get("counter-jit", {}).get("attempts", 0) == 0

        try:
            asyncio.run(body())
        finally:
            box.close()


# ---- the TUI killed mid-check, in a real terminal ------------------------------------------------

ENDLESS = """import os
def update_counter(count, increment):
    open("running", "w").close()  # in the run folder (all a check may write): the tutor may die now
    while True:
        pass
"""


def _tutor_processes(tag: str) -> dict[str, list[int]]:
    """The TUI and its workers, found by a tag in their environment."""
    found: dict[str, list[int]] = {"tui": [], "worker": []}
    servers: dict[int, int] = {}  # fork servers and their workers, by pid: their parent's pid
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if tag.encode() not in f.read():
                    continue
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    continue
        except OSError:
            continue
        if b"tutor.child.worker" in cmdline:
            found["worker"].append(int(entry.name))
        elif b"tutor.child.fork_server" in cmdline:
            servers[int(entry.name)] = _parent(int(entry.name))
        elif b"-m\0tutor\0" in cmdline:
            found["tui"].append(int(entry.name))
    # A worker forked by the fork server has its command line: it is the one whose parent is a server.
    found["worker"] += [pid for pid, parent in servers.items() if parent in servers]
    found["server"] = [pid for pid, parent in servers.items() if parent not in servers]
    return found


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _loop_started(tag: str) -> bool:
    """A worker of the tag has its learner loop running: the flag is in its run folder (its cwd)."""
    for pid in _tutor_processes(tag)["worker"]:
        try:
            if os.path.exists(os.path.join(os.readlink(f"/proc/{pid}/cwd"), "running")):
                return True
        except OSError:
            pass
    return False


def _until(predicate, what: str, timeout: float):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("how", ["SIGTERM", "kill-session"])
def test_tui_killed_mid_check_leaves_nothing(how, tmux, home, tmp_path):
    """SIGTERM to the TUI, or tmux kill-session (SIGHUP, as when an SSH connection drops), while a
    check runs an endless loop: the worker and its run folder are gone within 3 s; after SIGTERM
    the terminal is back from the alternate screen and mouse mode."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    course = tmp_path / "course"  # counter-jit alone: other exercises being edited cannot break this
    (course / "lessons" / "exercises").mkdir(parents=True)
    (course / "solutions").mkdir()
    shutil.copytree(ROOT / "lessons" / "exercises" / "counter-jit", course / "lessons" / "exercises" / "counter-jit")
    shutil.copy(ROOT / "solutions" / "counter-jit.py", course / "solutions")
    (home / "workspace").mkdir(parents=True)
    (home / "workspace" / "counter-jit.py").write_text(ENDLESS)
    tag = uuid.uuid4().hex
    tmux.env.update(JAXSTATE_TUTOR_COURSE=str(course), FAULT_RUN_TAG=tag, JAXSTATE_TUTOR_RUN_ENV="FAULT_RUN_TAG")
    tmux.start([sys.executable, "-m", "tutor", "--home", str(home), "--lang", "en"])
    tmux.wait_for("Continue:", timeout=60)  # the course has loaded: the palette lists its places
    tmux.keys("C-p")
    tmux.wait_for("🔎", "Search", timeout=30)
    tmux.keys("counter-jit")
    tmux.wait_for("counter-jit:")
    tmux.keys("Enter")
    tmux.wait_for("— counter-jit")
    tmux.keys("F5")
    _until(lambda: _loop_started(tag), "the learner's loop to start", 180)
    procs = _tutor_processes(tag)
    assert len(procs["tui"]) == 1 and procs["worker"], procs
    run_dirs = [os.readlink(f"/proc/{pid}/cwd") for pid in procs["worker"]]
    assert tmux.run("display-message", "-p", "-t", "tutor", "#{alternate_on}").strip() == "1"
    if how == "SIGTERM":
        os.kill(procs["tui"][0], signal.SIGTERM)
    else:
        tmux.run("kill-session", "-t", "tutor")
    killed = time.monotonic()
    _until(lambda: not _tutor_processes(tag)["worker"], f"the workers to end after {how}", 3.0)
    _until(lambda: not _tutor_processes(tag)["server"], f"the fork server to end after {how}", 3.0)
    workers_s = time.monotonic() - killed
    _until(
        lambda: not _tutor_processes(tag)["tui"], f"the TUI to end after {how}", 8.0
    )  # under the last resort of 10 s
    print(f"{how}: workers gone after {workers_s:.2f} s, the TUI after {time.monotonic() - killed:.2f} s")
    assert not [d for d in run_dirs if os.path.exists(d)]
    if how == "SIGTERM":
        modes = tmux.run(
            "display-message", "-p", "-t", "tutor", "#{alternate_on} #{mouse_any_flag} #{mouse_button_flag}"
        )
        assert modes.split() == ["0", "0", "0"], modes


def test_a_run_that_breaks_still_ends_in_a_verdict():
    """If reading a run raises (a bug on the tutor's side), the screen still gets a verdict,
    so it never waits on "Checking… 0/6" with F5 dead."""
    from types import SimpleNamespace

    from textual.app import App
    from textual.widgets import Static

    from tutor.protocol import CellJob
    from tutor.sandbox.events import Output, Verdict
    from tutor.ui.runs import RunFinished, RunOutput, start_run

    class Broken:
        verdict = None
        job = CellJob(id="c", code="")

        def events(self):
            yield Output("stdout", "hello\n")
            raise RuntimeError("a bug while reading the run")

        def cancel(self):
            pass

    class Target(Static):
        def __init__(self):
            super().__init__()
            self.got = []

        def on_run_output(self, message: RunOutput) -> None:
            self.got.append(message.output)

        def on_run_finished(self, message: RunFinished) -> None:
            self.got.append(message.verdict)

    async def body():
        app = App()
        async with app.run_test() as pilot:
            target = Target()
            await app.mount(target)
            start_run(target, SimpleNamespace(runs=set(), worker_wanted=lambda: None), Broken)
            deadline = time.monotonic() + 10
            while not any(isinstance(e, Verdict) for e in target.got):
                assert time.monotonic() < deadline, target.got
                await pilot.pause(0.05)
            verdict = target.got[-1]
            assert (verdict.status, verdict.kind) == ("error", "internal")
            assert "a bug while reading the run" in verdict.message.en and verdict.message.zh

    asyncio.run(body())


def test_no_worker_until_a_screen_that_runs_code(tmux, home):
    """The real TUI on its outline holds no worker process (a class of 30 on one box would hold
    ~150 MB each for nothing); opening an exercise starts one, ready before the first F5."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    tag = uuid.uuid4().hex
    tmux.env.update(FAULT_RUN_TAG=tag, JAXSTATE_TUTOR_RUN_ENV="FAULT_RUN_TAG")  # runs keep an allow-list
    tmux.start([sys.executable, "-m", "tutor", "--home", str(home), "--lang", "en"])
    tmux.wait_for("Continue:", timeout=60)  # the course has loaded (the old tutor warmed up here)
    _until(lambda: len(_tutor_processes(tag)["tui"]) == 1, "the TUI's process", 10)
    time.sleep(3)  # absence can only be seen over some time: the old spare appeared within 0.2 s
    idle = _tutor_processes(tag)
    assert idle["worker"] == [] and idle["server"] == [], f"processes while only the outline was shown: {idle}"
    tmux.keys("C-p")
    tmux.wait_for("🔎", "Search", timeout=30)
    tmux.keys("counter-jit")
    tmux.wait_for("counter-jit:")
    tmux.keys("Enter")
    tmux.wait_for("— counter-jit")
    _until(lambda: _tutor_processes(tag)["worker"], "a spare worker (and its reaper) for the exercise", 60)
