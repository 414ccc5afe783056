"""Signals to the tutor refused by a seccomp filter, where Landlock cannot scope them (ABI 1-5,
Linux 5.13-6.11, the most common hosts today).

A filter sees a call's numbers, not whose process a pid is, so it refuses by value: every call
that names a target (kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_open, and
fcntl's F_SETOWN, which has the kernel send SIGIO, or any signal F_SETSIG names, to its owner) is
refused with EPERM when the target is a process above this one (the reaper, the tutor, the
shell...), one of their process groups, or -1 (every process). What cannot be checked by value is
refused outright: pidfd_send_signal (a pidfd can come from /proc), F_SETOWN_EX, FIOSETOWN /
SIOCSPGRP. Installed once, it holds for this process and all it starts (no_new_privs), C or not.

Not covered: processes beside this one (another worker, its reaper), whose pids are not known here.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys

from tutor import host

_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM = 1
# classic BPF: ld word abs, jeq k, ret k
_LD, _JEQ, _JSET, _RET = 0x20, 0x15, 0x45, 0x06
_F_SETOWN, _F_SETOWN_EX = 8, 15
_FIOSETOWN, _SIOCSPGRP = 0x8901, 0x8902

# arch: (AUDIT_ARCH, {name: number})
_ARCHES = {
    "x86_64": (
        0xC000003E,
        {
            "kill": 62,
            "tkill": 200,
            "tgkill": 234,
            "rt_sigqueueinfo": 129,
            "rt_tgsigqueueinfo": 297,
            "pidfd_open": 434,
            "pidfd_send_signal": 424,
            "fcntl": 72,
            "ioctl": 16,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "kill": 129,
            "tkill": 130,
            "tgkill": 131,
            "rt_sigqueueinfo": 138,
            "rt_tgsigqueueinfo": 240,
            "pidfd_open": 434,
            "pidfd_send_signal": 424,
            "fcntl": 25,
            "ioctl": 29,
        },
    ),
}
_X32 = 0x40000000  # x86_64's x32 calls: another numbering, refused


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def _arg(i: int) -> int:
    return 16 + 8 * i  # seccomp_data.args[i], its low 32 bits (little endian: both arches here)


def program(arch: str, protected: list[int]) -> list[tuple[int, int, int, int]]:
    """The filter, as (code, jt, jf, k): EPERM for a call naming a value in `protected` (pids, and
    negative for groups), or one that cannot be judged by value; everything else allowed. Every
    jump is short (to a return just after the values it tests): BPF jumps reach 255 at most."""
    audit, nr = _ARCHES[arch]
    values = sorted({v & 0xFFFFFFFF for v in protected})[:200]
    allow, deny = (_RET, 0, 0, _RET_ALLOW), (_RET, 0, 0, _RET_ERRNO | _EPERM)
    load_nr = (_LD, 0, 0, 0)

    def refuse_values(at: int) -> list[tuple[int, int, int, int]]:
        """Load argument `at`; EPERM if it is one of `values`, else allow."""
        n = len(values)
        return [(_LD, 0, 0, _arg(at)), *((_JEQ, n - m, 0, v) for m, v in enumerate(values)), allow, deny]

    def when(call: str, body: list) -> list:
        """`body` for the call `call`; other calls go on past it (the number loaded again)."""
        return [(_JEQ, 0, len(body), nr[call]), *body, load_nr]

    ops = [(_LD, 0, 0, 4), (_JEQ, 1, 0, audit), allow, load_nr]
    if arch == "x86_64":
        ops += [(_JSET, 0, 1, _X32), deny]
    for call in ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open"):
        ops += when(call, refuse_values(0))
    ops += when("pidfd_send_signal", [deny])
    # fcntl: F_SETOWN_EX refused; F_SETOWN refused for a protected owner; other commands allowed
    ops += when(
        "fcntl",
        [(_LD, 0, 0, _arg(1)), (_JEQ, 0, 1, _F_SETOWN_EX), deny, (_JEQ, 1, 0, _F_SETOWN), allow, *refuse_values(2)],
    )
    ops += when("ioctl", [(_LD, 0, 0, _arg(1)), (_JEQ, 1, 0, _FIOSETOWN), (_JEQ, 0, 1, _SIOCSPGRP), deny, allow])
    ops.append(allow)
    return ops


def protected_targets() -> list[int]:
    """Every process above this one (the reaper, the tutor, and on up to init, init excluded),
    their process groups (as -group), and -1."""
    found: list[int] = [-1]
    for pid in host.ancestors(os.getpid()):
        found.append(pid)
        try:
            group = os.getpgid(pid)
        except OSError:
            continue
        if group > 1 and group != os.getpgrp():
            found.append(-group)
    return found


def available() -> bool:
    """Whether this host can have the filter (Linux with /proc, x86_64 or aarch64)."""
    return platform.machine() in _ARCHES and host.PROC and sys.platform.startswith("linux")


def install() -> bool:
    """Refuse signals to the processes above, for good; False where this host has no seccomp
    filter this module can build (not Linux, another architecture)."""
    if not available():
        return False
    ops = program(platform.machine(), protected_targets())
    filters = (_Filter * len(ops))(*(_Filter(*op) for op in ops))
    prog = _Program(len(ops), filters)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0
    except (OSError, AttributeError):
        return False
