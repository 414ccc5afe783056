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
  (the `--memory` of each is per process, and shared memory escapes it), the last counted from
  when the tutor says the worker is ready (`ready` on the control socket); past any it ends the
  tree and says which;
- ends the whole tree when the worker exits, at the deadline, when the tutor says `end`, or when
  the control socket reaches EOF (the tutor is gone), then exits as the worker did (same code,
  same signal); the worker's process group is signalled until it is empty (end_group_until_gone),
  so nothing of the run is left once this process has exited.

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
import threading
import time
from collections.abc import Callable
from typing import NoReturn

if not __package__:  # run as a script (`python -I -S reaper.py`): the tutor's own folder, nothing else
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from tutor import host  # after the path it is found on

FILE_BYTES = 2**30  # RLIMIT_FSIZE of the worker and all it starts
PROCESS_EVERY_S = 0.1  # how often the live processes below are counted (a fork loop is quick)
DISK_EVERY_S = 0.5  # how often the run folder's size and the tree's memory are measured
MAX_FILES = 10_000  # entries in the run folder; beyond, measuring would cost too much: over the limit
MAX_CACHE_FILES = 100_000  # entries in the compilation cache beyond which its growth is not measured
GLANCE_TREE_S = 1.0  # gVisor: how long the glance waits to read the tree before it believes its own count
THREADS_PER_PROCESS = 10  # the bound on threads in the tree: this many per process allowed
TASKS_CAP_TIMES = 4  # the kernel's cap on tasks: this many times the bound on threads
KILL_WITHIN_S = 10.0  # kill_tree scans again until nothing is alive below, this long at most
GROUP_GONE_WITHIN_S = 20.0  # end_group_until_gone signals the worker's group again until it is empty, this long at most


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
    for st in host.deleted_files_held(pids):
        if (st.st_dev, st.st_ino) not in inodes and st.st_nlink == 0:
            inodes.add((st.st_dev, st.st_ino))
            used += st.st_blocks * 512
    return used


def descendants(root: int) -> list[int]:
    """Every process below `root` now."""
    return host.descendants(root)


def kill_tree(root: int, within_s: float = KILL_WITHIN_S) -> int:
    """SIGKILL everything below `root`, scanning again until a scan finds nothing alive (or
    `within_s` passes): a fork loop cannot outrun it, since a killed process forks no more and
    what it forked meanwhile is found by the next scan. Each process's group is killed too, in
    one call: the kernel restarts a fork that races with a signal to the group, so a fork bomb
    that stays in its group ends at once. Returns how many processes it signalled."""
    signalled: set[int] = set()
    groups: set[int] = set()
    end = time.monotonic() + within_s
    while True:
        alive = [p for p in descendants(root) if host.is_alive(p)]
        if not alive or (time.monotonic() > end and all(p in signalled for p in alive)):
            break  # what a scan found is signalled at least once, however long the scan took
        if all(p in signalled for p in alive):
            time.sleep(0.005)  # all are dying: let them (their exit needs the CPU this loop would take)
        for pid in alive:
            try:
                group = os.getpgid(pid)
            except OSError:
                group = 0
            if group > 1 and group not in groups and group != os.getpgrp():
                groups.add(group)
                _killpg(group)
            _signal(pid, signal.SIGKILL)
            signalled.add(pid)
    return len(signalled)


def lower_of_host(which: int, ours: int) -> int:
    """`ours`, or the host's own limit (soft or hard, as the shell that started the tutor set it)
    where that is lower: a classroom's limits.conf is respected, not fought (raising a hard limit
    fails, and every worker would fail with it)."""
    import resource

    return min([ours, *(v for v in resource.getrlimit(which) if v != resource.RLIM_INFINITY)])


