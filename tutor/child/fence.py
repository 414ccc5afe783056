"""What a run may see and change (issue 50: one policy for every run of code that is not the
learner's own script: exercise checks, lesson cells, `grade` runs, a course's checks with their
import-time code). Doctor runs (the learner's own script) get the signal part alone.

- Reads: only its run folder (its TMPDIR is inside: no other temp folder is readable), the
  compilation cache, the course's lessons/ (never solutions/ or tests/cases/), the Python
  installation and the system folders Python, NumPy and JAX read, and of /proc only its own entries
  and the machine's (tutor.child.sight has the list). No tutor home, no other run, no other
  process's environ, cmdline or fds.
- Writes: only its run folder and the compilation cache (and of /dev only the few devices `devices`
  names: null, zero, full, random, urandom, accelerators).
- Network and sharing: no TCP (bind or connect) and no abstract Unix socket outside the run
  (Landlock); no socket() at all where seccomp is, only socketpair() (tutor.child.seccomp_policy);
  no POSIX shared memory or named semaphore (/dev/shm is out of reach). tutor.child.sharing names
  these refusals in the learner's words, Python's own calls on every host.
- Environment: an allow-list, set by the parent (tutor.sandbox.worker_process.run_environment).

Two layers, set in the worker after the job is read and before learner code runs:

- Landlock, where the kernel has it (Linux 5.13+, measured here: ABI 7): reads (ABI 1), writes,
  removals, renames and creations outside those folders are refused by the kernel to this process
  and everything it starts, whatever the call (ctypes, a `cat` or `rm` subprocess); TCP from ABI 4
  (Linux 6.7), abstract Unix sockets and signals from ABI 6 (Linux 6.12). The read rules are
  computed once per fork server (tutor.child.sight.base), so each worker adds only its folders;
- an audit hook (cannot be removed once added) refuses the same from Python calls with a message
  in the learner's words naming the rule ("a check's run may read only its own folder, the course
  and Python, not X"), on every host. Every call that opens, lists or changes a path is covered
  (open, os.open, io.open_code, listdir, scandir; links, symlinks, owners, times, extended
  attributes, an sqlite file, paths relative to a `dir_fd`). Where Landlock is missing (gVisor, so
  the TPU VM; macOS; Linux before 5.13) it is the only fence, so it also refuses what it cannot see
  through: starting programs and calling C through ctypes. It is cheap: a folder found readable,
  free of symlinks and not writable by the run is remembered, so each further file in it (an
  import) costs one lstat.

Signals stay inside the run (issue 40): learner code may signal itself and what it started, never
the tutor above it (a SIGSTOP to the `check` process, or to the reaper, would stop it for good).
Landlock's signal scope (ABI 6, Linux 6.12) refuses it in the kernel, whatever the call (ctypes,
`kill` in a subprocess, a pidfd); where the kernel has no such scope, a seccomp filter refuses
signals to the processes above by pid (tutor.child.seccomp_policy); the audit hook refuses `os.kill`
/ `os.killpg` outside the run's own processes with a message, on every host. Doctor runs (the
learner's own script, which may write where it likes) get the signal part and nothing else
(`install_signal_guard`).

Checks and cells also get the seccomp confinement filter (tutor.child.seccomp_policy.confine):
no socket but AF_UNIX, no scheduling change of another process, no SysV IPC or message queue, no
leaving the worker's process group. It does not depend on the run, so a worker sets it while it
waits for its job, before it says ready (syncing it to every thread of a started JAX took 87-126
ms under gVisor); `install` finds it set.

No terminal is writable (/dev/tty, /dev/pts/*, consoles): the tutor's own screen is one, and a
program that drew on it could show a green PASS over a failure, set the window title or write the
clipboard (OSC 52). Where Landlock has device ioctls (ABI 5) they are refused on terminals too
(TIOCSTI would type into the tutor).
"""

from __future__ import annotations

import ctypes
import errno
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable
from typing import NoReturn

