"""The tutor's side of the fork server (tutor.child.fork_server): start it, ask it for workers,
and hear how each one ended.

A forked worker is the server's child, not ours, so its exit status comes over the socket; a
`ForkedProcess` offers the part of `subprocess.Popen` that the sandbox uses (pid, pipes, poll,
wait, kill). If the server cannot start, or stops, `spawn` raises `ServerUnavailable` and the
caller spawns the worker the ordinary way; workers the server had forked when it stopped are
killed and marked `lost`, which the run reports as the tutor's failure, never the learner's.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping
from typing import IO

from tutor.errors import TutorError
from tutor.i18n import Bilingual

REPLY_S = 10.0  # a fork and a reply: milliseconds, unless the machine is swapping


class ServerUnavailable(TutorError):
    """No fork server to ask: spawn the worker directly (the message says why, for the log)."""

    def __init__(self, why: str):
        super().__init__(Bilingual.same(why))


class ForkedProcess:
    """A worker forked by the server: the subset of Popen the sandbox uses."""

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None
        self.lost = False  # the server stopped before telling how this worker ended
        # Set by the caller, which made the pipes.
        self.stdin: IO[bytes] | None = None
        self.stdout: IO[bytes] | None = None
        self.stderr: IO[bytes] | None = None
        self._ended = threading.Event()

    def ended(self, returncode: int, lost: bool = False) -> None:
        self.lost = lost
        self.returncode = returncode
        self._ended.set()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended.wait(timeout):
            raise subprocess.TimeoutExpired("forked worker", timeout or 0)
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:  # not yet reaped by the server: the pid is still this process
            try:
                os.kill(self.pid, signal.SIGKILL)
            except OSError:
                pass


class ForkServer:
    """One server process; thread-safe. `spawn` waits for it to be ready the first time."""

    def __init__(self, env: Mapping[str, str], startup_s: float, cache_dir: str | None = None):
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.startup_s = startup_s
        self._replies: queue.Queue[ForkedProcess | str] = queue.Queue()
        self._children: dict[int, ForkedProcess] = {}
        self._lock = threading.Lock()  # one request at a time: replies come back in order
        self._state = "starting"  # -> "ready" | "failed" | "closed"
        self._settled = threading.Event()
        self.failure = ""
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tutor.child.fork_server", "--socket-fd", str(theirs.fileno())]
                + ["--parent", str(os.getpid())]
                + (["--cache-dir", cache_dir] if cache_dir else []),
                stdin=subprocess.PIPE,  # its lifeline: it ends when this process does
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
                env=dict(env),  # worker_env's: the package is on its PYTHONPATH already
                cwd="/",
            )
        finally:
            theirs.close()
        threading.Thread(target=self._read, name="fork-server", daemon=True).start()

    def ready(self, timeout: float) -> bool:
        self._settled.wait(timeout)
        return self._state == "ready"

    def spawn(
        self, run_dir: str, env: Mapping[str, str], argv: list[str], bounds: Mapping[str, int], fds: list[int]
    ) -> ForkedProcess:
        """Fork a reaper and its worker with these six descriptors (stdin, stdout, stderr, events,
        lock, the reaper's control socket); `bounds`: the worker's RLIMIT_DATA ("memory") and what
        the reaper lets its tree hold ("processes", "disk"), 0 for none."""
        if not self.ready(self.startup_s):
            raise ServerUnavailable(self.failure or "the fork server did not start in time")
        with self._lock:
            request = json.dumps({"run_dir": run_dir, "env": dict(env), "argv": argv, **bounds}).encode()
            try:
                socket.send_fds(self._sock, [request], fds)
                reply = self._replies.get(timeout=REPLY_S)
            except (OSError, queue.Empty) as exc:
                raise ServerUnavailable(f"the fork server did not answer: {exc}") from exc
        if isinstance(reply, str):
            raise ServerUnavailable(reply)
        return reply

    def _read(self) -> None:
        while True:
            try:
                data = self._sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                break
            message = json.loads(data)
            if "exit" in message:
                child = self._children.pop(message["exit"], None)  # this thread alone touches _children
                if child is not None:
                    child.ended(os.waitstatus_to_exitcode(message["status"]))
            elif "pid" in message:
                child = ForkedProcess(message["pid"])
                self._children[child.pid] = child
                self._replies.put(child)
            elif "error" in message:
                self._replies.put(str(message["error"]))
            elif "ready" in message:
                self._state = "ready"
                self._settled.set()
            elif "failed" in message:
                self.failure = str(message["failed"])
                self._state = "failed"
                self._settled.set()
        self._server_gone()

    def _server_gone(self) -> None:
        """The socket closed: the server ended. Its workers cannot report how they end: stop them."""
        if self._state != "closed":
            self._state = "failed"
            self.failure = self.failure or "the fork server stopped"
        self._settled.set()
        self._replies.put("the fork server stopped")
        from tutor.sandbox.reaper import end_tree

        children = list(self._children.values())
        for child in children:  # all marked first: a run that hears of its own loss finds no spare alive
            child.ended(-signal.SIGKILL, lost=True)
        for child in children:
            end_tree(child.pid)  # its reaper, orphaned now, and all below it
        self._children.clear()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    @property
    def usable(self) -> bool:
        return self._state in ("starting", "ready")

    def close(self) -> None:
        """End the server (and with it, any worker it forked that is still running)."""
        self._state = "closed"
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # the server sees the hang-up, kills its workers' groups, ends
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # its workers then see their parent change and end themselves (lifeline)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.stdin is not None:
            self.proc.stdin.close()
