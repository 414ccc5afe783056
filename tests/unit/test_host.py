"""tutor.host on this machine, against real processes and threads: what the guards count."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from tutor import host

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


@linux_proc
def test_a_child_with_many_threads_is_one_process_with_its_threads():
    code = (
        "import threading, time, sys\n"
        "for _ in range(40): threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
        "print('up', flush=True); time.sleep(30)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        assert child.stdout.readline() == b"up\n"
        assert host.descendants(os.getpid()) == [child.pid]
        assert host.children_of(os.getpid()) == [child.pid]
        assert 41 <= host.threads_of(child.pid) <= 45
        assert host.memory_of(child.pid) > 1 << 20
        assert host.memory_of_tree([child.pid]) == host.memory_of(child.pid) or host.memory_of_tree([child.pid]) > 0
    finally:
        child.kill()
        child.wait()


@linux_proc
def test_descendants_stop_at_and_a_gone_process():
    kids = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) for _ in range(3)]
    try:
        deadline = time.monotonic() + 30
        while len(host.descendants(os.getpid())) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sorted(host.descendants(os.getpid())) == sorted(k.pid for k in kids)
        assert len(host.descendants(os.getpid(), stop_at=2)) == 2
    finally:
        for k in kids:
            k.kill()
            k.wait()
    gone = kids[0].pid
    assert host.threads_of(gone) == 0 and host.memory_of_tree([gone]) == 0  # gone: holds nothing, not "unmeasured"


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

    root = Path(host.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        if path.name in ("host.py", "bench.py"):
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