from tutor import host
from tutor.child import seccomp_policy, sharing
from tutor.child.sight import Sight
from tutor.child.sight import beneath as _beneath

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446  # the same on every architecture
_PR_SET_NO_NEW_PRIVS = 38
_RULE_PATH_BENEATH = 1
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR, _REMOVE_DIR, _REMOVE_FILE = (1 << b for b in range(6))
_READ = _EXECUTE | _READ_FILE | _READ_DIR  # what a rule of the read list grants (ABI 1)
_FILE_RIGHTS = 0  # set below: what a rule on a file (not a folder) may grant
_BIND_TCP, _CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4: handled with no rule, no TCP at all
_SCOPE_ABSTRACT_UNIX = 1 << 0  # ABI 6: no abstract Unix socket outside the domain
_MAKE_ALL = sum(1 << b for b in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3, 5
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV
_SCOPE_SIGNAL = 1 << 1  # ABI 6 (LANDLOCK_SCOPE_SIGNAL): no signal to a process outside the domain
# Terminals in /dev by name, and by device major (tty, console/ptmx, pts): never writable by a check.
_TERMINAL_NAMES = ("tty", "pts", "console", "ptmx", "pty", "vcs", "hvc")
_TERMINAL_MAJORS = {2, 3, 4, 5, *range(136, 144)}
# Folders of /dev other processes of the user keep memory in (POSIX shared memory, queues): never read.
_SHARED_DEV = ("/dev/shm", "/dev/mqueue")
# What of /dev a run may open at all (issue 50's third red team: every device node was open to it, so a
# check as root opened /dev/kmsg (the kernel's log), /dev/loop0 (a disk) and /dev/fuse for writing, and
# on a machine whose disk is a device root may open, the disk itself, past every read rule): the bit
# buckets and sources of randomness, and the accelerators JAX drives (GPU: nvidia*, ROCm: kfd, dri;
# TPU: accel*, vfio).
_DEVICES = ("null", "zero", "full", "random", "urandom")
_ACCELERATORS = ("nvidia", "accel", "vfio", "kfd", "dri")

_allowed: tuple[str, ...] = ()
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# Each audit event that changes paths: the positions of those paths in its arguments, and of the
# dir_fd each is relative to (None: it takes none).
_CHANGES: dict[str, tuple[tuple[int, int | None], ...]] = {
    "os.remove": ((0, 1),),
    "os.rmdir": ((0, 1),),
    "os.mkdir": ((0, 2),),
    "os.chmod": ((0, 2),),
    "os.chown": ((0, 3),),
    "os.utime": ((0, 3),),
    "os.rename": ((0, 2), (1, 3)),
    "os.replace": ((0, 2), (1, 3)),
    "os.link": ((0, 2), (1, 3)),  # a hard link inside to a file outside would let writes reach it
    "os.symlink": ((1, 2),),
    "os.truncate": ((0, None),),
    "os.setxattr": ((0, None),),
    "os.removexattr": ((0, None),),
    "os.chflags": ((0, None),),
    "os.lchflags": ((0, None),),
    "shutil.rmtree": ((0, 1),),
    "shutil.chown": ((0, None),),
    "sqlite3.connect": ((0, None),),  # sqlite opens its file in C, past the "open" hook
}
# What only Landlock can fence: without it, these are refused outright.
_UNSEEN = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "ctypes.dlopen", "ctypes.dlsym"}
_strict = False  # no Landlock: refuse _UNSEEN too
# Modules that call C without ctypes' audit events (cffi's dlopen), or open files in C with no "open"
# event (_posixshmem: POSIX shared memory in /dev/shm, which outlives the run): refused like
# ctypes.dlopen without Landlock
# (_multiprocessing: a named POSIX semaphore, /dev/shm/sem.*, made by sem_open in C, outlived the run
# under gVisor: issue 50's third red team)
_SHARED_MEMORY = ("_posixshmem", "_multiprocessing")
_FFI = frozenset({"cffi", "_cffi_backend", "llvmlite", *_SHARED_MEMORY})
if host.landlock_abi():
    # Where Landlock refuses /dev/shm, their calls are named (tutor.child.sharing): imported here,
    # once in the fork server, so a run pays nothing for it. Without Landlock their import is refused.
    for _module in _SHARED_MEMORY:
        try:
            __import__(_module)
        except ImportError:
            pass
