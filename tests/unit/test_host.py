"""tutor.host on this machine, against real processes and threads: what the guards count."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tutor import host

ROOT = Path(__file__).resolve().parents[2]
linux_proc = pytest.mark.skipif(not host.PROC, reason="needs /proc")


@linux_proc
def test_a_thread_id_is_not_a_process():
    """gVisor lists the threads of a child among its parent's children: a thread id must not be
    counted as a process (each would then add all its group's threads to the thread bound)."""
    started, stop = threading.Event(), threading.Event()
    ids = []

    def body():
        ids.append(threading.get_native_id())
        started.set()
        stop.wait(10)

    t = threading.Thread(target=body)
    t.start()
    try:
        assert started.wait(10)
        assert os.path.exists(f"/proc/{ids[0]}/status")  # reachable by its id, as on gVisor
        assert not host.is_process(ids[0])
        assert host.is_process(os.getpid())
    finally:
        stop.set()
        t.join()


def _parent_of(children: list[str]) -> subprocess.Popen:
    """A Python process that starts each of `children` (Python code) and prints their pids: a
    tree of known shape (the test process itself may have other children, zombies of other tests)."""
    code = (
        "import subprocess, sys, time\n"
        f"kids = [subprocess.Popen([sys.executable, '-c', c], stdout=subprocess.PIPE) for c in {children!r}]\n"
        "for k in kids: k.stdout.readline()\n"
        "print(' '.join(str(k.pid) for k in kids), flush=True)\n"
        "time.sleep(60)\n"
    )
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)


def _end(parent: subprocess.Popen, kids: list[int]) -> None:
    for pid in kids:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    parent.kill()
    parent.wait()


@linux_proc
def test_a_child_with_many_threads_is_one_process_with_its_threads():
    threaded = (
        "import threading, time\n"
        "for _ in range(40): threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
        "print('up', flush=True); time.sleep(60)\n"
    )
    parent = _parent_of([threaded])
    (child,) = map(int, parent.stdout.readline().split())
    try:
        assert host.descendants(parent.pid) == [child]
        assert host.children_of(parent.pid) == [child]
        assert 41 <= host.threads_of(child) <= 45
        assert host.memory_of(child) > 1 << 20
        assert host.memory_of_tree([child]) == host.memory_of(child)
    finally:
        _end(parent, [child])


@linux_proc
def test_descendants_stop_at_and_a_gone_process():
    sleeper = "import time; print('up', flush=True); time.sleep(60)"
    parent = _parent_of([sleeper] * 3)
    kids = list(map(int, parent.stdout.readline().split()))
    try:
        assert sorted(host.descendants(parent.pid)) == sorted(kids)
        assert len(host.descendants(parent.pid, stop_at=2)) == 2
    finally:
        _end(parent, kids)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert host.threads_of(gone.pid) == 0 and host.memory_of_tree([gone.pid]) == 0  # holds nothing, not "unmeasured"


@linux_proc
def test_an_exited_process_not_yet_reaped_holds_nothing():
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while b"State:\tZ" not in open(f"/proc/{zombie.pid}/status", "rb").read() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        assert host.memory_of(zombie.pid) == 0 and host.memory_of_tree([zombie.pid]) == 0
    finally:
        zombie.wait()


def test_a_lock_is_exclusive_between_processes(tmp_path):
    path = tmp_path / "lock"
    path.write_text("")
    fd = os.open(path, os.O_RDONLY)
    try:
        assert host.try_lock(fd)
        other = subprocess.run(
            [
                sys.executable,
                "-c",
                f"import os; from tutor import host; print(host.try_lock(os.open({str(path)!r}, os.O_RDONLY)))",
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": os.getcwd()},
        )
        assert other.stdout.strip() == "False", other.stderr
        if host.PROC:
            assert host.lock_holder(fd).startswith(f"{os.getpid()} ")
    finally:
        os.close(fd)


def test_only_the_host_module_imports_fcntl_or_reads_proc():
    """One module owns what differs between hosts. The bench (a Linux-only measuring tool that
    learners never run) may read /proc for its own figures."""
    from pathlib import Path

    root = Path(host.__file__).parent.parent  # tutor/, above the host package
    offenders = []
    for path in root.rglob("*.py"):
        if path.parent.name in ("host", "bench"):
            continue
        text = path.read_text(encoding="utf-8")
        if "import fcntl" in text or '"/proc' in text or 'f"/proc' in text:
            offenders.append(str(path.relative_to(root)))
    assert offenders == []


def test_guards_off_here_and_its_sentences():
    off = host.guards_off()
    if host.PROC and sys.platform.startswith("linux"):
        assert off == []
        assert host.guards_off_notice() is None
    for en, zh in host.GUARD_TEXT.values():
        assert en and zh and en != zh


STOP_NEW_TASKS = """import os, sys
from tutor import host
folder = host.tasks_cgroup(50)
if folder is None:
    print("no cgroup")
    sys.exit(0)
def fork_once():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return "forked"
try:
    before = fork_once()
    host.stop_new_tasks(folder)
    try:
        after = fork_once()
    except OSError as exc:
        after = f"refused: {exc.strerror}"
finally:
    host.leave_tasks_cgroup(folder)
print(before, after, os.path.exists(folder))
"""


def test_a_tasks_cgroup_stops_every_new_task_once_told():
    """The reaper's clamp at the bound (a fork bomb cannot grow while it is killed): where a pids cgroup
    can be made (root here), a fork after stop_new_tasks is refused; the cgroup goes with leave."""
    out = subprocess.run([sys.executable, "-c", STOP_NEW_TASKS], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "no cgroup":
        pytest.skip("no writable pids cgroup on this host (not root, or no delegation)")
    assert out.stdout.split() == ["forked", "refused:", "Resource", "temporarily", "unavailable", "False"], out.stdout


DETACHED = """import os, sys, time
from tutor import host
folder = host.tasks_cgroup_detached(4)
if folder is None:
    print("no mount")
    sys.exit(0)
kids, refused = [], 0
for _ in range(6):
    try:
        pid = os.fork()
    except OSError:
        refused += 1
        continue
    if pid == 0:
        if len(kids) == 1:
            os.setsid()  # listed all the same
        time.sleep(30)
        os._exit(0)
    kids.append(pid)
listed = sorted(p for p in host.cgroup_processes(folder) if p != os.getpid())
hidden = not any(name.startswith("jaxstate-pids-") for name in os.listdir("/tmp"))
for pid in kids:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
host.leave_tasks_cgroup(folder)
print(len(kids), refused, listed == sorted(kids), host.cgroup_processes(folder) == [], hidden)
"""


def test_a_detached_tasks_cgroup_caps_and_lists_the_tree_with_no_path_to_it():
    """The tasks cgroup the reaper mounts for itself where none is mounted (gVisor, as root; here
    on Linux as root the same calls work): it caps the tree (4 tasks: 3 children), lists them,
    one in a session of its own too, leaves no mount point behind (the mount is gone at once), and
    holds nothing after leave. Under runsc here the same program prints the same."""
    out = subprocess.run([sys.executable, "-c", DETACHED], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    if out.stdout.strip() == "no mount":
        pytest.skip("cannot mount a pids cgroup hierarchy here (not root)")
    assert out.stdout.split() == ["3", "3", "True", "True", "True"], out.stdout
