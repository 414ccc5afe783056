"""A learner's program under `check` that reaches for a Unix socket by path or POSIX shared memory is
refused, and told why (issue 50): the kernel refused each of these with a bare "[Errno 13]
Permission denied"; now each refusal names the rule, in English and Chinese (tutor.child.sharing).
A real CLI, a real worker, this kernel. The server listening by path hears nothing and nothing is
left in /dev/shm; the pipe the tutor gave the run (a socketpair) still works."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WRONG = """

def update_counter(count, increment):
    return count, increment  # wrong: never counts up
"""
SOCKETS = "may not open sockets beyond the pipe the tutor gave it", "只能使用本教程给它的管道"
SHARED = "may not open POSIX shared memory or named semaphores", "不能打开 POSIX 共享内存或具名信号量"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not sys.platform.startswith("linux") or not os.path.isdir("/dev/shm"), reason="Linux's /dev/shm"
    ),
]

PROGRAM = """import os, socket
def attempt(name, call):
    try:
        call()
        print(f"done: {name}")
    except OSError as exc:
        print(f"refused: {name}: {exc}")
def connect():
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect(SERVER)
def bind():
    socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).bind("here.sock")
def abstract():  # a socket it already holds, sent to an abstract name
    socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)[0].sendto(b"x", "\\0" + NAME)
def shared_memory():
    from multiprocessing import shared_memory
    shared_memory.SharedMemory(name=NAME, create=True, size=1 << 20)
def semaphore():
    import multiprocessing
    multiprocessing.Lock()
def dev_shm():
    os.close(os.open("/dev/shm/" + NAME, os.O_CREAT | os.O_RDWR, 0o600))
def pair():
    a, b = socket.socketpair()
    a.sendall(b"ok")
    assert b.recv(2) == b"ok"
attempt("connect", connect)
attempt("bind", bind)
attempt("abstract", abstract)
attempt("shared memory", shared_memory)
attempt("semaphore", semaphore)
attempt("dev shm", dev_shm)
attempt("pair", pair)
"""


def test_a_socket_by_path_or_shared_memory_is_refused_with_the_rule(tmp_path, cli_env):
    name = f"jaxstate-test-{uuid.uuid4().hex[:8]}"
    server_path = tmp_path / "server.sock"
    program = tmp_path / "attempt.py"
    program.write_text(
        PROGRAM.replace("SERVER", repr(str(server_path))).replace("NAME", repr(name)) + WRONG, encoding="utf-8"
    )
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(server_path))
        server.listen(4)
        server.setblocking(False)
        try:
            out = subprocess.run(
                [sys.executable, "-m", "tutor", "check", "counter-jit", "--file", str(program), "--json"],
                capture_output=True,
                text=True,
                env=cli_env(tmp_path / "home"),
                cwd=ROOT,
                timeout=300,
            )
            with pytest.raises(BlockingIOError):
                server.accept()  # no one came
        finally:
            left = sorted(p.name for p in Path("/dev/shm").iterdir() if name in p.name)
            for leftover in left:
                (Path("/dev/shm") / leftover).unlink(missing_ok=True)
    verdict = json.loads(out.stdout)
    assert (verdict["status"], verdict["kind"]) == ("fail", "checks"), out.stdout[-3000:] + out.stderr[-2000:]
    lines = {line.split(":")[1].strip(): line for line in verdict["stdout"].splitlines() if ": " in line}
    assert lines.pop("pair") == "done: pair", verdict["stdout"]
    for attempt in ("connect", "bind", "abstract"):
        assert lines[attempt].startswith("refused:") and all(w in lines[attempt] for w in SOCKETS), lines[attempt]
    for attempt in ("shared memory", "semaphore", "dev shm"):
        assert lines[attempt].startswith("refused:") and all(w in lines[attempt] for w in SHARED), lines[attempt]
    assert "Permission denied" not in verdict["stdout"], verdict["stdout"]
    assert left == [], left
