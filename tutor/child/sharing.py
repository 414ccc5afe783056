"""What a run may share with other processes, or do to them, named in the learner's words (issue
50): no socket beyond the pipe the tutor gave it, no POSIX shared memory or named semaphore, no
System V IPC, no scheduling change of another process.

The kernel holds these rules (tutor.child.seccomp_policy refuses socket() of every family, SysV
IPC, message queues and scheduling calls on other pids; Landlock refuses /dev/shm, where shm_open
and sem_open make their files), but it says a bare "Permission denied" or "Operation not
permitted". This module is the layer that names them:

- `hook`, an audit hook: Python's own sockets (a network one, a new Unix one, and a connect, bind
  or send to a Unix path or abstract name) refused with the rule. A Unix socket made around a
  descriptor the run already holds (socketpair(), fromfd) stays: that is the pipe. And C's SysV
  IPC, message queue and shared memory calls, refused as ctypes looks them up by name.
- `name_shared_memory`: _posixshmem.shm_open / shm_unlink and _multiprocessing's SemLock /
  sem_unlink (C, no audit event) raise the rule where the kernel refuses them. Where there is no
  Landlock (gVisor) nothing in the kernel would refuse them, so they are replaced by a refusal
  that holds no original (one that held it would hand it back).
- `name_scheduling`: os.setpriority and os.sched_set* (no audit event) raise the rule where the
  kernel refuses them for another process.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from typing import NoReturn

_AF_UNIX = 1
# Events that carry a socket's address (the socket, the address): a str or bytes one is a Unix path
# or an abstract name (a tuple is an IP address, refused where the socket was made).
_ADDRESSED = frozenset({"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"})
_EVENTS = _ADDRESSED | {"socket.__new__", "ctypes.dlsym"}
# C calls, looked up by name through ctypes, that the kernel always refuses a run: System V IPC and
# POSIX message queues (seccomp), POSIX shared memory and named semaphores (Landlock, /dev/shm)
_SYSV_CALLS = frozenset(
    {"shmget", "shmat", "shmctl", "semget", "semop", "semctl", "semtimedop", "msgget", "msgsnd", "msgrcv", "msgctl"}
    | {"mq_open", "mq_unlink", "mq_send", "mq_receive", "mq_timedsend", "mq_timedreceive", "mq_notify"}
)
_SHARED_MEMORY_CALLS = frozenset({"shm_open", "shm_unlink", "sem_open", "sem_unlink"})
_CALLS = {"socket.connect": "connect", "socket.bind": "bind", "socket.sendto": "sendto", "socket.sendmsg": "sendmsg"}


def refuse_unix(call: str) -> NoReturn:
    raise PermissionError(
        errno.EACCES,
        f"{call}: a check's run may not open sockets beyond the pipe the tutor gave it (a Unix socket "
        "reaches, by its path, any server your account can: a container runtime's, another seat's tutor) / "
        f"{call}：检查运行时不能打开套接字，只能使用本教程给它的管道（Unix 套接字能按路径连到你的账户能连的"
        "任何服务器：容器运行时的、另一个座位的教程）",
    )


def refuse_network(family: str) -> NoReturn:
    raise PermissionError(
        errno.EACCES,
        f"socket({family}): code the tutor runs may not open network sockets (only Unix sockets "
        f"between its own processes) / socket({family})：本教程运行的代码不能打开网络套接字（只能在"
        "它自己的进程之间使用 Unix 套接字）",
    )


def refuse_shared_memory(call: str) -> NoReturn:
    raise PermissionError(
        errno.EACCES,
        f"{call}: a check's run may not open POSIX shared memory or named semaphores (in /dev/shm they "
        "outlive the run, and other programs of your account can reach them); it shares only the pipe the "
        f"tutor gave it / {call}：检查运行时不能打开 POSIX 共享内存或具名信号量（它们在 /dev/shm 中，运行结束后"
        "仍然存在，你的账户下的其他程序也能访问）；它只能使用本教程给它的管道",
    )


def refuse_ipc(call: str) -> NoReturn:
    raise PermissionError(
        errno.EACCES,
        f"{call}: a check's run may not make System V IPC objects or POSIX message queues (shared memory, "
        "semaphores, queues: they outlive the run, and every program of your account can reach them); it shares "
        f"only the pipe the tutor gave it / {call}：检查运行时不能创建 System V IPC 对象或 POSIX 消息队列（共享内存、"
        "信号量、队列：它们在运行结束后仍然存在，你的账户下的所有程序都能访问）；它只能使用本教程给它的管道",
    )


def refuse_scheduling(call: str) -> NoReturn:
    raise PermissionError(
        errno.EPERM,
        f"{call}: a check's run may change the scheduling only of its own processes (priority, CPUs, policy), "
        "not of another: it may be the tutor, a server or another learner's run; use 0 for itself / "
        f"{call}：检查运行时只能改变它自己的进程的调度（优先级、CPU、调度策略），不能改变别的进程的："
        "那可能是本教程、服务器或另一个学习者的运行；要改变自己，请用 0",
    )


def _new_socket() -> bool:
    """Whether the socket being made is a new one, not one around a descriptor (socketpair() and
    fromfd() make theirs through socket.socket with a fileno): told by socket.socket.__init__'s
    own frame, the caller of this hook's caller."""
    import socket

    try:
        frame = sys._getframe(2)
    except ValueError:
        return False  # made from C with no Python caller: the kernel judges
    if frame.f_code is socket.socket.__init__.__code__:
        return frame.f_locals.get("fileno") is None
    return False  # _socket.socket called straight: a descriptor it may hold cannot be told; the kernel judges


