"""The reaper: a small process between the tutor and each worker, which learner code cannot undo.

Run as `python -I -S reaper.py --control-fd N --memory BYTES -- <worker command>` (stdlib only, so
it starts in milliseconds). It

- is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever the learner's code starts, also with
  `setsid`, `setpgid` or a double fork, stays below it, so killing its tree reaches all of it;
- sets the worker's limits (memory, file size) before the worker exists, with soft = hard, and drops CAP_SYS_RESOURCE
  from the bounding set (a root learner could otherwise raise a hard limit back up);
- holds the job's deadline, sent by the tutor on the control pipe: `signal.alarm(0)` or a new
  SIGALRM handler in learner code cannot reach this process's timer;
- ends the whole tree when the worker exits, at the deadline, or when the control pipe reaches EOF
  (the tutor is gone), then exits as the worker did (same code, same signal).
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

_PR_SET_CHILD_SUBREAPER = 36
_PR_CAPBSET_DROP = 24
_CAP_SYS_RESOURCE = 24
FILE_BYTES = 2**30  # RLIMIT_FSIZE of the worker and all it starts


def _prctl(option: int, arg: int) -> bool:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False  # not Linux


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return kids
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        kids.setdefault(ppid, []).append(int(name))
    return kids


def descendants(root: int) -> list[int]:
    """Every process below `root` now (by parent links in /proc)."""
    kids = _children_map()
    found, todo = [], list(kids.get(root, ()))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(kids.get(pid, ()))
    return found


def kill_tree(root: int, rounds: int = 50) -> int:
    """SIGKILL everything below `root`. Each process found is first stopped (a stopped process cannot
    fork), until a scan finds nothing new, so a fork loop cannot outrun it. Returns how many."""
    stopped: set[int] = set()
    for _ in range(rounds):
        new = [p for p in descendants(root) if p not in stopped]
        if not new:
            break
        for pid in new:
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
            stopped.add(pid)
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return len(stopped)


def limit_this_process(memory: int) -> None:
    """In the worker-to-be, before any learner code: its own group and its limits, soft = hard."""
    import resource

    os.setpgid(0, 0)  # the worker's group: its lifeline kills it with what it started in it
    if memory:
        resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # No file bigger than this (the run folder is on the shared /tmp); a write past it fails with
    # EFBIG ("File too large") in the learner's code instead of killing the worker with SIGXFSZ.
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    if os.geteuid() == 0:
        _prctl(_PR_CAPBSET_DROP, _CAP_SYS_RESOURCE)  # lost at exec: hard limits stay hard for root


def end_tree(root: int) -> None:
    """SIGKILL everything below `root` (kill_tree), then `root` itself."""
    kill_tree(root)
    try:
        os.kill(root, signal.SIGKILL)
    except OSError:
        pass


def _start_worker(argv: list[str], memory: int) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:
        limit_this_process(memory)
        os.execv(argv[0], [*argv, "--parent", str(os.getppid())])
    except BaseException as exc:  # noqa: BLE001 - the tutor reads the reason on stderr
        print(f"reaper: could not start the worker: {exc}", file=sys.stderr, flush=True)
    os._exit(127)


def _exit_as(status: int) -> None:
    """End this process as the worker ended, so the tutor reads the same exit status."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)  # a signal whose default is not to end (cannot be the worker's end)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def main(argv: list[str]) -> None:
    args, worker = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    control = int(args[args.index("--control-fd") + 1])
    memory = int(args[args.index("--memory") + 1]) if "--memory" in args else 0
    serve(control, lambda: _start_worker(worker, memory), worker)


def serve(control: int, start, worker: list[str]) -> None:
    """Be the reaper of the worker `start()` makes (it returns the worker's pid); `worker` is its
    command line, for the run folder. Never returns: exits as the worker did."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # until the worker exists; then passed on to it
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    try:
        os.nice(5)  # a notch below the tutor: an XLA compile must not starve the UI's event loop
    except OSError:
        pass
    pid = start()
    signal.signal(signal.SIGINT, lambda *_: _signal(pid, signal.SIGINT))  # the doctor's "stop and report"
    deadline = None
    buffer = b""
    status = None
    while status is None:
        wait = 0.1 if deadline is None else min(0.1, max(deadline - time.monotonic(), 0))
        try:
            readable, _, _ = select.select([control], [], [], wait)
        except InterruptedError:
            readable = []
        if readable:
            chunk = os.read(control, 4096)
            if not chunk:  # the tutor is gone: nobody else will end this tree or remove the run folder
                kill_tree(os.getpid())
                _remove_run_dir(worker)
                os._exit(1)
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if line.startswith(b"deadline "):
                    deadline = time.monotonic() + float(line.split()[1])
        if deadline is not None and time.monotonic() >= deadline:
            kill_tree(os.getpid())
            _reap_all()
            _exit_as(int(signal.SIGALRM))  # a wait status "killed by SIGALRM", as the worker's own timer
        while True:  # reap every child; the orphans the learner left come here too
            try:
                got, st = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if got == 0:
                break
            if got == pid:
                status = st
    kill_tree(os.getpid())
    _reap_all()
    _exit_as(status)


def _remove_run_dir(worker: list[str]) -> None:
    """The run folder named on the worker's command line (the worker, killed, cannot remove it now)."""
    if "--run-dir" not in worker:
        return
    path = worker[worker.index("--run-dir") + 1]
    if os.path.basename(path).startswith("jaxstate-run-"):  # tutor.protocol.RUN_DIR_PREFIX
        import shutil

        _reap_all()  # the worker's copy of the folder's lock goes with it
        shutil.rmtree(path, ignore_errors=True)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except OSError:
        pass


def _reap_all() -> None:
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return
        except InterruptedError:
            continue


if __name__ == "__main__":
    main(sys.argv[1:])
