"""What differs between hosts, in one place: the process tree, memory, threads, file locks, the
subreaper and other prctl calls, Landlock's ABI, whether forking after importing JAX is safe, and
whether bubblewrap runs here.

Linux (bare, containers, gVisor) is first class; macOS and Windows get what they have, and
`guards_off()` names what they lack, so the tutor can say which guards are off instead of
guessing. Every function here answers "could not tell" (None, 0, False) rather than raising.

Stdlib only, and nothing from the rest of the tutor: the reaper (tutor.sandbox.reaper) imports
this module from a `python -I -S` process that starts in milliseconds.

What differs, as measured:
- gVisor's /proc has no `smaps_rollup` and no `RssAnon`; its `children` files (newer releases)
  may list the threads of each child, so a child is taken as a process only when its `Tgid` is
  its own id; an older release has no `children` files at all. A process's own files there
  (stat, status, fd) wait while it forks: reading the tree of a fork bomb of 55 took 13 s.
  gVisor mounts no cgroups, but root may mount its `pids` controller, which caps and lists a tree
  (release 20221219: no `pids.events`); it keeps a root process's capabilities across exec, and
  holds no task with CAP_SYS_ADMIN or CAP_SYS_RESOURCE to RLIMIT_NPROC.
- macOS has no /proc: `ps` gives the tree there; Windows has neither `fcntl` nor fork.
- Landlock: ABI 7 on Linux 6.18 (signals scoped from ABI 6, Linux 6.12); none under gVisor
  (release 20221219: ENOSYS, and no `pidfd_open` either).
"""

from __future__ import annotations

import os
import subprocess
import sys

PROC = os.path.isdir("/proc/self/task")  # Linux and gVisor; False on macOS, Windows, a hidden /proc
IS_MACOS = sys.platform == "darwin"
IS_WINDOWS = os.name == "nt"

try:
    import fcntl as _fcntl
except ImportError:  # Windows
    _fcntl = None  # type: ignore[assignment]
LOCKS = _fcntl is not None  # flock: held by the kernel until every holder has exited

_PR_SET_PDEATHSIG = 1
_PR_CAPBSET_DROP = 24
_PR_SET_CHILD_SUBREAPER = 36
_CAP_SYS_ADMIN = 21
_CAP_SYS_RESOURCE = 24


# -- prctl ------------------------------------------------------------------------------------


def prctl(option: int, arg: int) -> bool:
    """prctl(2); False where the system has none (not Linux) or refuses."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Orphans below this process come to it, not to init (Linux 3.4+)."""
    return prctl(_PR_SET_CHILD_SUBREAPER, 1)


def drop_raise_limits() -> bool:
    """Drop CAP_SYS_RESOURCE from the bounding set: a root learner cannot raise a hard limit back."""
    return prctl(_PR_CAPBSET_DROP, _CAP_SYS_RESOURCE)


def drop_admin() -> bool:
    """Drop CAP_SYS_ADMIN and CAP_SYS_RESOURCE from this process's every set, the bounding set
    too: gVisor holds a task to RLIMIT_NPROC only without both (measured: root in `runsc do` with
    every capability made 12 processes under a limit of 5; with none, the 5th was refused), and
    its exec keeps a root process's sets as they were (Linux makes them the bounding set)."""
    if not sys.platform.startswith("linux"):
        return False
    prctl(_PR_CAPBSET_DROP, _CAP_SYS_ADMIN)
    prctl(_PR_CAPBSET_DROP, _CAP_SYS_RESOURCE)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
        data = (ctypes.c_uint32 * 6)()  # (effective, permitted, inheritable) x 2 words
        if libc.capget(header, data) != 0:
            return False
        keep = ~((1 << _CAP_SYS_ADMIN) | (1 << _CAP_SYS_RESOURCE)) & 0xFFFFFFFF  # both in the first word
        for i in (0, 1, 2):
            data[i] &= keep
        return libc.capset(header, data) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(sig: int) -> bool:
    """Have the kernel send `sig` when the parent dies (Linux's PR_SET_PDEATHSIG)."""
    return prctl(_PR_SET_PDEATHSIG, sig)


# -- gVisor -----------------------------------------------------------------------------------

_GVISOR_VERSION = "#1 SMP Sun Jan 10 15:06:54 PST 2016"  # the build string every gVisor release reports


def is_gvisor() -> bool:
    """Whether this runs under gVisor (runsc): its kernel reports a fixed version string."""
    try:
        return os.uname().version == _GVISOR_VERSION or "gvisor" in os.uname().release
    except AttributeError:
        return False


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


