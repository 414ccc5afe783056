"""Workers forked from the fork server (tutor.child.fork_server): the same verdicts as spawned
ones, a server that dies mid-run is the tutor's named failure and is replaced, and a server that
cannot fork safely leaves the tutor spawning workers itself."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # real workers

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
EXERCISE = COURSE.exercise("counter-jit")
SOLUTION = COURSE.solution_path("counter-jit").read_text()
ENDLESS = "import time\ndef update_counter(count, increment):\n    time.sleep(3600)\n"


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_workers_are_forked_by_the_server_and_judge_the_same(tmp_path):
    box = Sandbox(tmp_path / "home", keep_spare=True, spare_early=True)
    try:
        box.warm_up()
        assert box.wait_ready(120)
        server = box._server
        assert server is not None and server.ready(0)
        spare = box._spare
        assert parent_of(spare.proc.pid) == server.proc.pid, "the spare was not forked by the server"
        assert box.run_exercise(EXERCISE, SOLUTION, "/learner/counter-jit.py").result().status == "pass"
        starter = EXERCISE.starter
        assert box.run_exercise(EXERCISE, starter, "/learner/counter-jit.py").result().status in ("fail", "error")
        # Each worker its own process and session, its run folder removed after its run.
        spare = box._spare
        assert box.wait_ready(120)
        assert os.getpgid(spare.proc.pid) == spare.proc.pid
    finally:
        box.close()


def test_a_server_killed_mid_run_is_a_named_error_and_is_replaced(tmp_path):
    box = Sandbox(tmp_path / "home", keep_spare=True, spare_early=True)
    try:
        box.warm_up()
        assert box.wait_ready(120)
        old = box._server
        # a deadline far off, so that only the server's death can end the run soon; the ceiling tells which
        run = box.run_exercise(EXERCISE, ENDLESS, "/learner/counter-jit.py", timeout=600)
        events = run.events()
        next(events)  # the first check has started: the learner's call sleeps
        worker_pid = run.worker.proc.pid
        os.kill(old.proc.pid, signal.SIGKILL)
        started = time.monotonic()
        verdict = [e for e in events][-1]
        assert time.monotonic() - started < 120, "the run waited for its deadline"
        assert verdict.status == "error", verdict
        assert "fork server" in verdict.message.en, verdict.message.en
        deadline = time.monotonic() + 30  # SIGKILL is sent; the kernel takes a moment (a ceiling)
        while time.monotonic() < deadline and _running(worker_pid):
            time.sleep(0.05)
        assert not _running(worker_pid), "the orphaned worker outlived its server"
        # The next run gets a new server and passes.
        verdict = box.run_exercise(EXERCISE, SOLUTION, "/learner/counter-jit.py").result()
        assert verdict.status == "pass", verdict.message.en
        assert box._server is not old
    finally:
        box.close()


def test_a_server_with_threads_refuses_and_workers_are_spawned(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")  # NumPy's import starts a thread: forking is unsafe
    box = Sandbox(tmp_path / "home", keep_spare=True)
    try:
        verdict = box.run_exercise(EXERCISE, SOLUTION, "/learner/counter-jit.py").result()
        assert verdict.status == "pass", verdict.message.en
        assert box._server is not None and "threads" in box._server.failure
    finally:
        box.close()


def test_a_server_still_importing_ends_with_its_parent(tmp_path):
    """The tutor killed (SIGTERM to `watch`, no cleanup) while its server still imports JAX: the
    server ends with it, not when the imports are done. A `jax` that takes a minute to import
    stands in for a slow machine."""
    import subprocess
    import sys

    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "jax.py").write_text("import time\ntime.sleep(60)\n")
    parent = (
        "import os, sys, time\n"
        "from tutor.sandbox.fork_client import ForkServer\n"
        f"env = {{**os.environ, 'PYTHONPATH': {str(slow)!r} + os.pathsep + {str(ROOT)!r}}}\n"
        "server = ForkServer(env, 120)\n"
        "print(server.proc.pid, flush=True)\n"
        "time.sleep(1)\n"
        "os._exit(0)\n"  # as a tutor killed: nothing closed, nothing waited for
    )
    out = subprocess.run([sys.executable, "-c", parent], capture_output=True, text=True, cwd=ROOT, timeout=60)
    server = int(out.stdout.split()[0])
    deadline = time.monotonic() + 45  # a ceiling still well before the minute the import takes
    while _running(server) and time.monotonic() < deadline:
        time.sleep(0.2)
    alive = _running(server)
    if alive:
        os.kill(server, signal.SIGKILL)
    assert not alive, "the fork server outlived its parent while importing"