def limit_this_process(memory: int) -> None:
    """In the worker-to-be, before any learner code: its own group and its limits, soft = hard."""
    import resource

    # The worker's session (and group): its lifeline kills it with what it started in it, and where
    # the kernel groups the CPU by session (autogroup), a fork bomb below shares one session's part
    # of the CPU and cannot starve the reaper that must end it.
    os.setsid()
    if memory:
        data = lower_of_host(resource.RLIMIT_DATA, memory)
        resource.setrlimit(resource.RLIMIT_DATA, (data, data))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # No file bigger than this (the run folder is on the shared /tmp); a write past it fails with
    # EFBIG ("File too large") in the learner's code instead of killing the worker with SIGXFSZ.
    size = lower_of_host(resource.RLIMIT_FSIZE, FILE_BYTES)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    if os.geteuid() == 0:
        host.drop_raise_limits()  # lost at exec: hard limits stay hard for root
        if host.is_gvisor():
            # gVisor keeps a root process's capabilities across exec: without these two, learner
            # code cannot mount a cgroup hierarchy to lift the tree's cap, and RLIMIT_NPROC binds
            host.drop_admin()
    else:
        host.drop_capabilities()  # those a user namespace of the reaper's gave (Bounds.cap_tasks)


def kill_members(cap: str | None) -> None:
    """SIGKILL every process in the tasks cgroup `cap` but this one, until none is left (2 s at
    most): its list names the whole tree, new sessions included, with no file of any process read
    (under gVisor those wait on a forking process). Call after new tasks are refused there."""
    if not cap:
        return
    signalled: set[int] = set()
    end = time.monotonic() + 2.0
    while time.monotonic() < end:
        others = [p for p in host.cgroup_processes(cap) if p != os.getpid()]
        if not others:
            return
        for pid in others:
            if pid not in signalled:  # once each: a killed process stays listed until it has exited
                _signal(pid, signal.SIGKILL)
                signalled.add(pid)
        time.sleep(0.01)


def end_group(group: int, cap: str | None = None) -> None:
    """SIGKILL the process group `group` (the worker's), in one call: before kill_tree, which reads
    each process's files. Under gVisor without the tasks cgroup `cap`, again while the sandbox
    still gains processes (a child made during a group signal escapes it there) and each of those
    files can wait for seconds on a forking process."""
    _signal_group(group, signal.SIGKILL)
    if cap or not host.is_gvisor():
        return
    seen = host.processes_now() or 0
    for _ in range(50):  # 1 s at most
        time.sleep(0.02)
        _signal_group(group, signal.SIGKILL)
        now = host.processes_now() or 0
        if now <= seen:
            return
        seen = now


def end_group_until_gone(group: int, within_s: float = GROUP_GONE_WITHIN_S) -> bool:
    """SIGKILL the process group `group` (the worker's) again and again until no process of it is
    left, reaping this process's own children meanwhile (a zombie stays in its group until
    reaped). A check's processes cannot leave the group (tutor.child.seccomp_policy refuses
    setsid and setpgid), so this reaches every one of them, also the orphans that a host without
    subreapers (gVisor: PR_SET_CHILD_SUBREAPER is EINVAL there) gives to init, where no walk of
    the tree finds them; and a fork that races the signal fails (the kernel refuses a fork while a
    group-wide fatal signal is pending). True once the group is gone; False at `within_s`, or where
    a member is not this process's to signal."""
    if group <= 1:
        return True
    end = time.monotonic() + within_s
    looked = time.monotonic()
    while True:
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            return True
        except OSError:
            return False
        _reap_now()
        now = time.monotonic()
        if now - looked > 0.5:  # only zombies of another parent (init's) may be left: they cannot run
            looked = now
            if host.group_alive(group) is False:
                return True
        if now > end:
            return False
        time.sleep(0.005)


def _reap_now() -> None:
    """Reap every child that has ended, without waiting."""
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                return
        except ChildProcessError:
            return
        except InterruptedError:
            continue


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


