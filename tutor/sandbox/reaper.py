"""The reaper: a small process between the tutor and each worker, which learner code cannot undo.

Run as `python -I -S reaper.py --control-fd N --memory BYTES -- <worker command>` (stdlib only, so
it starts in milliseconds). It

- is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever the learner's code starts, also with
  `setsid`, `setpgid` or a double fork, stays below it, so killing its tree reaches all of it;
- sets the worker's limits (memory, file size) before the worker exists, with soft = hard, and drops CAP_SYS_RESOURCE
  from the bounding set (a root learner could otherwise raise a hard limit back up);
- holds the job's deadline, sent by the tutor on the control socket: `signal.alarm(0)` or a new
  SIGALRM handler in learner code cannot reach this process's timer;
- bounds what the tree may hold: live processes (`--max-processes`), bytes on disk in the run
  folder, open deleted files included (`--max-disk`), and memory of all its processes together
  (the `--memory` of each is per process, and shared memory escapes it); past any it ends the
  tree and says which;
- ends the whole tree when the worker exits, at the deadline, or when the control socket reaches
  EOF (the tutor is gone), then exits as the worker did (same code, same signal).

Its last word goes back on the control socket before it exits: `exit <status>`, or `limit <what>
<n>` (processes, threads, disk bytes, memory bytes). A reaper that ended without a word was killed
from outside (by the learner's code, most likely): the tutor says so, and never calls that run a
pass.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
_PR_CAPBSET_DROP = 24
_CAP_SYS_RESOURCE = 24
FILE_BYTES = 2**30  # RLIMIT_FSIZE of the worker and all it starts
PROCESS_EVERY_S = 0.1  # how often the live processes below are counted (a fork loop is quick)
DISK_EVERY_S = 0.5  # how often the run folder's size and the tree's memory are measured
MAX_FILES = 10_000  # entries in the run folder; beyond, measuring would cost too much: over the limit
MAX_CACHE_FILES = 100_000  # entries in the compilation cache beyond which its growth is not measured
THREADS_PER_PROCESS = 10  # the bound on threads in the tree: this many per process allowed


def prctl(option: int, arg: int) -> bool:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False  # not Linux


def children_map() -> dict[int, list[int]]:
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


def children_of(pid: int) -> list[int] | None:
    """The children of `pid` from /proc/PID/task/*/children (cheap: only this tree is read);
    None where the kernel has no such file (then the whole of /proc is scanned)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []  # gone meanwhile
    found: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found.extend(int(p) for p in f.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{tid}"):
                continue  # the thread ended
            return None
        except (OSError, ValueError):
            continue
    return found


def _files(folder: str, limit: int) -> dict[str, os.stat_result] | None:
    """{path: its stat} of every file below `folder`, links not followed; None past `limit` entries
    (folders included)."""
    found: dict[str, os.stat_result] = {}
    entries, todo = 0, [folder]
    while todo:
        try:
            with os.scandir(todo.pop()) as it:
                for entry in it:
                    entries += 1
                    if entries > limit:
                        return None
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            todo.append(entry.path)
                        else:
                            found[entry.path] = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
        except OSError:
            continue
    return found


def _sizes(folder: str, limit: int) -> dict[str, int] | None:
    """{path: bytes on disk} (blocks really used, so a sparse file counts what it holds)."""
    files = _files(folder, limit)
    return None if files is None else {path: st.st_blocks * 512 for path, st in files.items()}


class CacheGrowth:
    """What a run adds to the compilation cache (outside the run folder, and writable by the
    worker): counted in its disk use from the moment its job starts (a spare waiting for a job is
    charged nothing), and removed if the run is ended for disk. The cache is shared by a home's
    runs: two running at once are both charged for what either adds."""

    def __init__(self, folder: str | None):
        self.folder = folder
        self.before = _sizes(folder, MAX_CACHE_FILES) if folder else None  # None: not measured

    def added(self) -> int:
        if self.before is None or self.folder is None:
            return 0
        now = _sizes(self.folder, MAX_CACHE_FILES) or {}
        return sum(max(0, size - self.before.get(path, 0)) for path, size in now.items())

    def remove_added(self) -> None:
        """Remove every file that is new or grew since the start (a cache entry, if one, is only remade)."""
        if self.before is None or self.folder is None:
            return
        for path, size in (_sizes(self.folder, MAX_CACHE_FILES) or {}).items():
            if size > self.before.get(path, -1):
                try:
                    os.remove(path)
                except OSError:
                    pass


def disk_used(folder: str, pids: list[int], stop_at: int) -> int:
    """Bytes on disk held by the run: every file in `folder` (blocks really used, so a sparse file
    counts what it holds) and every deleted file the processes `pids` still hold open. A folder of
    more than MAX_FILES entries counts as past `stop_at`."""
    files = _files(folder, MAX_FILES)
    if files is None:
        return stop_at + 1
    used, inodes = 0, set()
    for st in files.values():
        if (st.st_dev, st.st_ino) not in inodes:  # a hard link counts once
            inodes.add((st.st_dev, st.st_ino))
            used += st.st_blocks * 512
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if not os.readlink(f"/proc/{pid}/fd/{fd}").endswith(" (deleted)"):
                    continue
                st = os.stat(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if (st.st_dev, st.st_ino) not in inodes and st.st_nlink == 0:
                inodes.add((st.st_dev, st.st_ino))
                used += st.st_blocks * 512
    return used


_MEMORY_FIELDS = (b"Pss_Anon:", b"Pss_Shmem:", b"SwapPss:")


def memory_used(pids: list[int]) -> int:
    """Bytes of memory the processes `pids` hold together: their anonymous and shared memory and
    swap, each page shared between them counted once overall (proportional set size)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        fields = {line.split()[0]: int(line.split()[1]) for line in lines[1:] if len(line.split()) >= 2}
        if b"Pss_Anon:" in fields:
            total += sum(fields.get(name, 0) for name in _MEMORY_FIELDS) * 1024
        else:  # before Linux 5.9: all of it, files mapped too (a little more than is held)
            total += (fields.get(b"Pss:", 0) + fields.get(b"SwapPss:", 0)) * 1024
    return total


def descendants(root: int) -> list[int]:
    """Every process below `root` now (by parent links in /proc)."""
    kids = children_map()
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
        prctl(_PR_CAPBSET_DROP, _CAP_SYS_RESOURCE)  # lost at exec: hard limits stay hard for root


def end_tree(root: int) -> None:
    """SIGKILL everything below `root` (kill_tree), then `root` itself."""
    kill_tree(root)
    try:
        os.kill(root, signal.SIGKILL)
    except OSError:
        pass


def _start_worker(argv: list[str], memory: int, control: int) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:
        os.close(control)  # the reaper's alone: learner code must not speak for it
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


def _option(args: list[str], name: str) -> int:
    return int(args[args.index(name) + 1]) if name in args else 0


def main(argv: list[str]) -> None:
    args, worker = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    control = _option(args, "--control-fd")
    memory = _option(args, "--memory")
    bounds = Bounds(_option(args, "--max-processes"), _option(args, "--max-disk"), memory)
    serve(control, lambda: _start_worker(worker, memory, control), worker, bounds)


class Bounds:
    """What the tree below the reaper may hold (0: no bound), and when each was last measured."""

    def __init__(self, processes: int = 0, disk: int = 0, memory: int = 0):
        self.processes = processes
        self.disk = disk
        self.memory = memory
        self._counted = self._measured = 0.0
        self.cache: CacheGrowth | None = None  # measured by begin(), when the job starts

    def begin(self, worker: list[str]) -> None:
        """The job starts (the tutor sent its deadline): what the compilation cache holds already."""
        if self.disk and self.cache is None:
            self.cache = CacheGrowth(_value_of(worker, "--cache-dir"))

    def over(self, worker: list[str]) -> str | None:
        """`limit processes N` / `limit disk N` / `limit memory N` once a bound is passed, else None."""
        now = time.monotonic()
        if self.processes and now - self._counted >= PROCESS_EVERY_S:
            self._counted = now
            tree = descendants_fast(os.getpid(), self.processes + 1)
            if len(tree) > self.processes:
                return f"limit processes {len(tree)}"
            threads = sum(_threads(pid) for pid in tree)
            if threads > self.processes * THREADS_PER_PROCESS:
                return f"limit threads {threads}"
        if (self.disk or self.memory) and now - self._measured >= DISK_EVERY_S:
            self._measured = now
            tree = descendants_fast(os.getpid())
            folder = _run_dir(worker)
            if self.disk and folder:
                used = disk_used(folder, [os.getpid(), *tree], self.disk)
                used += self.cache.added() if self.cache else 0
                if used > self.disk:
                    return f"limit disk {used}"
            if self.memory:
                used = memory_used(tree)
                if used > self.memory:
                    return f"limit memory {used}"
        return None


def descendants_fast(root: int, stop_at: int = 0) -> list[int]:
    """descendants(), read through the children files where the kernel has them (only this tree
    is read, not all of /proc); with `stop_at`, no more than that many."""
    found: list[int] = []
    todo = [root]
    while todo and not (stop_at and len(found) >= stop_at):
        kids = children_of(todo.pop())
        if kids is None:
            found = descendants(root)
            break
        found.extend(kids)
        todo.extend(kids)
    return found[:stop_at] if stop_at else found


def _say(control: int, word: str) -> None:
    """The reaper's last word to the tutor (who may be gone: then nobody hears it)."""
    try:
        os.write(control, word.encode() + b"\n")
    except OSError:
        pass


def serve(control: int, start, worker: list[str], bounds: Bounds | None = None) -> None:
    """Be the reaper of the worker `start()` makes (it returns the worker's pid); `worker` is its
    command line, for the run folder. Never returns: exits as the worker did."""
    bounds = bounds or Bounds()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # until the worker exists; then passed on to it
    prctl(PR_SET_CHILD_SUBREAPER, 1)
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
                    bounds.begin(worker)
        if deadline is not None and time.monotonic() >= deadline:
            kill_tree(os.getpid())
            _reap_all()
            _say(control, f"exit {int(signal.SIGALRM)}")
            _exit_as(int(signal.SIGALRM))  # a wait status "killed by SIGALRM", as the worker's own timer
        over = bounds.over(worker)
        if over:
            kill_tree(os.getpid())
            _reap_all()
            if over.startswith("limit disk") and bounds.cache:
                bounds.cache.remove_added()  # what it wrote there would outlast the run
            _say(control, over)
            os._exit(1)
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
    _say(control, f"exit {status}")
    _exit_as(status)


def _value_of(worker: list[str], option: str) -> str | None:
    return worker[worker.index(option) + 1] if option in worker[:-1] else None


def _threads(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def _run_dir(worker: list[str]) -> str | None:
    """The run folder named on the worker's command line."""
    path = _value_of(worker, "--run-dir")
    return (
        path if path and os.path.basename(path).startswith("jaxstate-run-") else None
    )  # tutor.protocol.RUN_DIR_PREFIX


def _remove_run_dir(worker: list[str]) -> None:
    """The run folder named on the worker's command line (the worker, killed, cannot remove it now)."""
    path = _run_dir(worker)
    if path:
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
