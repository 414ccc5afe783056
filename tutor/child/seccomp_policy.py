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

The confinement filter (`confine`, issue 50), for every run of code that is not the user's own
script (checks, cells, grade runs, a course's checks; never the doctor): what the kernel refuses
whatever makes the call (C, ctypes, a program it starts), on every thread of the worker (TSYNC)
and in all it starts:
- socket() of every family (EACCES): no TCP, UDP, raw, netlink, nor a Unix socket that could connect to
  a server listening by path (a container runtime's); socketpair(AF_UNIX) between its own processes stays;
- setpriority, ioprio_set and the sched_set* calls on any process but the caller (0) or the
  worker (its pid, set at install): no renicing or pinning of the reaper, the tutor, a server or
  another learner's run (PRIO_PGRP / PRIO_USER and their ioprio kinds refused too);
- every SysV IPC call and POSIX message queue, and the kernel's keyrings (add_key, request_key,
  keyctl: a key in the user's keyring outlives the run and is shared by every process of the
  account, every seat of a server) (EACCES): nothing of the run's outlives it there;
- io_uring (EPERM): its IORING_OP_SOCKET makes a socket past the socket() rule (found by the red
  team of issue 50: a ring was set up in a check);
- prlimit64 on any process but the caller (0) or the worker (EPERM): an account's process may set
  another's limits, so a run could give the tutor or a server RLIMIT_CPU 1 or RLIMIT_NOFILE 0
  (found the same way: the reaper's and a stranger's limits were set from a check);
- ptrace, process_vm_readv / process_vm_writev and pidfd_getfd (EPERM): reading or writing another
  process of the account (a seat's server holds every seat's token); Landlock refuses these for a
  process outside its domain, but not where there is no Landlock (gVisor);
- setsid and setpgid (EPERM): the run stays in the worker's process group, so one killpg reaches
  all of it, and a fork racing that signal fails (the kernel refuses a fork while a group-wide
  fatal signal is pending);
- every call of another architecture's numbering (x86's int 0x80, x32).
The program is built once (in the fork server, before any fork); only the worker's pid is
written in at install.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys

from tutor import host
from tutor.child import sharing

_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_SECCOMP_SET_MODE_FILTER, _SECCOMP_FILTER_FLAG_TSYNC = 1, 1
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_EPERM, _EACCES = 1, 13
# classic BPF: ld word abs, jeq k, ret k
_LD, _JEQ, _JSET, _RET = 0x20, 0x15, 0x45, 0x06
_F_SETOWN, _F_SETOWN_EX = 8, 15
_FIOSETOWN, _SIOCSPGRP = 0x8901, 0x8902

# SysV IPC and POSIX message queues, all refused (in this order in the tables below)
_IPC = (
    "shmget",
    "shmat",
    "shmctl",
    "semget",
    "semop",
    "semctl",
    "semtimedop",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "mq_open",
    "mq_unlink",
    "mq_timedsend",
    "mq_timedreceive",
    "mq_notify",
    "mq_getsetattr",
    "add_key",
    "request_key",
    "keyctl",
)
# Calls refused outright (EPERM): another process's memory, and io_uring (its own socket op)
_OTHERS = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "pidfd_getfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
)
_AF_UNIX = 1
_PRIO_PROCESS, _IOPRIO_WHO_PROCESS = 0, 1
_SCHED = ("sched_setparam", "sched_setscheduler", "sched_setaffinity", "sched_setattr")
_OWN_PID = 0xFFFFFFFF  # placeholder for the worker's pid, written in at install (never a pid)

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
            "seccomp": 317,
            "socket": 41,
            "socketpair": 53,
            "setpriority": 141,
            "ioprio_set": 251,
            "sched_setparam": 142,
            "sched_setscheduler": 144,
            "sched_setaffinity": 203,
            "sched_setattr": 314,
            "setsid": 112,
            "setpgid": 109,
            "prlimit64": 302,
            **dict(zip(_OTHERS, (101, 310, 311, 438, 425, 426, 427))),
            **dict(
                zip(_IPC, (29, 30, 31, 64, 65, 66, 220, 68, 69, 70, 71, 240, 241, 242, 243, 244, 245, 248, 249, 250))
            ),
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
            "seccomp": 277,
            "socket": 198,
            "socketpair": 199,
            "setpriority": 140,
            "ioprio_set": 30,
            "sched_setparam": 118,
            "sched_setscheduler": 119,
            "sched_setaffinity": 122,
            "sched_setattr": 274,
            "setsid": 157,
            "setpgid": 154,
            "prlimit64": 261,
            **dict(zip(_OTHERS, (117, 270, 271, 438, 425, 426, 427))),
            **dict(
                zip(
                    _IPC,
                    (
                        194,
                        196,
                        195,
                        190,
                        193,
                        191,
                        192,
                        186,
                        189,
                        188,
                        187,
                        180,
                        181,
                        182,
                        183,
                        184,
                        185,
                        217,
                        218,
                        219,
                    ),
                )
            ),
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


