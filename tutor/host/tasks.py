"""A bound on tasks the kernel holds: a `pids` cgroup, or RLIMIT_NPROC (in a user namespace of its
own where it can), and the capabilities dropped.

Part of tutor.host (what differs between hosts): import it as `from tutor import host`."""

from __future__ import annotations

import os
import sys

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