def _exit_as(status: int) -> NoReturn:
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
        self.memory_before: int | None = None  # what the tree held once ready; None: not ready yet
        self.memory_added = 0  # what it holds beyond that, as last measured (by _measure_memory)
        # gVisor: the processes in the sandbox before the worker, for a glance that opens no
        # process's file (see over()); None elsewhere.
        self.glance_base: int | None = None
        self.counted_word: str | None = None  # gVisor: what the counting thread found past a bound
        self.last_tree: list[int] = []  # gVisor: the tree as the counting thread last found it
        self.group = 0  # the worker's process group (its pid): stopped, then killed, in one call each
        self.members_of: str | None = None  # the tasks cgroup, whose list is the tree (cap_tasks)
        self.gvisor = host.is_gvisor()
        self._disk_thread: threading.Thread | None = None  # gVisor: measures the disk (see over())
        self.disk_word: str | None = None  # gVisor: what it found past the bound

    def cap_tasks(self) -> str | None:
        """Have the kernel cap the tasks (threads too) of this process and all below it, above the
        reaper's own bounds (so the count still names which one a program passed, before the
        program sees a refused fork or thread) but within reach: a fork bomb cannot grow without
        end while the reaper is starved of the CPU. A cgroup's folder (which counts the forks it
        refused), or None (RLIMIT_NPROC in a user namespace, or no cap on this host)."""
        if not self.processes:
            return None
        tasks = TASKS_CAP_TIMES * self.processes * THREADS_PER_PROCESS + 2
        folder = host.tasks_cgroup(tasks)
        if folder is None:
            # No cgroup of ours mounted (gVisor mounts none), but root may mount one: its `pids`
            # controller, mounted for this alone, caps the tree and lists it (cgroup.procs), setsid
            # or not, in one read (under gVisor each process's own files wait on a forking process:
            # reading a fork bomb's tree of 55 took 13 s). Not only where gVisor is recognised.
            folder = host.tasks_cgroup_detached(tasks)
        self.members_of = folder
        if folder is None and not host.tasks_rlimit_in_namespace(tasks) and host.is_gvisor():
            # gVisor with no cgroup (an ordinary user, as on a cloud TPU VM; or root where the mount
            # failed): RLIMIT_NPROC, which gVisor holds a worker to once it lacks CAP_SYS_ADMIN and
            # CAP_SYS_RESOURCE (an ordinary user's never had them; root's go in limit_this_process),
            # counts every task of the user in the sandbox, threads too: what runs there now, plus
            # the bound on threads.
            host.tasks_rlimit_of_user(host.tasks_of_user(os.geteuid()) + self.processes * THREADS_PER_PROCESS + 2)
        if folder is None and host.is_gvisor():
            self.glance_base = host.processes_now()
        return folder

    def begin(self, worker: list[str]) -> None:
        """The job starts (the tutor sent its deadline): what the compilation cache holds already."""
        if self.disk and self.cache is None:
            self.cache = CacheGrowth(_value_of(worker, "--cache-dir"))

    def ready(self) -> None:
        """The worker is ready, learner code about to run: memory counts from what the tree holds
        now (JAX's own, and a TPU runtime's mapped host memory, are not the run's doing)."""
        if self.memory and self.memory_before is None:
            self.memory_before = 0
            threading.Thread(target=self._measure_memory, name="memory", daemon=True).start()

    def _measure_memory(self) -> None:
        """Measure the tree's memory every DISK_EVERY_S, in a thread of its own: reading a
        process's memory (smaps_rollup) waits on the lock of its memory map, which a process holds
        while it forks, and a fork bomb's processes fork all the time, each waiting for the CPU
        behind hundreds of others: seconds in which the count and the kill must not wait too."""
        before = None
        while True:
            tree = host.descendants(os.getpid(), self.processes + 1 if self.processes else 0)
            if not (self.processes and len(tree) > self.processes):  # past it, the main loop ends the tree
                held = host.memory_of_tree(tree)  # None: the host cannot tell (guards_off says so)
                if before is None:
                    before = self.memory_before = held or 0
                elif held is not None:
                    self.memory_added = held - before
            time.sleep(DISK_EVERY_S)

    def _members(self) -> list[int]:
        """The processes below, from the tasks cgroup's list (this one aside)."""
        me = os.getpid()
        return [p for p in host.cgroup_processes(self.members_of or "") if p != me]

    def start_counting(self, group: int) -> None:
        """Under gVisor, count the tree in a thread of its own (see over()); `group` is the worker's."""
        self.group = group
        if self.processes and self.glance_base is not None:
            threading.Thread(target=self._count_tree, name="count", daemon=True).start()

    def _count_tree(self) -> None:
        """gVisor: the tree's processes and threads, every PROCESS_EVERY_S, off the main loop (each
        process's file there waits while the process forks: seconds under a fork bomb)."""
        while self.counted_word is None:
            tree = self.last_tree = host.descendants(os.getpid(), self.processes + 1)
            if len(tree) > self.processes:
                self.counted_word = f"limit processes {len(tree)}"
            else:
                threads = sum(host.threads_of(pid) for pid in tree)
                if threads > self.processes * THREADS_PER_PROCESS:
                    self.counted_word = f"limit threads {threads}"
            time.sleep(PROCESS_EVERY_S)

    def _glance(self) -> str | None:
        """gVisor: `limit processes N` once the sandbox holds more than the bound beyond what it held
        before the worker, and the tree, its group stopped, is found past it; else None. The glance
        is one read of /proc, so a fork bomb is seen within PROCESS_EVERY_S however busy it keeps
        the files of its processes. Stopped first, then counted: what a fork in flight makes is
        stopped by the next round (gVisor lets a child made during a group signal escape it)."""
        now_in_sandbox = host.processes_now()
        if self.glance_base is None or now_in_sandbox is None or now_in_sandbox - self.glance_base <= self.processes:
            return None
        seen = now_in_sandbox
        settle = time.monotonic() + 0.4  # then the count below decides, stopped or not
        while time.monotonic() < settle:  # by the clock: one read of /proc took 4.8 s under a bomb
            _signal_group(self.group, signal.SIGSTOP)
            time.sleep(0.02)
            again = host.processes_now() or 0
            if again <= seen:
                break
            seen = again
        found: list[list[int]] = []
        walk = threading.Thread(target=lambda: found.append(host.descendants(os.getpid(), self.processes + 1)))
        walk.daemon = True
        walk.start()
        walk.join(GLANCE_TREE_S)
        if not found:
            # The sandbox grew past the bound and the tree cannot even be read: gVisor holds each
            # file of a process while it forks, and a `setsid` child escapes the group stopped
            # above. A fork storm below us (measured as nobody in `runsc do`: reading the tree of a
            # setsid bomb took longer than its 30 s limit); the glance's own count is the word.
            return f"limit processes {seen - self.glance_base}"
        tree = found[0]
        if len(tree) > self.processes:
            return f"limit processes {len(tree)}"
        _signal_group(self.group, signal.SIGCONT)  # others' processes made the count: not this run's
        self.glance_base = seen - len(tree)
        return None

    def over(self, worker: list[str]) -> str | None:
        """`limit processes N` / `limit disk N` / `limit memory N` once a bound is passed, else None."""
        now = time.monotonic()
        measure = (self.disk or self.memory) and now - self._measured >= DISK_EVERY_S
        if self.processes and self.members_of:  # a tasks cgroup: two files, setsid or not, forking or not
            if measure or now - self._counted >= PROCESS_EVERY_S:
                self._counted = now
                tree = self._members()
                if len(tree) > self.processes:
                    return f"limit processes {len(tree)}"
                threads = host.cgroup_tasks(self.members_of) - (host.own_threads() or 1)
                if threads > self.processes * THREADS_PER_PROCESS:
                    return f"limit threads {threads}"
        elif self.processes and self.glance_base is not None:  # gVisor without: glance here, count in a thread
            if now - self._counted >= PROCESS_EVERY_S:
                self._counted = now
                word = self.counted_word or self._glance()
                if word:
                    return word
        elif self.processes and (measure or now - self._counted >= PROCESS_EVERY_S):
            # Counted first, and no further than the bound: a tree past it (a fork bomb: thousands
            # within a second) is never listed, nor measured process by process, in full.
            self._counted = now
            tree = host.descendants(os.getpid(), self.processes + 1)
            if len(tree) > self.processes:
                return f"limit processes {len(tree)}"
            threads = sum(host.threads_of(pid) for pid in tree)
            if threads > self.processes * THREADS_PER_PROCESS:
                return f"limit threads {threads}"
        if measure:
            self._measured = now
            if self.gvisor:
                # gVisor: the disk is measured in a thread (reading a forking process's open files
                # there took 5.7 s, while the count waited), this loop reads what it found
                if self.disk and self._disk_thread is None:
                    self._disk_thread = threading.Thread(target=self._measure_disk, args=(worker,), daemon=True)
                    self._disk_thread.start()
                if self.disk_word:
                    return self.disk_word
            else:
                if self.members_of:
                    tree = self._members()
                else:
                    tree = host.descendants(os.getpid(), self.processes + 1 if self.processes else 0)
                    if self.processes and len(tree) > self.processes:
                        return f"limit processes {len(tree)}"
                used = self._disk_used(worker, tree)
                if used > self.disk:
                    return f"limit disk {used}"
            if self.memory and self.memory_added > self.memory:
                return f"limit memory {self.memory_added}"
        return None

    def _disk_used(self, worker: list[str], tree: list[int]) -> int:
        """Bytes the run holds on disk (0 without a bound on disk or a run folder)."""
        folder = _run_dir(worker)
        if not (self.disk and folder):
            return 0
        used = disk_used(folder, [os.getpid(), *tree], self.disk)
        return used + (self.cache.added() if self.cache else 0)

    def _measure_disk(self, worker: list[str]) -> None:
        """gVisor: the run's disk every DISK_EVERY_S, in a thread of its own, until past the bound."""
        while True:
            tree = self._members() if self.members_of else self.last_tree
            used = self._disk_used(worker, tree)
            if used > self.disk:
                self.disk_word = f"limit disk {used}"
                return
            time.sleep(DISK_EVERY_S)