def confinement_program(arch: str) -> list[tuple[int, int, int, int]]:
    """The confinement filter as (code, jt, jf, k), the worker's pid left as _OWN_PID (see
    `with_pid`). Calls it does not name are allowed; so is everything on another filter's say."""
    audit, nr = _ARCHES[arch]
    code: list[tuple[int, int | str, int | str, int]] = []  # jumps by label, resolved below
    labels: dict[str, int] = {}

    def at(label: str) -> None:
        labels[label] = len(code)

    def ld(offset: int) -> None:
        code.append((_LD, 0, 0, offset))

    def jeq(value: int, yes: int | str, no: int | str = 0) -> None:
        code.append((_JEQ, yes, no, value))

    ld(4)
    jeq(audit, 0, "eperm")  # another architecture's numbering: refused
    ld(0)
    if arch == "x86_64":
        code.append((_JSET, "eperm", 0, _X32))
    for call, label in (
        ("socket", "eacces"),  # every family: a Unix socket by path reaches any server the user can (docker.sock)
        ("socketpair", "family"),
        ("setpriority", "prio"),
        ("ioprio_set", "ioprio"),
        *((c, "pid0") for c in (*_SCHED, "prlimit64")),
        *((c, "eperm") for c in _OTHERS),
        ("setsid", "eperm"),
        ("setpgid", "eperm"),
        *((c, "eacces") for c in _IPC),
    ):
        jeq(nr[call], label)
    code.append((_RET, 0, 0, _RET_ALLOW))  # any other call
    at("family")
    ld(_arg(0))
    jeq(_AF_UNIX, "allow", "eacces")
    at("prio")
    ld(_arg(0))
    jeq(_PRIO_PROCESS, "pid1", "eperm")
    at("ioprio")
    ld(_arg(0))
    jeq(_IOPRIO_WHO_PROCESS, "pid1", "eperm")
    at("pid1")
    ld(_arg(1))
    jeq(0, "allow")
    jeq(_OWN_PID, "allow", "eperm")
    at("pid0")
    ld(_arg(0))
    jeq(0, "allow")
    jeq(_OWN_PID, "allow", "eperm")
    at("allow")
    code.append((_RET, 0, 0, _RET_ALLOW))
    at("eperm")
    code.append((_RET, 0, 0, _RET_ERRNO | _EPERM))
    at("eacces")
    code.append((_RET, 0, 0, _RET_ERRNO | _EACCES))

    def offset(target: int | str, here: int) -> int:
        if isinstance(target, int):
            return target
        jump = labels[target] - here - 1
        assert 0 <= jump <= 255, (target, jump)  # BPF jumps go forward, 255 at most
        return jump

    return [(c, offset(jt, i), offset(jf, i), k) for i, (c, jt, jf, k) in enumerate(code)]


def with_pid(ops: list[tuple[int, int, int, int]], pid: int) -> list[tuple[int, int, int, int]]:
    """`ops` with the worker's pid written where _OWN_PID stands."""
    return [(c, jt, jf, pid if k == _OWN_PID and c == _JEQ else k) for c, jt, jf, k in ops]


_built: dict[str, list[tuple[int, int, int, int]]] = {}


def prepare() -> None:
    """Build the confinement program once (the fork server calls this before it forks)."""
    if host.seccomp_filters() and platform.machine() not in _built:
        _built[platform.machine()] = confinement_program(platform.machine())


def _load(ops: list[tuple[int, int, int, int]], all_threads: bool) -> bool:
    """Attach `ops` to this process, on every thread where `all_threads` and the kernel can sync
    them (else this thread and what it starts). True once attached."""
    filters = (_Filter * len(ops))(*(_Filter(*op) for op in ops))
    prog = _Program(len(ops), filters)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        if all_threads:
            nr = _ARCHES[platform.machine()][1]["seccomp"]
            flags = _SECCOMP_FILTER_FLAG_TSYNC
            if libc.syscall(nr, _SECCOMP_SET_MODE_FILTER, flags, ctypes.byref(prog)) == 0:
                return True
        return libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0
    except (OSError, AttributeError):
        return False


_confined: dict[int, bool] = {}  # pid -> what confine() did in that process (once is for good)


def confine(kernel: bool = True) -> bool:
    """Attach the confinement filter to this process (every thread) and all it starts, for good,
    and the layer that names its refusals (tutor.child.sharing). False where the kernel part is not set: this
    host has no seccomp filter this module can build (host.guards_off says what still holds), or
    `kernel` is False (to test the hook alone). A second call in the same process does nothing:
    a spare worker confines itself while it waits (under gVisor, syncing the filter to the ~60
    threads of a started JAX took 87-126 ms, which a check then waited for), and fence.install
    asks again."""
    done = _confined.get(os.getpid())
    if done is not None:
        return done
    sys.addaudithook(sharing.hook)
    sharing.name_scheduling()
    done = bool(kernel and host.seccomp_filters())
    if done:
        prepare()
        done = _load(with_pid(_built[platform.machine()], os.getpid()), all_threads=True)
    _confined[os.getpid()] = done
    return done


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
    return host.seccomp_filters() and host.PROC


def install() -> bool:
    """Refuse signals to the processes above, for good; False where this host has no seccomp
    filter this module can build (not Linux, another architecture)."""
    if not available():
        return False
    return _load(program(platform.machine(), protected_targets()), all_threads=False)
