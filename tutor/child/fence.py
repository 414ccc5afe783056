"""What a check's run may change: its own run folder (and the compilation cache, and /dev), nothing else.

Two layers, set in the worker after the job is read and before learner code runs (exercise and
cell jobs only: a doctor run is the learner's own script, which may write where it likes):

- Landlock (Linux 5.13+, measured here: ABI 7): the kernel refuses every write, removal, rename
  or creation outside those folders, to this process and everything it starts, whatever the call
  (ctypes, a subprocess `rm`). Where it is missing the worker goes on without it;
- an audit hook (cannot be removed once added) refuses the same from Python calls with a message
  that says why, so the learner reads the reason, not only "Permission denied".
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446  # the same on every architecture
_PR_SET_NO_NEW_PRIVS = 38
_RULE_PATH_BENEATH = 1
_WRITE_FILE, _REMOVE_DIR, _REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
_MAKE_ALL = sum(1 << b for b in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER, _TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3

_allowed: tuple[str, ...] = ()
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_CHANGES = {"os.remove", "os.rename", "os.replace", "os.rmdir", "os.mkdir", "os.truncate", "shutil.rmtree", "os.chmod"}


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock(roots: list[str]) -> int:
    """Allow writes only beneath `roots`, for good; in /dev only writes to what is there (/dev/null, a
    terminal), no new files (/dev/shm is memory the memory limit does not count). Returns the Landlock
    ABI used, 0 if unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        abi = libc.syscall(_SYS_CREATE_RULESET, None, 0, 1)  # LANDLOCK_CREATE_RULESET_VERSION
        if abi < 1:
            return 0
        handled = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_ALL
        handled |= (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0)
        attr = ctypes.c_uint64(handled)
        ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0)
        if ruleset < 0:
            return 0
        try:
            for root in [*roots, "/dev"]:
                try:
                    fd = os.open(root, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue
                try:
                    allowed = handled if root != "/dev" else handled & (_WRITE_FILE | _TRUNCATE)
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


def _inside(path) -> bool:
    if isinstance(path, int):
        return True  # an open descriptor: whatever it is, it was opened through this hook or before
    try:
        real = os.path.realpath(os.fsdecode(path))
    except (TypeError, ValueError):
        return True
    return any(real == root or real.startswith(root + os.sep) for root in _allowed)


def _refuse(path) -> None:
    shown = os.fsdecode(path) if isinstance(path, (str, bytes)) else str(path)
    raise PermissionError(
        errno.EACCES,
        "a check's run may only change its own folder (the current one), not "
        f"{shown} / 检查运行时只能修改它自己的文件夹（当前文件夹），不能修改 {shown}",
        shown,
    )


def _hook(event: str, args: tuple) -> None:
    if event == "open":
        path, mode, flags = args
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (flags & _WRITE_FLAGS)
        if writes and path is not None and not _inside(path):
            _refuse(path)
    elif event in _CHANGES:
        for path in args[:2] if event in ("os.rename", "os.replace") else args[:1]:
            if path is not None and not _inside(path):
                _refuse(path)


def install(roots: list[str]) -> int:
    """Fence this process in: writes only beneath `roots` (and /dev). Returns the Landlock ABI (0: the
    audit hook alone)."""
    global _allowed
    roots = [os.path.realpath(r) for r in roots if r]
    _allowed = (*roots, "/dev")
    sys.addaudithook(_hook)
    return landlock(roots)