def _say(control: int, word: str) -> None:
    """The reaper's last word to the tutor (who may be gone: then nobody hears it)."""
    try:
        os.write(control, word.encode() + b"\n")
    except OSError:
        pass


def serve(control: int, start: Callable[[], int], worker: list[str], bounds: Bounds | None = None) -> NoReturn:
    """Be the reaper of the worker `start()` makes (it returns the worker's pid); `worker` is its
    command line, for the run folder. Never returns: exits as the worker did."""
    bounds = bounds or Bounds()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # until the worker exists; then passed on to it
    adopts = host.become_subreaper()
    try:
        os.nice(5)  # a notch below the tutor: an XLA compile must not starve the UI's event loop
    except OSError:
        pass
    cap = bounds.cap_tasks()  # before the worker exists: every task below is counted from the first
    pid = start()
    bounds.start_counting(pid)
    signal.signal(signal.SIGINT, lambda *_: _signal(pid, signal.SIGINT))  # the doctor's "stop and report"
    deadline = None
    buffer = b""
    status = None
    while status is None:
        wait = 0.1 if deadline is None else min(0.1, max(deadline - time.monotonic(), 0))
        chunk = _read_control(control, wait)
        if chunk == b"":  # the tutor is gone: nobody else will end this tree or remove the run folder
            _end_everything(pid, cap)
            _remove_run_dir(worker)
            _leave(cap)
            os._exit(1)
        buffer += chunk or b""
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            deadline = _obey(line, deadline, bounds, worker, pid, cap)
        if deadline is not None and time.monotonic() >= deadline:
            _end_everything(pid, cap)
            _reap_all()
            _say(control, _refused(cap) or f"exit {int(signal.SIGALRM)}")
            _leave(cap)
            _exit_as(int(signal.SIGALRM))  # a wait status "killed by SIGALRM", as the worker's own timer
        over = bounds.over(worker)
        if over:
            _end_over_bounds(control, pid, cap, over, bounds)
        status = _reap_children(pid)
    kill_members(cap)
    if not adopts:
        # No subreaper (gVisor): what the worker left running went to init, out of the tree's
        # reach but still in the worker's group. Its id was freed a moment ago, but a group with a
        # member keeps it; an empty one answers ESRCH (a reuse within these milliseconds would need
        # the whole pid space to wrap).
        end_group_until_gone(pid)
    kill_tree(os.getpid())
    _reap_all()
    _say(control, _refused(cap) or f"exit {status}")
    _leave(cap)
    _exit_as(status)