# Landlock binds the calling thread and what it starts from then on, not the threads already alive
# (JAX's runtime pools, started with the backend before a job comes): Python that runs there (a
# callback) may not start programs, fork, or call C, which would act outside the kernel's fence.
_OUTSIDE_THE_DOMAIN = _UNSEEN | {"os.fork", "os.forkpty", "ctypes.call_function"}
_unfenced_threads: frozenset[int] = frozenset()
# What the run may read besides its folders (tutor.child.sight); None: no read fence (the unit tests of writes alone).
_sight: Sight | None = None
# Folders known readable, symlink-free and not writable by the run: a file in one is read with one
# lstat, not a realpath (imports open many files).
_readable_folders: set[str] = set()
# The processes above the run when the fence was set, and their process groups.
_above: frozenset[int] = frozenset()
_kernel_reads = False  # Landlock fences reads: /proc of the run's own children is hidden from the hook too
_kernel_scope = False  # Landlock's signal scope holds
_busy = threading.local()  # inside the hook: its own reads of /proc are the tutor's, not the run's
# Audit events that read a folder's listing: the position of the path.
_LISTS = {"os.listdir": 0, "os.scandir": 0}  # glob and os.walk list through scandir
_root = 0  # the process that installed the fence (the worker): it and all below it may be signalled


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


def _attr_size(abi: int) -> int:
    """The size of landlock_ruleset_attr this ABI knows: fs (1), net (4), scoped (6)."""
    return 24 if abi >= 6 else 16 if abi >= 4 else 8


