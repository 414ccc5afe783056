"""The reaper (tutor/sandbox/reaper.py) on its own, with a small Python program as its "worker": no JAX.
What the learner's code does to escape, and what the reaper still ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from tutor.protocol import RUN_DIR_PREFIX
from tutor.sandbox import reaper

REAPER = Path(reaper.__file__)

# A "worker" leaving a child in its own session and an orphaned double-forked grandchild, then
# exiting (or, given an argument, cancelling its alarm and sleeping).
ESCAPE = """import os, signal, subprocess, sys, time
marker = sys.argv[1]
subprocess.Popen([marker, "1000"], executable="sleep", start_new_session=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", [marker, "1001"])
    os._exit(0)
time.sleep(0.5)
if sys.argv[2] == "hang":
    signal.alarm(0)
    time.sleep(1000)
os._exit(3)
"""


def _alive(marker: str) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                if not f.read().startswith(marker.encode()):
                    continue
            with open(f"/proc/{name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    continue
        except OSError:
            continue
        found.append(int(name))
    return found


def _start(tmp_path: Path, mode: str):
    marker = f"reapertest-{uuid.uuid4().hex[:8]}"
    control_read, control_write = os.pipe()
    run_dir = tmp_path / f"{RUN_DIR_PREFIX}x"
    run_dir.mkdir()
    worker = [sys.executable, "-c", ESCAPE, marker, mode, "--run-dir", str(run_dir)]
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(REAPER), "--control-fd", str(control_read), "--", *worker],
        pass_fds=(control_read,),
        start_new_session=True,
    )
    os.close(control_read)
    return proc, control_write, marker, run_dir


def _gone(marker: str, within: float = 5.0) -> list[int]:
    deadline = time.monotonic() + within
    while _alive(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _alive(marker)


def test_escaped_children_die_when_the_worker_exits_and_its_status_is_kept(tmp_path):
    proc, control, marker, _ = _start(tmp_path, "exit")
    try:
        assert proc.wait(timeout=30) == 3  # as the worker exited
        assert _gone(marker) == []
    finally:
        os.close(control)
        for pid in _alive(marker):
            os.kill(pid, signal.SIGKILL)


def test_the_deadline_holds_when_the_worker_cancels_its_alarm(tmp_path):
    proc, control, marker, _ = _start(tmp_path, "hang")
    try:
        os.write(control, b"deadline 1.5\n")
        assert proc.wait(timeout=30) == -signal.SIGALRM  # read by the verdict as a timeout
        assert _gone(marker) == []
    finally:
        os.close(control)
        for pid in _alive(marker):
            os.kill(pid, signal.SIGKILL)


def test_the_tutor_gone_ends_the_tree_and_removes_the_run_folder(tmp_path):
    proc, control, marker, run_dir = _start(tmp_path, "hang")
    try:
        deadline = time.monotonic() + 30
        while len(_alive(marker)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.close(control)  # as when the tutor dies: the kernel closes its end
        proc.wait(timeout=30)
        assert _gone(marker) == []
        assert not run_dir.exists()
    finally:
        for pid in _alive(marker):
            os.kill(pid, signal.SIGKILL)


def _state(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0]
    except FileNotFoundError:
        return b"X"


def test_kill_tree_reaches_a_process_in_another_session():
    code = "import subprocess, time\nsubprocess.Popen(['sleep', '1000'], start_new_session=True)\ntime.sleep(1000)"
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 30
        while not reaper.descendants(parent.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        (child,) = reaper.descendants(parent.pid)
        assert reaper.kill_tree(parent.pid) == 1
        deadline = time.monotonic() + 5
        while _state(child) not in (b"Z", b"X") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _state(child) in (b"Z", b"X")  # dead (a zombie until its parent, which never waits, goes)
    finally:
        parent.kill()
        parent.wait()