# -- Landlock --------------------------------------------------------------------------------

LANDLOCK_SIGNAL_SCOPE_ABI = 6  # Linux 6.12: a domain's processes may signal only processes inside it
LANDLOCK_NET_ABI = 4  # Linux 6.7: TCP bind and connect can be refused


def landlock_abi() -> int:
    """The Landlock ABI this kernel offers; 0 where there is none (not Linux, Linux before 5.13,
    gVisor, or Landlock left out of the kernel's LSM list)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        import ctypes

        abi = ctypes.CDLL(None, use_errno=True).syscall(444, None, 0, 1)  # landlock_create_ruleset(VERSION)
    except (OSError, AttributeError):
        return 0
    return max(int(abi), 0)


def signals_scoped() -> bool:
    """Whether the kernel can keep a check's signals inside its own processes (Landlock's signal
    scope): where it cannot, a signal sent through C or another program can still reach the tutor."""
    return landlock_abi() >= LANDLOCK_SIGNAL_SCOPE_ABI


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


# -- a bound on tasks the kernel holds ---------------------------------------------------------
#
# A fork bomb doubles every few milliseconds: the reaper's count, every 0.1 s, sees it only after
# it has grown, and thousands of runnable processes then starve the reaper that must end them. So
# the kernel refuses the tree's tasks past a cap set before the first fork, where it can count this
# tree alone. Both ways count threads too (the kernel makes no difference), so the cap is the bound
# on threads, not the lower one on processes (the reaper's count holds that).
# - a cgroup of the `pids` controller, beside the process's own (root, or a delegated cgroup v2
#   whose parent enables `pids` for its children); its `pids.events` counts the forks refused;
# - under gVisor, as root, such a cgroup of a `pids` hierarchy mounted for it alone and unmounted at
#   once (tasks_cgroup_detached), its list the tree's count (one read, where each process's own
#   files wait on its forks);
# - else RLIMIT_NPROC in a user namespace of the tree's own: since Linux 5.14 the kernel counts it
#   per user per namespace, so the tree alone (root is exempt from it; gVisor ignores it there);
# - else, for root under gVisor, RLIMIT_NPROC as it is, for all of root's tasks in the sandbox
#   (gVisor holds to it a task without CAP_SYS_ADMIN and CAP_SYS_RESOURCE; Linux exempts root).

_CLONE_NEWUSER = 0x10000000
TASKS_CGROUP_PREFIX = "jaxstate-tasks-"


def _cgroup_folder(version: int) -> str | None:
    """The folder of this process's own cgroup in the `pids` hierarchy (version 1), or in the
    unified one (2); None where there is none mounted."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
        with open("/proc/self/mountinfo") as f:
            mounts = f.read().splitlines()
    except OSError:
        return None
    own = None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if (version == 1 and "pids" in controllers.split(",")) or (version == 2 and line.startswith("0::")):
            own = path
    if own is None:
        return None
    for line in mounts:
        fields = line.split()
        fstype = fields[fields.index("-") + 1] if "-" in fields else ""
        options = fields[-1].split(",")
        if (version == 1 and fstype == "cgroup" and "pids" in options) or (version == 2 and fstype == "cgroup2"):
            root, point = fields[3], fields[4]
            relative = own[len(root) :] if root != "/" and own.startswith(root) else own
            return os.path.join(point, relative.lstrip("/"))
    return None