def _read_control(control: int, wait: float) -> bytes | None:
    """What the tutor wrote on the control pipe within `wait` seconds: None if nothing, b"" if it is gone."""
    try:
        readable, _, _ = select.select([control], [], [], wait)
    except InterruptedError:
        readable = []
    return os.read(control, 4096) if readable else None


def _obey(
    line: bytes, deadline: float | None, bounds: Bounds, worker: list[str], pid: int, cap: str | None
) -> float | None:
    """One line of the tutor's: `deadline S` (the run has begun: returns when it ends), `ready`,
    or `end` (the tutor is done with the run: end all of it, then go)."""
    if line.startswith(b"deadline "):
        deadline = time.monotonic() + float(line.split()[1])
        bounds.begin(worker)
    elif line == b"ready":
        bounds.ready()
    elif line == b"end":
        _end_everything(pid, cap)
        _reap_all()
        _leave(cap)
        os._exit(1)
    return deadline


def _end_everything(pid: int, cap: str | None) -> None:
    """End the worker's group, the tasks counted under the cap, and every process below this one."""
    end_group(pid, cap)
    kill_members(cap)
    end_group_until_gone(pid)
    kill_tree(os.getpid())


def _end_over_bounds(control: int, pid: int, cap: str | None, over: str, bounds: Bounds) -> NoReturn:
    """The run went past a bound (`over` says which): said, then all of it ended."""
    # Said first: once new tasks are refused, the learner's program fails its next fork or
    # thread and the worker reports that exception; the tutor must already know why.
    _say(control, over)
    if cap:
        host.stop_new_tasks(cap)  # before the kill: nothing below may fork meanwhile
    kill_members(cap)
    end_group(pid, cap)
    end_group_until_gone(pid)  # the tutor waits for this process's exit: nothing of the run is left by then
    kill_tree(os.getpid())
    _reap_all()
    if over.startswith("limit disk") and bounds.cache:
        bounds.cache.remove_added()  # what it wrote there would outlast the run
    _leave(cap)
    os._exit(1)


