"""Signals from learner code stay inside its run (issue 40): the tests/faults/signal_*.py programs
send SIGSTOP, SIGTSTP, SIGTERM and SIGKILL to every process above the worker (the reaper, the
`check` process), by os.kill, os.killpg, kill(-1), ctypes, a `kill` program and a pidfd, and
print what was refused. Run through the real CLI (`check --json`), in a session of its own, while a
watchdog here looks for any process of the run stopped: before the guard each of these stopped or
ended the tutor (the watchdog resumes a stopped one, so that a regression fails instead of hanging).

Only through the CLI: the Sandbox's own runs have this test process above them, and a stop that got
through would stop the test run itself. The walk up stops below this process (FAULT_SPARE_PID)."""

from __future__ import annotations

import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tutor import host
from tutor.child import seccomp_policy

ROOT = Path(__file__).resolve().parents[2]
FAULTS = Path(__file__).resolve().parents[1] / "faults"
EXERCISE = "counter-jit"

pytestmark = pytest.mark.slow

# fault program: how many calls it makes for each process above the worker (reaper and CLI: 2)
CASES = {
    "signal_stop_tutor": 1,
    "signal_tstp_group": 1,
    "signal_term_tutor": 1,
    "signal_past_hook": 3,  # a pidfd, a `kill` program, ctypes: only the kernel refuses these (scope or seccomp)
    "signal_every_process": 0,  # kill(-1): one call in all
}


def test_every_signal_fault_is_here():
    assert sorted(p.stem for p in FAULTS.glob("signal_*.py")) == sorted(CASES)


class Watchdog(threading.Thread):
    """Every 20 ms: any process of the run (the CLI and all below it) in state T is noted and resumed."""

    def __init__(self, root: int):
        super().__init__(daemon=True)
        self.root, self.stopped, self.done = root, [], threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            for pid in [self.root, *host.descendants(self.root)]:
                try:
                    with open(f"/proc/{pid}/stat", "rb") as f:
                        stat = f.read()
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        argv = f.read().replace(b"\0", b" ").decode(errors="replace")[:80]
                except OSError:
                    continue
                if stat[stat.rindex(b")") + 2 :][:1] == b"T":
                    self.stopped.append(f"{pid}: {argv}")
                    os.kill(pid, signal.SIGCONT)
            self.done.wait(0.02)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """counter-jit alone, as tests/worker/test_faults.py runs it."""
    root = tmp_path_factory.mktemp("course")
    (root / "lessons" / "exercises").mkdir(parents=True)
    (root / "solutions").mkdir()
    shutil.copytree(ROOT / "lessons" / "exercises" / EXERCISE, root / "lessons" / "exercises" / EXERCISE)
    shutil.copy(ROOT / "solutions" / f"{EXERCISE}.py", root / "solutions")
    return root


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_signal_to_the_tutor_is_refused(name, course, tmp_path):
    if name == "signal_past_hook" and not (host.signals_scoped() or seccomp_policy.available()):
        pytest.skip(
            f"Landlock ABI {host.landlock_abi()} and no seccomp filter for {platform.machine()} here: signals "
            "through C, a program or a pidfd are not refused (RELIABILITY.md says so)"
        )
    env = dict(
        os.environ,
        JAXSTATE_TUTOR_HOME=str(tmp_path / "home"),
        JAXSTATE_TUTOR_COURSE=str(course),
        JAXSTATE_TUTOR_LANG="en",
        PYTHONPATH=str(ROOT),
        FAULT_SPARE_PID=str(os.getpid()),
        JAXSTATE_TUTOR_RUN_ENV="FAULT_SPARE_PID",  # a run's environment is an allow-list (issue 50)
    )
    cmd = [sys.executable, "-m", "tutor", "check", EXERCISE, "--file", str(FAULTS / f"{name}.py"), "--json"]
    start = time.monotonic()
    cli = subprocess.Popen(
        cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    watchdog = Watchdog(cli.pid)
    watchdog.start()
    try:
        out, err = cli.communicate(timeout=180)
    finally:
        watchdog.done.set()
        cli.kill()
    seconds = time.monotonic() - start
    detail = f"exit {cli.returncode} after {seconds:.1f} s\n{out.decode(errors='replace')[-3000:]}\n{err.decode(errors='replace')[-2000:]}"
    assert watchdog.stopped == [], "a process of the run was stopped:\n" + "\n".join(watchdog.stopped) + "\n" + detail
    assert cli.returncode == 1, detail
    doc = json.loads(out)
    assert (doc["status"], doc["kind"]) == ("fail", "checks"), detail
    assert {c["id"]: c["status"] for c in doc["checks"]}["counts-up"] == "fail", detail
    lines = doc["stdout"].splitlines()
    assert not [line for line in lines if line.startswith("sent:")], detail
    refused = [line for line in lines if line.startswith("refused:")]
    # The reaper, each way; the CLI above it is out of sight: its /proc entry is refused (issue 50).
    assert len(refused) == (CASES[name] or 1), detail
    if CASES[name]:
        assert [line for line in lines if line.startswith("hidden: /proc/")], detail
    if name != "signal_past_hook":  # Python's own calls: the audit hook says why, in both languages
        assert all("may signal only itself" in line and "只能向它自己" in line for line in refused), detail
