"""The fork server: imports JAX, NumPy and the harness once, then forks each worker from that state.

Started by tutor.sandbox.fork_client as `python -m tutor.child.fork_server --socket-fd N --parent PID`.
A worker forked from here skips Python's start-up and the ~1 s of CPU the imports cost; it then
runs `tutor.child.worker.main` exactly as a spawned worker does, from its own session, run
folder, pipes and limits.

Why forking is safe here: fork copies only the calling thread, so the server must have no other
thread when it forks, and nothing whose state lives in one. Importing JAX starts no thread and
initialises no backend (XLA's thread pools and the CPU client are made by the first
`jax.devices()` or computation, which happen in each worker after the fork, in
`worker.configure_jax`); NumPy's OpenBLAS starts its pool at import unless OPENBLAS_NUM_THREADS=1,
which the client sets. The server counts its threads before serving and refuses to serve if
there is more than one: the client then spawns workers the ordinary way.

Messages on the socket (SOCK_SEQPACKET, one JSON object each):
  server -> client  {"ready": pid} | {"failed": text} | {"pid": n} | {"error": text} | {"exit": n, "status": s}
  client -> server  {"run_dir", "env", "argv", "memory", "processes", "disk"} with six descriptors: stdin, stdout, stderr,
                    events, lock, control (the reaper's socket to the tutor)
The server dies with the tutor (its stdin pipe hangs up, or its parent changes) and kills the
process group of every worker it forked; each worker also watches the tutor through its own stdin.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import select
import signal
import socket
import sys

from tutor import host

_MAX_MESSAGE = 65536


def _send(sock: socket.socket, message: dict) -> None:
    try:
        sock.send(json.dumps(message).encode())
    except OSError:
        pass  # the client is gone: the main loop sees the hang-up


def _threads() -> int:
    return host.own_threads() or 1  # None: nothing to count with; the imports started none we know of


def _become_worker(request: dict, fds: list[int], keep_closed: list) -> None:
    """In the forked child: take the run's descriptors, folder and environment, then be the run's
    reaper (tutor.sandbox.reaper) and fork the worker below it, as a spawned reaper would exec it."""
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the server's own (_end_with_parent)
        sock, wake_r, wake_w = keep_closed  # the server's own: not the worker's to hold
        sock.close()
        os.close(wake_r)
        os.close(wake_w)
        os.setsid()  # its own session, as a spawned reaper has
        stdin, stdout, stderr, events, lock, control = fds
        for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["run_dir"])
        os.environ.update(request["env"])
        import tempfile

        tempfile.tempdir = None  # read TMPDIR again: the run's own folder
        del lock  # stays open: the run folder's lock, held for the worker's life
        from tutor.sandbox import reaper

        argv = [*request["argv"], "--event-fd", str(events)]
        bounds = reaper.Bounds(int(request["processes"]), int(request["disk"]), int(request["memory"]))
        reaper.serve(control, lambda: _fork_worker(argv, int(request["memory"]), control), argv, bounds)
    except BaseException:  # noqa: BLE001 - whatever broke, say it where the run reads stderr, and end
        _died()
    os._exit(1)


def _fork_worker(argv: list[str], memory: int, control: int) -> int:
    """Below the reaper: the worker, under its limits, from the imports already made."""
    pid = os.fork()
    if pid:
        return pid
    try:
        os.close(control)  # the reaper's alone
        from tutor.sandbox import reaper

        reaper.limit_this_process(memory)
        import numpy

        numpy.random.seed()  # each worker its own legacy global stream, as a fresh process has
        from tutor.child import worker

        # Its parent is the reaper: it dies with it, as a spawned worker does.
        worker.main([*argv, "--parent", str(os.getppid())])
    except BaseException:  # noqa: BLE001
        _died()
    os._exit(0)  # worker.main ends the process itself; never return into the reaper's loop


def _died() -> None:
    import traceback

    try:
        os.write(2, traceback.format_exc().encode(errors="replace"))
    finally:
        os._exit(1)  # as Python exits on an uncaught exception


def _reap(sock: socket.socket, children: set[int]) -> None:
    """Reap every child that ended; say how each reaper ended. Any other child is an orphan of a
    reaper that was killed (this server is a subreaper): it is ended, with all below it."""
    from tutor.sandbox import orphans

    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            children.clear()
            return
        if pid == 0:
            break
        if pid in children:
            children.discard(pid)
            _send(sock, {"exit": pid, "status": status})
    orphans.sweep(children)


def _kill_all(children: set[int]) -> None:
    """All below every reaper (the workers and whatever the learner started, in any group)."""
    from tutor.sandbox.reaper import kill_tree

    for pid in children:
        kill_tree(pid)  # not the reaper: it removes its run folder, then exits as its worker did


def serve(sock: socket.socket, parent: int) -> None:
    from tutor.sandbox import orphans

    orphans.adopt()  # what a killed reaper leaves comes here, not to init (see _reap)
    children: set[int] = set()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)  # wakes the poll below (set_wakeup_fd)
    signal.set_wakeup_fd(wake_w)
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    poller.register(0, 0)  # the tutor's pipe: hang-up and errors only
    poller.register(wake_r, select.POLLIN)
    _send(sock, {"ready": os.getpid()})
    try:
        while True:
            events = poller.poll(250)
            _reap(sock, children)
            if os.getppid() != parent:
                return
            for fd, mask in events:
                if fd == wake_r:
                    try:
                        os.read(wake_r, 4096)
                    except BlockingIOError:
                        pass
                elif fd == 0 and mask & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    return
                elif fd == sock.fileno():
                    if mask & select.POLLIN:
                        if not _one_request(sock, children, [sock, wake_r, wake_w]):
                            return
                    elif mask & (select.POLLHUP | select.POLLERR):
                        return
    finally:
        _kill_all(children)


def _one_request(sock: socket.socket, children: set[int], keep_closed: list) -> bool:
    """Fork one worker; False when the client has gone."""
    try:
        data, fds, _flags, _addr = socket.recv_fds(sock, _MAX_MESSAGE, 8)
    except OSError:
        return False
    if not data:
        return False
    try:
        request = json.loads(data)
        if len(fds) != 6:
            raise ValueError(f"expected 6 descriptors, got {len(fds)}")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
    except (ValueError, OSError) as exc:
        for fd in fds:
            os.close(fd)
        _send(sock, {"error": f"{type(exc).__name__}: {exc}"})
        return True
    if pid == 0:
        _become_worker(request, fds, keep_closed)
    for fd in fds:
        os.close(fd)
    children.add(pid)
    _send(sock, {"pid": pid})
    return True


def _end_with_parent(parent: int) -> None:
    """Nothing watches the tutor while JAX imports (seconds; serve() watches it after): have the
    kernel send SIGTERM when it dies (Linux), and end then. SIGTERM also comes when the tutor's
    thread that started this process ends: then the tutor lives on, and so does this."""

    def on_term(signum, frame):
        if os.getppid() != parent:
            os._exit(1)  # the reapers it forked end their trees when the tutor's socket closes

    signal.signal(signal.SIGTERM, on_term)
    host.die_with_parent(signal.SIGTERM)
    if os.getppid() != parent:  # the tutor died before the line above
        os._exit(1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket-fd", type=int, required=True)
    parser.add_argument("--parent", type=int, required=True)
    parser.add_argument("--cache-dir", default=None)  # the same for every worker it forks
    args = parser.parse_args(argv)
    del sys.argv[1:]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl+C meant for the tutor is not ours
    _end_with_parent(args.parent)
    sock = socket.socket(fileno=args.socket_fd)
    try:
        import jax  # noqa: F401 - what every worker needs, imported once: no backend, no thread
        import numpy  # noqa: F401

        from tutor.child import compile_flags, worker

        # Before the harness: it keeps JAX's settings as it finds them, to restore between checks.
        worker.configure_jax_settings(args.cache_dir)
        from tutor.child import (
            fence,  # noqa: F401 - set after each job is read: imported then, it cost the verdict 5-8 ms
            harness,  # noqa: F401 - the check library with it
            rehearsal,  # noqa: F401 - what a spare rehearses, and the note of what each run compiles
            seccomp_policy,  # set in every check's worker (by tutor.child.fence)
            sight,
        )

        seccomp_policy.prepare()  # the confinement filter, built once for every worker
        sight.base()  # what every run may read of Python and the system: once, for every worker
    except BaseException:  # noqa: BLE001 - whatever broke, the client spawns workers itself
        import traceback

        _send(sock, {"failed": traceback.format_exc()[-3000:]})
        os._exit(1)
    threads = _threads()
    if threads != 1:
        _send(sock, {"failed": f"{threads} threads after the imports: forking would be unsafe"})
        os._exit(1)
    compile_flags.probe()  # forks, so only now: once, for every worker forked from here
    # What the imports made is never collected: in the permanent generation, the workers' garbage
    # collections do not walk it, so its pages stay shared instead of being copied into each worker.
    gc.freeze()
    serve(sock, args.parent)
    os._exit(0)


if __name__ == "__main__":
    main()