def hook(event: str, args: tuple) -> None:
    """Python's sockets beyond the pipe, and C's IPC calls by name, refused with the rule (the
    kernel refuses the rest with a bare errno). One set lookup for any other event."""
    if event not in _EVENTS or len(args) < 2:
        return
    if event == "ctypes.dlsym":
        if args[1] in _SYSV_CALLS:
            refuse_ipc(str(args[1]))
        if args[1] in _SHARED_MEMORY_CALLS:
            refuse_shared_memory(str(args[1]))
    elif event == "socket.__new__":
        family = args[1]
        if family == _AF_UNIX and _new_socket():
            refuse_unix("socket(AF_UNIX)")
        if isinstance(family, int) and family not in (-1, _AF_UNIX):
            import socket

            try:
                name = socket.AddressFamily(family).name
            except ValueError:
                name = str(family)
            refuse_network(name)
    elif isinstance(args[1], (str, bytes, bytearray)):
        refuse_unix(f"{_CALLS[event]}({args[1]!r})")


def _named(call: str, original: Callable[..., object]) -> Callable[..., object]:
    """`original` (a call the kernel refuses) raising the rule instead of a bare EACCES."""

    def named(*args: object, **kwargs: object) -> object:
        try:
            return original(*args, **kwargs)
        except PermissionError:
            refuse_shared_memory(f"{call}({args[0] if args else ''!r})")

    named.__name__ = getattr(original, "__name__", call)
    return named


def _refused(call: str) -> Callable[..., NoReturn]:
    def refused(*args: object, **kwargs: object) -> NoReturn:
        refuse_shared_memory(call)

    refused.__name__ = call
    return refused


def _named_semlock(base: type) -> type:
    """_multiprocessing.SemLock whose sem_open (in __new__), when the kernel refuses it, raises the rule."""

    def __new__(cls, *args: object, **kwargs: object) -> object:
        try:
            return base.__new__(cls, *args, **kwargs)
        except PermissionError:
            refuse_shared_memory(f"SemLock({args[3] if len(args) > 3 else kwargs.get('name', '')!r})")

    return type("SemLock", (base,), {"__new__": __new__, "__module__": base.__module__})


def name_shared_memory(kernel: bool) -> None:
    """POSIX shared memory and named semaphores, in modules already imported (the fence imports
    them before a run where Landlock holds): `kernel` (Landlock refuses /dev/shm): named where
    the kernel refuses them; else refused outright, no original kept."""
    shm, mp = sys.modules.get("_posixshmem"), sys.modules.get("_multiprocessing")
    for module, names in ((shm, ("shm_open", "shm_unlink")), (mp, ("sem_unlink",))):
        for name in names if module is not None else ():
            original = getattr(module, name, None)
            if original is not None:
                setattr(module, name, _named(name, original) if kernel else _refused(name))
    semlock = getattr(mp, "SemLock", None)
    if mp is not None and isinstance(semlock, type):
        mp.SemLock = _named_semlock(semlock) if kernel else _refused("SemLock")  # type: ignore[attr-defined]


_SCHEDULING = ("setpriority", "sched_setaffinity", "sched_setscheduler", "sched_setparam")


def _named_scheduling(name: str, original: Callable[..., object]) -> Callable[..., object]:
    """`original` (os.setpriority or an os.sched_set* call) raising the rule where the kernel
    refuses it for another process (a bare EPERM before); its own (0) is refused for other reasons."""

    def named(*args: object, **kwargs: object) -> object:
        try:
            return original(*args, **kwargs)
        except PermissionError:
            which, who = (args[0], args[1]) if name == "setpriority" and len(args) > 1 else (0, args[0] if args else 0)
            if who != 0 or which != 0:  # another process, or a group or user (PRIO_PGRP, PRIO_USER)
                refuse_scheduling(f"os.{name}{args!r}")
            raise

    named.__name__ = name
    return named


def name_scheduling() -> None:
    """os's scheduling calls named where the kernel refuses them (once per process)."""
    import os

    for name in _SCHEDULING:
        original = getattr(os, name, None)
        if original is not None and not getattr(original, "_named", False):
            named = _named_scheduling(name, original)
            named._named = True  # type: ignore[attr-defined]
            setattr(os, name, named)