def tasks_cgroup(tasks: int) -> str | None:
    """A new cgroup beside this process's own, of at most `tasks` tasks, which this process then
    enters (so all it starts is counted there); its folder, or None where none can be made. Empty
    ones that a killed process left are removed first."""
    for version in (1, 2):
        own = _cgroup_folder(version)
        if own is None:
            continue
        parent = own  # a child of one's own cgroup
        try:
            for name in os.listdir(parent):
                if name.startswith(TASKS_CGROUP_PREFIX):
                    try:
                        os.rmdir(os.path.join(parent, name))  # refused while it holds a task
                    except OSError:
                        pass
            folder = os.path.join(parent, f"{TASKS_CGROUP_PREFIX}{os.getpid()}")
            os.mkdir(folder)
        except OSError:
            continue
        try:
            with open(os.path.join(folder, "pids.max"), "w") as f:
                f.write(str(tasks))
            with open(os.path.join(folder, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
            return folder
        except OSError:  # no pids controller there (v2 without it enabled for children), or not ours
            try:
                os.rmdir(folder)
            except OSError:
                pass
    return None


def stop_new_tasks(folder: str) -> bool:
    """Refuse every new task in the cgroup `folder` from now on (pids.max 0): a tree being ended
    cannot grow while it is killed, however little CPU the killer gets (a fork bomb whose every
    process is in a session of its own has one CPU autogroup per process, each as heavy as the
    killer's)."""
    try:
        with open(os.path.join(folder, "pids.max"), "w") as f:
            f.write("0")
        return True
    except OSError:
        return False


def tasks_refused(folder: str) -> int:
    """How many forks (or threads) the cgroup `folder` refused."""
    try:
        with open(os.path.join(folder, "pids.events")) as f:
            for line in f:
                name, _, value = line.partition(" ")
                if name == "max":
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def leave_tasks_cgroup(folder: str) -> None:
    """Move this process back to the cgroup above `folder` and remove it (once its tree is gone).
    `folder` may be a path or a held descriptor's /proc/self/fd/N (tasks_cgroup_detached); either
    way it is this process's, named after it."""
    parent = os.path.join(folder, "..")
    try:
        with open(os.path.join(parent, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
        above = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.rmdir(f"{TASKS_CGROUP_PREFIX}{os.getpid()}", dir_fd=above)
        finally:
            os.close(above)
    except OSError:
        pass


def cgroup_processes(folder: str) -> list[int]:
    """The processes in the cgroup `folder` now (its cgroup.procs: the cgroup's own list, not a file
    of any process, so a forking process never makes it wait); [] if unreadable."""
    try:
        with open(os.path.join(folder, "cgroup.procs"), "rb") as f:
            return [int(p) for p in f.read().split()]
    except (OSError, ValueError):
        return []


def cgroup_tasks(folder: str) -> int:
    """The tasks (threads too) in the cgroup `folder` now (pids.current); 0 if unreadable."""
    try:
        with open(os.path.join(folder, "pids.current"), "rb") as f:
            return int(f.read())
    except (OSError, ValueError):
        return 0


_CLONE_NEWNS = 0x00020000
_MNT_DETACH = 2


def tasks_cgroup_detached(tasks: int) -> str | None:
    """tasks_cgroup where no cgroup hierarchy is mounted but one can be (gVisor as root: its own
    `pids` controller enforces pids.max): in a mount namespace of this process's own, mount the
    `pids` hierarchy on a new folder, make the cgroup there, enter it, keep a descriptor of it,
    then unmount and remove the folder, so no path leads to it (what this process starts sees
    none). Returns /proc/self/fd/N, the held descriptor as a path; None where it cannot be done."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        import tempfile

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(_CLONE_NEWNS) != 0:
            return None
        point = tempfile.mkdtemp(prefix="jaxstate-pids-")
    except (OSError, AttributeError):
        return None
    try:
        if libc.mount(b"none", point.encode(), b"cgroup", 0, b"pids") != 0:
            return None
        try:
            for name in os.listdir(point):
                if name.startswith(TASKS_CGROUP_PREFIX):
                    try:
                        os.rmdir(os.path.join(point, name))  # one a killed reaper left; refused while it holds a task
                    except OSError:
                        pass
            folder = os.path.join(point, f"{TASKS_CGROUP_PREFIX}{os.getpid()}")
            os.mkdir(folder)
            try:
                with open(os.path.join(folder, "pids.max"), "w") as f:
                    f.write(str(tasks))
                with open(os.path.join(folder, "cgroup.procs"), "w") as f:
                    f.write(str(os.getpid()))
                held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)  # not inherited (close-on-exec)
            except OSError:
                os.rmdir(folder)
                return None
            return f"/proc/self/fd/{held}"
        finally:
            libc.umount2(point.encode(), _MNT_DETACH)
    except OSError:
        return None
    finally:
        try:
            os.rmdir(point)
        except OSError:
            pass


def _kernel_at_least(major: int, minor: int) -> bool:
    try:
        numbers = os.uname().release.split("-")[0].split(".")
        return (int(numbers[0]), int(numbers[1])) >= (major, minor)
    except (ValueError, IndexError, AttributeError):
        return False


def tasks_rlimit_in_namespace(tasks: int) -> bool:
    """Enter a user namespace of this process's own (the same ids, mapped to themselves) and set
    RLIMIT_NPROC to `tasks`, soft = hard: counted per namespace, it bounds this process and all it
    starts, nothing else of the user's. False (nothing changed) for root, before Linux 5.14, or
    where user namespaces are refused. Call single-threaded, before any fork."""
    if os.geteuid() == 0 or not sys.platform.startswith("linux") or not _kernel_at_least(5, 14):
        return False
    try:
        import ctypes
        import resource

        uid, gid = os.getuid(), os.getgid()
        if ctypes.CDLL(None, use_errno=True).unshare(_CLONE_NEWUSER) != 0:
            return False
        for name, text in (("uid_map", f"{uid} {uid} 1"), ("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1")):
            try:
                with open(f"/proc/self/{name}", "w") as f:
                    f.write(text)
            except OSError:
                pass  # unmapped: the ids read as the overflow id (65534), access is unchanged
        resource.setrlimit(resource.RLIMIT_NPROC, (tasks, tasks))
        return True
    except (OSError, AttributeError, ValueError):
        return False


def tasks_rlimit_of_user(tasks: int) -> bool:
    """RLIMIT_NPROC at `tasks`, soft = hard, where neither a cgroup nor a user namespace of our own
    could be had (gVisor: it mounts no cgroups and reports Linux 4.4, before per-namespace counts).
    gVisor holds to it a task that lacks CAP_SYS_ADMIN and CAP_SYS_RESOURCE (an ordinary user's, or
    root's after drop_admin; measured in `runsc do`: with both, 12 processes under a limit of 5;
    without, the 5th fork and then a thread refused: it counts tasks); Linux ignores it for root. It
    counts all of the user's tasks in the sandbox, the tutor's own too, which `tasks` must leave
    room for. A `setsid` child counts as much as any: no process group or session escapes it."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_NPROC, (tasks, tasks))
        return True
    except (OSError, ValueError, AttributeError):
        return False


def drop_capabilities() -> bool:
    """Drop every capability of this process (those a user namespace of its own gave it): capset
    with all sets empty. Not for root, who keeps what it has."""
    if os.geteuid() == 0 or not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
        data = (ctypes.c_uint32 * 6)()
        return ctypes.CDLL(None, use_errno=True).capset(header, data) == 0
    except (OSError, AttributeError):
        return False


# -- memory -----------------------------------------------------------------------------------

_ROLLUP_FIELDS = (b"Pss_Anon:", b"Pss_Shmem:", b"SwapPss:")


def _kb(fields: dict[bytes, bytes], name: bytes) -> int | None:
    value = fields.get(name)
    if value is None:
        return None
    try:
        return int(value.split()[0]) * 1024
    except (ValueError, IndexError):
        return None


def memory_of(pid: int) -> int | None:
    """Bytes of memory process `pid` holds; None if the host offers no way to read it.

    Best first: smaps_rollup's proportional anonymous + shared + swap (a page shared by a tree is
    counted once overall); else status's RssAnon + RssShmem + VmSwap (a shared page counts in each
    process); else VmRSS (gVisor: files mapped count too, a little more than is held)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    if lines:
        fields = {line.split()[0]: int(line.split()[1]) for line in lines[1:] if len(line.split()) >= 2}
        if b"Pss_Anon:" in fields:
            return sum(fields.get(name, 0) for name in _ROLLUP_FIELDS) * 1024
        return (fields.get(b"Pss:", 0) + fields.get(b"SwapPss:", 0)) * 1024  # before Linux 5.9
    status = _status(pid)
    if status.get(b"State", b"")[:1] in (b"Z", b"X"):
        return 0  # exited, not yet reaped: holds nothing
    anon = _kb(status, b"RssAnon")
    if anon is not None:
        return anon + (_kb(status, b"RssShmem") or 0) + (_kb(status, b"VmSwap") or 0)
    return _kb(status, b"VmRSS")


def memory_of_tree(pids: list[int]) -> int | None:
    """Bytes the processes `pids` hold together; None if not one that is still there could be
    measured (a process that ended meanwhile holds nothing)."""
    total, unmeasured = 0, 0
    for pid in pids:
        used = memory_of(pid)
        if used is not None:
            total += used
        elif not PROC or os.path.exists(f"/proc/{pid}"):
            unmeasured += 1
    return None if unmeasured and not total else total


def deleted_files_held(pids: list[int]) -> list[os.stat_result]:
    """The stat of every file that `pids` hold open and that has been removed (it still takes disk)."""
    found = []
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}").endswith(" (deleted)"):
                    found.append(os.stat(f"/proc/{pid}/fd/{fd}"))
            except OSError:
                continue
    return found


def path_of_fd(fd: int) -> str | None:
    """The path an open descriptor of this process refers to; None where the host cannot tell."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        pass
    if _fcntl is not None and hasattr(_fcntl, "F_GETPATH"):  # macOS
        try:
            return os.fsdecode(_fcntl.fcntl(fd, _fcntl.F_GETPATH, bytes(1024)).rstrip(b"\0"))
        except OSError:
            return None
    return None


# -- file locks -------------------------------------------------------------------------------


def try_lock(fd: int) -> bool:
    """Take an exclusive lock on fd's file without waiting (the kernel drops it when every holder
    has exited); False if another process holds it. Where the host has no such locks (no fcntl),
    True: locking is off (see guards_off)."""
    if _fcntl is not None:
        try:
            _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError:  # a file system without flock (some network mounts): locking is off there
            return True
        return True
    try:
        import msvcrt  # Windows: a byte-range lock on the first byte

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
    except ImportError:
        return True
    except OSError:
        return False
    return True


def lock_holder(fd: int) -> str | None:
    """ "1234 (jaxstate-tutor watch)": who holds the flock on fd's file, from /proc/locks (Linux); else None."""
    try:
        inode = os.fstat(fd).st_ino
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (a waiter's line starts with "->")
        if "->" in fields or len(fields) < 6 or fields[1] != "FLOCK" or not fields[5].endswith(f":{inode}"):
            continue
        pid = fields[4]
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
        except OSError:
            return pid
        shown = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv[:4]))
        return f"{pid} ({shown})" if shown else pid
    return None


# -- bubblewrap -------------------------------------------------------------------------------

# Where the kernel says no to user namespaces for an ordinary user: the sysctl, and the value that means off.
_USERNS_OFF = (
    ("/proc/sys/kernel/unprivileged_userns_clone", "0"),  # Debian's and Ubuntu's switch
    ("/proc/sys/user/max_user_namespaces", "0"),
    ("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1"),  # Ubuntu 24.04, unless bwrap has a profile
)


# Read by the dynamic loader and Python's start-up; nothing of any person's.
_BWRAP_ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/nsswitch.conf")
_TOP_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # merged-/usr links, or folders


def bwrap_system(accelerator: bool) -> list[str]:
    """bubblewrap's arguments for the system's own parts, as this host lays them out: /usr read-only
    and the top folders that are links into it (merged /usr) or folders of their own, the few files
    of /etc the loader reads, a fresh /proc (the run's PID namespace alone), a fresh /dev (with an
    accelerator, the host's /dev and /sys: the chip's device files and its driver's view), a tmpfs /tmp."""
    args: list[str] = []
    for top in _TOP_LINKS:
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--ro-bind", "/usr", "/usr"]
    for path in _BWRAP_ETC:
        args += ["--ro-bind-try", path, path]
    args += ["--dev-bind", "/dev", "/dev", "--ro-bind", "/sys", "/sys"] if accelerator else ["--dev", "/dev"]
    return [*args, "--proc", "/proc", "--tmpfs", "/tmp"]


def find_bwrap() -> str | None:
    """bubblewrap's path on PATH, or None."""
    import shutil

    return shutil.which("bwrap")


def userns_off() -> str | None:
    """The sysctl that turns user namespaces off for this user ("name = value"), or None: root needs none."""
    if os.geteuid() == 0:
        return None
    for path, off in _USERNS_OFF:
        try:
            with open(path) as f:
                if f.read().strip() == off:
                    return f"{path[len('/proc/sys/') :].replace('/', '.')} = {off}"
        except OSError:
            continue
    return None


def bwrap_usable(prefix: list[str], timeout: float = 30.0) -> tuple[str, str]:
    """Whether bubblewrap runs here with `prefix` (its argv up to the command, ending in "--"): it is
    tried once with `python -c pass`, as a run would start. ("", "") if it ran; else why: "missing"
    (not on PATH), "userns" (user namespaces are off: the sysctl), or "fails" (it ran and failed: its
    first words; in a container without the rights to make namespaces, or under gVisor)."""
    if not prefix or not os.path.exists(prefix[0]):
        return "missing", ""
    try:
        out = subprocess.run(
            [*prefix, sys.executable, "-I", "-S", "-c", "pass"],
            capture_output=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return "fails", str(exc)
    if out.returncode == 0:
        return "", ""
    said = out.stderr.decode(errors="replace").strip().splitlines()
    first = said[0] if said else f"exit status {out.returncode}"
    off = userns_off()
    if off is not None:
        return "userns", off
    return "fails", first


# -- what is off ------------------------------------------------------------------------------


SECCOMP_ARCHES = ("x86_64", "aarch64")  # those tutor.child.seccomp_policy has call numbers for


def seccomp_filters() -> bool:
    """Whether the kernel takes the seccomp filters of tutor.child.seccomp_policy: Linux on an
    architecture it knows (not macOS, Windows, or another CPU)."""
    import platform

    return sys.platform.startswith("linux") and platform.machine() in SECCOMP_ARCHES


def guards_off() -> list[str]:
    """The guards this host cannot give, as keys (see GUARD_TEXT): empty on Linux with /proc."""
    off = []
    if not PROC:
        off += ["processes", "memory", "disk-open"]
        if IS_MACOS or IS_WINDOWS or not _parents_from_ps():
            off.append("tree")
    elif memory_of(os.getpid()) is None:
        off.append("memory")
    if not sys.platform.startswith("linux"):
        off.append("subreaper")
    if not LOCKS:
        off.append("locks")
    if not fork_after_jax_is_safe():
        off.append("fork")
    if not seccomp_filters():
        off.append("confinement")
    abi = landlock_abi()
    if abi == 0:
        off.append("kernel-fence")
    elif abi < LANDLOCK_NET_ABI:
        off.append("network")
    return off


# What each key of guards_off() means for the learner, en / zh.
GUARD_TEXT = {
    "processes": (
        "no limit on processes and threads (the host has no /proc to count them)",
        "不限制进程和线程数（本系统没有 /proc 可供计数）",
    ),
    "memory": (
        "memory limit not enforced beyond the per-process limit (the host offers no way to measure a process's memory)",
        "除单进程上限外不限制内存（本系统无法测量进程占用的内存）",
    ),
    "disk-open": (
        "removed files a run still holds open are not counted against its disk limit",
        "运行中已删除但仍打开的文件不计入磁盘上限",
    ),
    "tree": (
        "processes a check starts in a session of their own may outlive it (the host cannot list them)",
        "检查启动的、位于独立会话中的进程可能在检查结束后继续运行（本系统无法列出它们）",
    ),
    "subreaper": (
        "processes a check starts and detaches are not adopted by its guard (no subreaper on this system)",
        "检查启动并脱离的进程不会被守护进程收养（本系统没有 subreaper）",
    ),
    "locks": (
        "two tutors on one home are not kept apart (no file locks on this system): run one at a time",
        "同一个主目录上的两个教程不会互相排斥（本系统没有文件锁）：请一次只运行一个",
    ),
    "confinement": (
        "a check's code may open network connections from C or a program it starts, change other "
        "processes' priority or CPUs, make IPC objects that outlive it and leave its process group "
        "(no seccomp on this system); Python's own sockets are still refused",
        "检查代码可以通过 C 或它启动的程序建立网络连接、修改其他进程的优先级或 CPU、创建比它存活更久的 IPC "
        "对象、离开它的进程组（本系统没有 seccomp）；Python 自己的套接字仍会被拒绝",
    ),
    "fork": (
        "each worker starts a fresh Python (forking after importing JAX is unsafe here), so a check starts slower",
        "每个工作进程都重新启动 Python（在这里导入 JAX 后 fork 并不安全），检查启动会慢一些",
    ),
    "kernel-fence": (
        "what a check's code may read, write and reach on the network is held by Python's audit hook alone "
        "(no Landlock in this kernel), which therefore refuses starting programs and calling C outright",
        "检查代码能读、能写、能访问的网络只由 Python 的审计钩子限制（本内核没有 Landlock），"
        "因此它直接拒绝启动程序和调用 C 函数",
    ),
    "network": (
        "a check's TCP connections are refused by Python's audit hook alone, not by the kernel "
        "(Landlock here is older than ABI 4, Linux 6.7)",
        "检查代码的 TCP 连接只由 Python 的审计钩子拒绝，内核不拒绝（这里的 Landlock 早于 ABI 4，即 Linux 6.7）",
    ),
}


def guards_off_notice() -> tuple[str, str] | None:
    """One sentence (en, zh) naming every guard this host cannot give; None where all are on."""
    off = guards_off()
    if not off:
        return None
    return (
        "note: on this system some of the tutor's guards are off: " + "; ".join(GUARD_TEXT[k][0] for k in off) + ".",
        "注意：在本系统上，本教程的部分防护未启用：" + "；".join(GUARD_TEXT[k][1] for k in off) + "。",
    )
