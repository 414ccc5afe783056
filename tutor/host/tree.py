"""The process tree: processes and threads, parents and children, as /proc (or `ps`) shows them.

Part of tutor.host (what differs between hosts): import it as `from tutor import host`."""

from __future__ import annotations

import os
import subprocess

from tutor.host.kernel import IS_MACOS, PROC


def processes_now() -> int | None:
    """How many processes this host (or this gVisor sandbox) holds now, zombies included: the
    numbered entries of /proc, one directory read. No file of any process is opened: under gVisor
    a process's own files wait on its memory map, which a forking process holds (reading the tree
    of a fork bomb of 55 processes took 13 s there); None where there is no /proc."""
    if not PROC:
        return None
    try:
        return sum(name.isdigit() for name in os.listdir("/proc"))
    except OSError:
        return None


def tasks_of_user(uid: int) -> int:
    """Tasks (threads) of all the processes of `uid` now, as /proc shows them."""
    total = 0
    try:
        names = [n for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return 0
    for name in names:
        try:
            if os.stat(f"/proc/{name}").st_uid == uid:
                total += threads_of(int(name)) or 1
        except OSError:
            continue
    return total


# -- the process tree -------------------------------------------------------------------------


def _status(pid: int) -> dict[bytes, bytes]:
    """/proc/PID/status as {field: value}; {} if unreadable."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    fields = {}
    for line in lines:
        name, _, value = line.partition(b":")
        fields[name] = value.strip()
    return fields


def is_process(pid: int) -> bool:
    """True for a thread-group leader (a process), False for another thread of one (gVisor lists
    those among children) or a pid that is gone."""
    tgid = _status(pid).get(b"Tgid")
    return tgid is not None and tgid == str(pid).encode()


def is_alive(pid: int) -> bool:
    """True for a process that still runs (or is stopped); False for a zombie or one that is gone.
    Where there is no /proc, whether it can be signalled."""
    if not PROC:
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True
    state = _status(pid).get(b"State", b"")[:1]
    return state not in (b"", b"Z", b"X")


def _parents_from_ps() -> dict[int, list[int]]:
    """{ppid: [pid, ...]} from `ps` (macOS, a Linux whose /proc is hidden has none that works)."""
    try:
        out = subprocess.run(
            ["ps", "-A", "-o", "pid=,ppid="], capture_output=True, timeout=5, check=True, stdin=subprocess.DEVNULL
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    kids: dict[int, list[int]] = {}
    for line in out.split(b"\n"):
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            kids.setdefault(int(parts[1]), []).append(int(parts[0]))
    return kids


def children_map() -> dict[int, list[int]]:
    """{ppid: [pid, ...]} of every process this user can see; {} where nothing can tell."""
    if not PROC:
        return _parents_from_ps()
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
    """The child processes of `pid`, each once, from /proc/PID/task/*/children (only this tree is
    read); None where the host has no such files (then use children_map)."""
    if not PROC:
        return None
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []  # gone meanwhile
    found: dict[int, None] = {}  # each child once, in order: every thread may list it
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                for p in f.read().split():
                    found[int(p)] = None
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{tid}"):
                continue  # the thread ended
            return None
        except (OSError, ValueError):
            continue
    return [p for p in found if is_process(p)]


def group_alive(group: int) -> bool | None:
    """Whether a live process (not a zombie) is in process group `group`: stops at the first
    found. None where there is no /proc to look in."""
    if not PROC:
        return None
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2 :].split()
        except (OSError, ValueError):
            continue
        if len(fields) > 2 and fields[2] == str(group).encode() and fields[0] not in (b"Z", b"X"):
            return True
    return False


def descendants(root: int, stop_at: int = 0) -> list[int]:
    """Every process below `root` now, each once; with `stop_at`, no more than that many."""
    found: list[int] = []
    todo = [root]
    kids_map: dict[int, list[int]] | None = None
    while todo and not (stop_at and len(found) >= stop_at):
        pid = todo.pop()
        kids = children_of(pid) if kids_map is None else kids_map.get(pid, [])
        if kids is None:  # no children files: by parent links, the whole tree again
            kids_map, found, todo = children_map(), [], [root]
            continue
        new = [k for k in kids if k not in found and k != root]
        found.extend(new)
        todo.extend(new)
    return found[:stop_at] if stop_at else found


# /proc files about the machine, not about a process, that a fenced run may read (tutor.child.sight):
# what Python, NumPy and XLA may ask after the backend is up (os.cpu_count's fallbacks, a new
# backend, a driver's parameters). None is about another process.
_PROC_MACHINE = ("cpuinfo", "meminfo", "stat", "loadavg", "uptime", "version", "filesystems", "mounts", "sys", "driver")


def own_proc_paths() -> list[str]:
    """This process's own /proc folder (/proc/self resolved now: a forked child has its own pid) and
    the /proc files about the machine; [] without /proc."""
    if not PROC:
        return []
    paths = [os.path.realpath("/proc/self"), *(os.path.join("/proc", name) for name in _PROC_MACHINE)]
    return [p for p in paths if os.path.exists(p)]


def parent_of(pid: int) -> int | None:
    """The parent of process `pid`; None if it cannot be read (gone, no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return int(stat[stat.rindex(b")") + 2 :].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def ancestors(pid: int) -> list[int]:
    """The processes above `pid`, nearest first, up to init (not included); [] where /proc cannot tell."""
    found: list[int] = []
    parent = parent_of(pid)
    while parent is not None and parent > 1 and parent not in found:
        found.append(parent)
        parent = parent_of(parent)
    return found


def threads_of(pid: int) -> int:
    """Threads of process `pid` (its `Threads:` line); 0 if it cannot be read."""
    value = _status(pid).get(b"Threads")
    if value is not None and value.isdigit():
        return int(value)
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def own_threads() -> int | None:
    """Threads of this process; None where the host cannot tell."""
    n = threads_of(os.getpid()) if PROC else 0
    return n or None


def thread_ids() -> frozenset[int]:
    """The ids of this process's threads (as threading.get_native_id gives them); empty where the
    host cannot tell."""
    if not PROC:
        return frozenset()
    try:
        return frozenset(int(t) for t in os.listdir("/proc/self/task"))
    except (OSError, ValueError):
        return frozenset()


def fork_after_jax_is_safe() -> bool:
    """Whether a process that imported JAX may fork workers: not on macOS (Objective-C and
    Accelerate state crash a forked child), not without fork (Windows)."""
    return hasattr(os, "fork") and not IS_MACOS