def landlock(roots: list[str], scope: bool = True, sight: Sight | None = None) -> int:
    """Allow writes only beneath `roots`, for good; in /dev only to the few devices `devices` names
    (/dev/null, an accelerator...), no new files (/dev/shm is memory the memory limit does not count);
    where the ABI has it (6), no signal to a process outside (the tutor). With `sight` (tutor.child.sight),
    reads too: only beneath `roots` and `sight.read` (and those devices); no TCP
    (ABI 4) and no abstract Unix socket outside (ABI 6).
    Returns the Landlock ABI used, 0 if unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        abi = host.landlock_abi()
        if abi < 1:
            return 0
        handled = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_ALL
        handled |= (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0) | (_IOCTL_DEV if abi >= 5 else 0)
        reads = _READ if sight is not None else 0
        scoped = _SCOPE_SIGNAL if scope and abi >= host.LANDLOCK_SIGNAL_SCOPE_ABI else 0
        if sight is not None and abi >= host.LANDLOCK_SIGNAL_SCOPE_ABI:
            scoped |= _SCOPE_ABSTRACT_UNIX
        net = _BIND_TCP | _CONNECT_TCP if sight is not None and abi >= host.LANDLOCK_NET_ABI else 0
        attr = _RulesetAttr(handled | reads, net, scoped)
        ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), _attr_size(abi), 0)
        if ruleset < 0:
            return 0
        in_dev = handled & (_WRITE_FILE | _TRUNCATE | _IOCTL_DEV)
        rules = [(r, handled | reads) for r in roots]
        rules += [(d, in_dev | reads & _READ_FILE) for d in devices()]
        if sight is not None:
            rules += [("/dev", _READ_DIR), *((r, _READ if whole else _READ_DIR) for r, whole in sight.rules())]
        try:
            for root, allowed in rules:
                try:
                    fd = os.open(root, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue
                try:
                    if not stat.S_ISDIR(os.fstat(fd).st_mode):
                        allowed &= _FILE_RIGHTS  # what a rule on a file may grant
                    rule = _PathBeneath(allowed, fd)
                    libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
                finally:
                    os.close(fd)
            if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                return 0
            if libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
                return 0
        finally:
            os.close(ruleset)
        return abi
    except (OSError, AttributeError):
        return 0  # not Linux


def scope_signals() -> int:
    """Landlock's signal scope alone (no file rule): this process and all it starts may signal only
    one another. Returns the ABI used, 0 where the kernel has no signal scope."""
    abi = host.landlock_abi()
    if abi < host.LANDLOCK_SIGNAL_SCOPE_ABI:
        return 0
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        attr = _RulesetAttr(0, 0, _SCOPE_SIGNAL)
        ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), _attr_size(abi), 0)
        if ruleset < 0:
            return 0
        try:
            if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
                return 0
        finally:
            os.close(ruleset)
        return abi
    except (OSError, AttributeError):
        return 0


def devices() -> list[str]:
    """What in /dev a check may open (read and write): the few devices _DEVICES and _ACCELERATORS
    name, never a terminal, a link (/dev/stdout is the worker's own pipe, reached as that) or the
    folders where other processes of the account keep memory (/dev/shm, /dev/mqueue: a check
    overwrote and truncated to 1 GiB another process's shared memory segment there, issue 50's red
    team on 944540f)."""
    try:
        entries = list(os.scandir("/dev"))
    except OSError:
        return []
    return [e.path for e in entries if not e.is_symlink() and _usable_device(e.path)]


def _usable_device(real: str) -> bool:
    """Whether a path in /dev (resolved) is one a run may open: a bit bucket, randomness, an accelerator."""
    first = real[len("/dev/") :].split(os.sep)[0]
    usable = first in _DEVICES or first.startswith(_ACCELERATORS)
    return usable and not is_terminal(real) and not _shared(real)


def _shared(real: str) -> bool:
    """A path in /dev/shm or /dev/mqueue (or one of them)."""
    return any(real == d or real.startswith(d + os.sep) for d in _SHARED_DEV)


def is_terminal(path: str) -> bool:
    """A terminal device in /dev (by its name, or a character device's major number)."""
    name = path[len("/dev/") :] if path.startswith("/dev/") else None
    if name is None:
        return False
    if name.startswith(_TERMINAL_NAMES):
        return True
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) in _TERMINAL_MAJORS


def _inside(path, dir_fd=None) -> bool:
    if isinstance(path, int):
        return True  # an open descriptor: whatever it is, it was opened through this hook or before
    try:
        name = os.fsdecode(path)
        if name in (":memory:", ""):
            return True  # sqlite's memory database
        if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(name):  # < 0: the current folder
            folder = host.path_of_fd(dir_fd)
            if folder is None:
                return False  # a dir_fd that cannot be read back: not known to be inside
            name = os.path.join(folder, name)
        real = os.path.realpath(name)
    except (TypeError, ValueError):
        return True
    except OSError:
        return False  # a dir_fd that cannot be read back: not known to be inside
    if real.startswith("/dev/"):
        return _usable_device(real)
    return any(real == root or real.startswith(root + os.sep) for root in _allowed)


def _may_read(path, dir_fd=None) -> bool:
    """Whether the run may read `path` (a file it opens, a folder it lists): beneath its run folder,
    the cache, or the read list; /dev but its terminals."""
    if _sight is None or isinstance(path, int) or path is None:
        return True  # no read fence, or a descriptor: opened through this hook or before it
    try:
        name = os.fsdecode(path)
        if name in (":memory:", ""):
            return True
        if not os.path.isabs(name):
            folder = host.path_of_fd(dir_fd) if isinstance(dir_fd, int) else os.getcwd()
            if folder is None:
                return False
            name = os.path.join(folder, name)
        parent, leaf = os.path.split(name)
        if parent in _readable_folders and leaf not in ("", ".", "..") and not os.path.islink(name):
            return True
        real = os.path.realpath(name)
    except (TypeError, ValueError):
        return True
    except OSError:
        return False
    if real.startswith("/dev/"):
        return _usable_device(real)
    if not (_beneath(real, _allowed) or (_sight is not None and _sight.readable(real))):
        return False
    folder = os.path.dirname(real)
    if folder == parent and os.path.realpath(parent) == parent and not _beneath(folder, _allowed) and _sight:
        if not any(_beneath(h, (folder,)) for h in _sight.hidden):
            _readable_folders.add(folder)  # the run can change nothing there: it stays as it is now
    return True


def _refuse_device(shown: str) -> None:
    real = os.path.realpath(shown)
    if real.startswith("/dev/") and not is_terminal(real) and not _shared(real):
        raise PermissionError(
            errno.EACCES,
            f"a check's run may open in /dev only /dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom and "
            f"an accelerator, not {shown} / 检查运行时在 /dev 中只能打开 /dev/null、/dev/zero、/dev/full、"
            f"/dev/random、/dev/urandom 和加速器，不能打开 {shown}",
            shown,
        )


def _refuse_shared(shown: str) -> None:
    """/dev/shm or /dev/mqueue: the rule on shared memory, not on folders."""
    if _shared(os.path.realpath(shown)):
        sharing.refuse_shared_memory(f"open({shown!r})")


def _refuse_read(path) -> None:
    shown = os.fsdecode(path) if isinstance(path, (str, bytes)) else str(path)
    _refuse_device(shown)
    _refuse_shared(shown)
    raise PermissionError(
        errno.EACCES,
        "a check's run may read only its own folder, the course and Python, not "
        f"{shown} / 检查运行时只能读取它自己的文件夹、课程和 Python，不能读取 {shown}",
        shown,
    )


def _refuse(path) -> None:
    shown = os.fsdecode(path) if isinstance(path, (str, bytes)) else str(path)
    _refuse_device(shown)
    _refuse_shared(shown)
    if is_terminal(os.path.realpath(shown)):
        raise PermissionError(
            errno.EACCES,
            f"a check's run may not write to a terminal ({shown}): the tutor's own screen is one / "
            f"检查运行时不能写入终端（{shown}）：检查程序自己的屏幕就是一个终端",
            shown,
        )
    raise PermissionError(
        errno.EACCES,
        "a check's run may only change its own folder (the current one), not "
        f"{shown} / 检查运行时只能修改它自己的文件夹（当前文件夹），不能修改 {shown}",
        shown,
    )


def _refuse_unfenced_thread(event: str) -> None:
    raise PermissionError(
        errno.EACCES,
        f"{event}: this code runs on one of JAX's own threads (a callback), which Landlock's fence does "
        f"not cover; there a check's run may not start programs or call C / {event}：这段代码运行在 JAX "
        "自己的线程上（回调），Landlock 围栏管不到那里；在那里检查运行时不能启动程序或调用 C 函数",
    )


def _climbs(path) -> bool:
    """A relative path with a `..` part: os.open's "open" event is not told the dir_fd such a path is
    opened from, so where it lands cannot be known (from a folder's descriptor it climbs out of what
    the hook resolved against the current folder). Names without `..` stay beneath the descriptor's
    folder, which was itself opened through the hook (rmtree and fwalk open only such names)."""
    if not isinstance(path, (str, bytes)):
        return False
    name = os.fsdecode(path)
    return not os.path.isabs(name) and ".." in name.split(os.sep)


def _refuse_climb(path) -> None:
    shown = os.fsdecode(path)
    raise PermissionError(
        errno.EACCES,
        f"os.open({shown!r}): this system has no Landlock, and the tutor cannot tell which folder a relative "
        f"path with '..' is opened from (a dir_fd); give the full path / os.open({shown!r})：本系统没有 "
        "Landlock，教程无法知道含有 '..' 的相对路径是从哪个文件夹（dir_fd）打开的；请写出完整路径",
        shown,
    )


def _check_link_target(target, link, dir_fd) -> None:
    """Without Landlock: a symlink made in the run may point only where the run may read (one to a
    home, opened through a folder's descriptor, would be followed past the hook)."""
    if not isinstance(target, (str, bytes)) or not isinstance(link, (str, bytes)):
        return
    name, to = os.fsdecode(link), os.fsdecode(target)
    if not os.path.isabs(to):
        folder = os.path.dirname(name)
        if not os.path.isabs(name):
            base = host.path_of_fd(dir_fd) if isinstance(dir_fd, int) and dir_fd >= 0 else os.getcwd()
            folder = os.path.join(base or "/nonexistent", folder)
        to = os.path.join(folder, to)
    if not _may_read(to):
        _refuse_read(target)


def _refuse_unseen(event: str) -> NoReturn:
    raise PermissionError(
        errno.EACCES,
        f"{event}: this system has no Landlock, so the tutor cannot fence in what it would do; a "
        f"check's run may not start programs or call C / {event}：本系统没有 Landlock，检查程序无法"
        "限制它的行为；检查运行时不能启动程序或调用 C 函数",
    )


def _ours(target: int, group: bool) -> bool:
    """Whether a signal to `target` (a process, or a process group) reaches only the run's own
    processes: the caller's own group (0), the worker, a process below it, or a group one of those
    belongs to. Never -1 (kill(-1): every process the user may signal)."""
    if target == 0:
        return True
    if target == -1 and not group:
        return False
    wanted, group = abs(target), group or target < 0
    ours = [_root, os.getpid(), *host.descendants(_root)]
    if wanted in ours:
        return True  # a group whose id is one of ours is led by it (an id is not reused while its group lives)
    if not group and _own_child(wanted):
        return True
    for pid in ours if group else ():
        try:
            if os.getpgid(pid) == wanted:
                return True
        except OSError:
            continue
    # Landlock's read rules hide the /proc of the run's own processes below its children from this
    # hook: the kernel's signal scope judges those (the processes above are known from before).
    return _kernel_reads and _kernel_scope and wanted not in _above


def _groups_of(pids: frozenset[int]) -> frozenset[int]:
    groups = set()
    for pid in pids:
        try:
            groups.add(os.getpgid(pid))
        except OSError:  # gone, or another pid namespace's
            continue
    return frozenset(groups)


def _own_child(pid: int) -> bool:
    """Whether `pid` is a child of this process (no /proc needed: the kernel's own list)."""
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except (ChildProcessError, OSError, AttributeError):
        return False
    return True


def _refuse_signal(call: str, target: int, sig: int, group: bool) -> None:
    try:
        name = signal.Signals(sig).name
    except ValueError:
        name = str(sig)
    if target == -1 and not group:
        who, who_zh = "every process you may signal (-1)", "你能发信号的所有进程（-1）"
    elif group or target < 0:
        who, who_zh = f"process group {abs(target)}", f"进程组 {abs(target)}"
    else:
        who, who_zh = f"process {target}", f"进程 {target}"
    raise PermissionError(
        errno.EPERM,
        f"{call}({target}, {name}): code the tutor runs may signal only itself and the processes it started, "
        f"not {who}, which is outside them (it may be the tutor itself, and a stop or a kill there breaks the "
        f"run) / {call}({target}, {name})：本教程运行的代码只能向它自己和它启动的进程发信号，不能发给{who_zh}："
        "它不在其中（可能就是本教程自身，在那里暂停或终止进程会破坏这次运行）",
    )


def _signal_hook(event: str, args: tuple) -> None:
    if event in ("os.kill", "os.killpg") and len(args) == 2:
        target, sig = args
        group = event == "os.killpg"
        if isinstance(target, int) and not _ours(target, group):
            _refuse_signal(event, target, sig, group)


def _hook(event: str, args: tuple) -> None:
    # Every audit event of the run comes here (sys._getframe, imports...): the event is tested
    # first, so the common ones cost one comparison each.
    if event in ("os.kill", "os.killpg"):
        _busy.on = True
        try:
            _signal_hook(event, args)
        finally:
            _busy.on = False
    elif event == "open":
        path, mode, flags = args
        if path is None or isinstance(path, int) or getattr(_busy, "on", False):
            return  # a descriptor (opened through this hook or before it), or the hook's own read
        if _strict and mode is None and _climbs(path):
            _refuse_climb(path)
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (flags & _WRITE_FLAGS)
        # Without Landlock, os.open (mode None) of a folder outside is refused too: it would be a
        # dir_fd, and "open" is not told the dir_fd its relative paths are opened from.
        if (writes or (_strict and mode is None and os.path.isdir(path))) and not _inside(path):
            _refuse(path)
        if not writes and not _may_read(path):
            _refuse_read(path)
    elif event in _LISTS and not getattr(_busy, "on", False):
        path = args[_LISTS[event]] if args else None
        if isinstance(path, (str, bytes, os.PathLike)) and not _may_read(path if path else "."):
            _refuse_read(path)
    elif _strict and event == "sqlite3.connect":
        _refuse_unseen(event)  # sqlite opens files in C (ATTACH, VACUUM INTO) past the hook, :memory: too
    elif event in _CHANGES:
        for at, fd_at in _CHANGES[event]:
            path = args[at] if at < len(args) else None
            dir_fd = args[fd_at] if fd_at is not None and fd_at < len(args) else None
            if path is not None and not _inside(path, dir_fd):
                _refuse(path)
        if _strict and event == "os.symlink" and len(args) >= 2:
            _check_link_target(args[0], args[1], args[2] if len(args) > 2 else None)
    elif _strict and event == "import" and args and isinstance(args[0], str) and args[0].split(".")[0] in _FFI:
        if args[0] in _SHARED_MEMORY:
            sharing.refuse_shared_memory(f"import {args[0]}")
        _refuse_unseen(f"import {args[0]}")
    elif _strict and event in _UNSEEN:
        _refuse_unseen(event)
    elif event in _OUTSIDE_THE_DOMAIN and _unfenced_threads and threading.get_native_id() in _unfenced_threads:
        _refuse_unfenced_thread(event)


def install(roots: list[str], kernel: bool = True, scope: bool = True, sight: Sight | None = None) -> int:
    """Fence this process in: writes only beneath `roots` (and /dev but its terminals), signals only
    to its own processes; with `sight` (tutor.child.sight.for_run), reads only beneath `roots` and
    the sight's list, and no TCP. Returns the Landlock ABI (0: the audit hook alone, which is then
    strict). `kernel=False` leaves the kernel's part out (to test the hook alone, as on gVisor);
    `scope=False` leaves out Landlock's signal scope, as a kernel before 6.12 would (the seccomp
    filter takes its place)."""
    global _allowed, _strict, _root, _sight, _above, _kernel_reads, _kernel_scope
    roots = [os.path.realpath(r) for r in roots if r]
    _allowed = tuple(roots)
    _root = os.getpid()
    _above = frozenset(host.ancestors(_root))  # read now: the read fence hides them next
    _above |= _groups_of(_above)  # a group of theirs may be led by a process not above (a sibling, gone)
    global _unfenced_threads
    others = host.thread_ids() - {threading.get_native_id()}  # alive before the fence: outside its domain
    abi = landlock(roots, scope, sight) if kernel else 0  # first: it calls C through ctypes itself
    _unfenced_threads = frozenset(others) if abi else frozenset()
    if kernel and not (scope and abi >= host.LANDLOCK_SIGNAL_SCOPE_ABI):
        seccomp_policy.install()
    seccomp_policy.confine(kernel)  # sockets, others' scheduling, IPC, leaving the group: refused in the kernel
    _strict = abi == 0
    _close_silent_calls(_strict)
    sharing.name_shared_memory(kernel=not _strict)
    _kernel_reads = bool(abi) and sight is not None
    _kernel_scope = scope and abi >= host.LANDLOCK_SIGNAL_SCOPE_ABI
    _sight = sight
    sys.addaudithook(_hook)
    return abi


def _refuse_node(call: str) -> NoReturn:
    raise PermissionError(
        errno.EACCES,
        f"{call}: this system has no Landlock, and the tutor cannot see where a FIFO or device node is made; "
        f"a check's run may not make one / {call}：本系统没有 Landlock，本教程看不到命名管道或设备文件建在哪里；"
        "检查运行时不能创建它们",
    )


def _refuse_silent(call: str) -> Callable[..., NoReturn]:
    refuse = _refuse_node if call in ("os.mkfifo", "os.mknod") else _refuse_unseen

    def refused(*args: object, **kwargs: object) -> NoReturn:
        refuse(call)

    refused.__name__ = call.rsplit(".", 1)[-1]
    return refused


def _named_outside(make: Callable[..., None]) -> Callable[..., None]:
    """`make` (os.mkfifo / os.mknod) refused outside the run's folders with the fence's message; the
    kernel (Landlock) holds the rule, this only names it (it said a bare "Permission denied")."""

    def made(path: object, *args: object, dir_fd: int | None = None, **kwargs: object) -> None:
        if not _inside(path, dir_fd):
            _refuse(path)
        make(path, *args, dir_fd=dir_fd, **kwargs)

    made.__name__ = make.__name__
    return made


def _close_silent_calls(strict: bool) -> None:
    """Calls into C that raise no audit event, so the hook never sees them (issue 50's third red
    team, under gVisor): `subprocess._fork_exec` (what Popen calls after its event) started
    `cat` on another home's progress.json, and os.mkfifo / os.mknod made a FIFO and a file in a
    folder outside. Without Landlock they are replaced by a refusal that names the rule (the
    originals kept nowhere a run can reach: a replacement that held them would hand them back);
    with Landlock the kernel refuses them and mkfifo / mknod outside are named."""
    import _posixsubprocess
    import posix

    modules: list[object] = [os, posix]
    if strict:
        fork_exec = _refuse_silent("subprocess._fork_exec")
        _posixsubprocess.fork_exec = fork_exec  # type: ignore[attr-defined]
        if "subprocess" in sys.modules:
            sys.modules["subprocess"]._fork_exec = fork_exec  # type: ignore[attr-defined]
        for name in ("mkfifo", "mknod"):
            for module in modules:
                if hasattr(module, name):
                    setattr(module, name, _refuse_silent(f"os.{name}"))
        return
    for name in ("mkfifo", "mknod"):
        original = getattr(posix, name, None)
        if original is not None:
            for module in modules:
                setattr(module, name, _named_outside(original))


def install_signal_guard(kernel: bool = True, scope: bool = True) -> int:
    """Only the signal part (a doctor run): signals from this process and all it starts stay among
    them. Returns the Landlock ABI whose signal scope holds it, 0 where a seccomp filter (refusing
    the processes above by pid) and the audit hook do."""
    global _root
    _root = os.getpid()
    abi = scope_signals() if kernel and scope else 0
    if kernel and not abi:
        seccomp_policy.install()
    sys.addaudithook(_signal_hook)
    return abi
