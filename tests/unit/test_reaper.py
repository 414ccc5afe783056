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
        deadline = time.monotonic() + 30  # a ceiling: the loop ends once it is dead
        while _state(child) not in (b"Z", b"X") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _state(child) in (b"Z", b"X")  # dead (a zombie until its parent, which never waits, goes)
    finally:
        parent.kill()
        parent.wait()


def _reaper_with(tmp_path: Path, code: str, *options: str, worker_args: tuple[str, ...] = ()):
    """A reaper over `python -c code MARKER`, on a control socket; returns (proc, our end, marker)."""
    import socket

    marker = f"reapertest-{uuid.uuid4().hex[:8]}"
    ours, theirs = socket.socketpair()
    run_dir = tmp_path / f"{RUN_DIR_PREFIX}x"
    run_dir.mkdir()
    worker = [sys.executable, "-c", code, marker, "--run-dir", str(run_dir), *worker_args]
    cmd = [sys.executable, "-I", "-S", str(REAPER), "--control-fd", str(theirs.fileno()), *options, "--", *worker]
    proc = subprocess.Popen(cmd, pass_fds=(theirs.fileno(),), start_new_session=True, cwd=run_dir)
    theirs.close()
    return proc, ours, marker


def _last_word(sock) -> str:
    sock.settimeout(5)
    heard = b""
    while chunk := sock.recv(4096):
        heard += chunk
    return heard.decode().strip().splitlines()[-1]


PROCESS_LOOP = """import subprocess, sys, time
for _ in range(40):
    subprocess.Popen([sys.argv[1], "1000"], executable="sleep", start_new_session=True)
time.sleep(1000)
"""


def test_a_loop_starting_processes_is_ended_at_the_bound_and_the_reaper_says_so(tmp_path):
    proc, sock, marker = _reaper_with(tmp_path, PROCESS_LOOP, "--max-processes", "10")
    try:
        proc.wait(timeout=30)
        word = _last_word(sock)
        assert word.startswith("limit processes "), word
        assert int(word.split()[2]) > 10
        assert _gone(marker) == []
    finally:
        sock.close()
        for pid in _alive(marker):
            os.kill(pid, signal.SIGKILL)


DISK = """import os, sys, tempfile, time
block = b"x" * 2**20
with open("seen.bin", "wb") as f:
    for _ in range(3):
        f.write(block)
if sys.argv[2:3] == ["hidden"]:
    hidden = tempfile.TemporaryFile(dir=".")  # deleted at once, still open: no listing sees it
    for _ in range(3):
        hidden.write(block)
    hidden.flush()
time.sleep(1.5)  # the reaper measures every 0.5 s
os._exit(3)
"""


def test_disk_use_counts_what_the_folder_holds_and_deleted_files_still_open(tmp_path):
    # 3 MiB in the folder: under a bound of 4 MiB, the worker ends as it will.
    (tmp_path / "a").mkdir()
    proc, sock, _ = _reaper_with(tmp_path / "a", DISK, "--max-disk", str(4 * 2**20))
    try:
        assert proc.wait(timeout=30) == 3
        assert _last_word(sock) == "exit 768"  # the worker's wait status, as os.waitpid gave it
    finally:
        sock.close()
    # 3 MiB more in a deleted file the worker holds open: over the bound.
    hidden = DISK.replace('sys.argv[2:3] == ["hidden"]', "True")
    (tmp_path / "b").mkdir()
    proc, sock, _ = _reaper_with(tmp_path / "b", hidden, "--max-disk", str(4 * 2**20))
    try:
        proc.wait(timeout=30)
        word = _last_word(sock)
        assert word.startswith("limit disk "), word
        assert int(word.split()[2]) > 4 * 2**20  # measured as it grows: past the bound, maybe not all 6 MiB
    finally:
        sock.close()


ADOPTER = """import os, signal, socket, subprocess, sys, time
from tutor.sandbox import orphans, reaper
marker = sys.argv[1]
assert orphans.adopt()
worker = [sys.executable, "-c", (
    "import os, signal, subprocess, sys, time\\n"
    f"subprocess.Popen([{marker!r}, '1000'], executable='sleep', start_new_session=True)\\n"
    "time.sleep(0.3)\\n"
    "os.kill(os.getppid(), signal.SIGKILL)\\n"
    "time.sleep(1000)\\n")]
ours, theirs = socket.socketpair()
proc = subprocess.Popen([sys.executable, "-I", "-S", reaper.__file__, "--control-fd", str(theirs.fileno()), "--", *worker],
                        pass_fds=(theirs.fileno(),), start_new_session=True)
theirs.close()
proc.wait(timeout=30)
ours.settimeout(30)
print("word:", ours.recv(4096) or b"none")
deadline = time.monotonic() + 30
while not [p for p in orphans.own_children() if p != proc.pid] and time.monotonic() < deadline:
    time.sleep(0.05)
print("orphans:", len(orphans.own_children()))
print("ended:", orphans.sweep({proc.pid}))
"""


def test_orphans_of_a_killed_reaper_come_to_the_adopting_process_and_are_ended(tmp_path):
    marker = f"reapertest-{uuid.uuid4().hex[:8]}"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", ADOPTER, marker],
        capture_output=True,
        text=True,
        timeout=120,  # a ceiling over the script's own waits (30 + 30 + 30 s at most)
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        assert out.returncode == 0, out.stderr
        assert "word: b'none'" in out.stdout  # killed: no last word, which the tutor reads as "killed"
        assert "ended: 1" in out.stdout or "ended: 2" in out.stdout, (
            out.stdout
        )  # the sleep (and the worker, if still there)
        assert _gone(marker) == []
    finally:
        for pid in _alive(marker):
            os.kill(pid, signal.SIGKILL)


CACHE_FILL = """import os, sys, time
cache = sys.argv[sys.argv.index("--cache-dir") + 1]
time.sleep(0.5)  # the job's start (its deadline) reaches the reaper first
with open(os.path.join(cache, "planted.bin"), "wb") as f:
    for _ in range(6):
        f.write(b"x" * 2**20)
        f.flush()
time.sleep(1.5)  # the reaper measures every 0.5 s
os._exit(3)
"""


def test_what_a_run_adds_to_the_compilation_cache_counts_and_is_removed_past_the_bound(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "old-entry").write_bytes(b"y" * 2**20 * 3)  # there before the run: neither counted nor removed
    (tmp_path / "a").mkdir()
    options = ("--max-disk", str(4 * 2**20))
    proc, sock, _ = _reaper_with(tmp_path / "a", CACHE_FILL, *options, worker_args=("--cache-dir", str(cache)))
    sock.send(b"deadline 30\n")  # the job starts: from now on, what the cache gains is the run's
    try:
        proc.wait(timeout=30)
    finally:
        word = _last_word(sock)
        sock.close()
    assert word.startswith("limit disk "), word
    assert sorted(p.name for p in cache.iterdir()) == ["old-entry"]