def _reap_children(pid: int) -> int | None:
    """Reap every child that has ended (the orphans the learner left come here too); the worker's
    wait status if it was one of them."""
    status = None
    while True:
        try:
            got, st = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if got == 0:
            break
        if got == pid:
            status = st
    return status


def _refused(cap: str | None) -> str | None:
    """`limit processes N` if the kernel refused N forks or threads past the cap (the program may
    have caught the error and ended as if nothing happened), else None."""
    refused = host.tasks_refused(cap) if cap else 0
    return f"limit processes {refused}" if refused else None


def _leave(cap: str | None) -> None:
    if cap:
        host.leave_tasks_cgroup(cap)


def _value_of(worker: list[str], option: str) -> str | None:
    return worker[worker.index(option) + 1] if option in worker[:-1] else None


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
    """Reap every child until none is left, killing what is still alive below meanwhile (a process
    that escaped the last scan would otherwise keep this wait, and the verdict, waiting)."""
    while True:
        try:
            got, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except InterruptedError:
            continue
        if got == 0:
            kill_tree(os.getpid(), within_s=1.0)
            time.sleep(0.01)


def _signal_group(group: int, sig: int) -> None:
    if group > 1:
        try:
            os.killpg(group, sig)
        except OSError:
            pass


def _killpg(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
