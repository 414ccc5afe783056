"""What a run may share with other processes, named in the learner's words (issue 50): no socket
beyond the pipe the tutor gave it, no POSIX shared memory or named semaphore.

The kernel holds these rules (tutor.child.seccomp_policy refuses socket() of every family;
Landlock refuses /dev/shm, where shm_open and sem_open make their files), but it says a bare
"Permission denied". This module is the layer that names them:

- `socket_hook`, an audit hook: Python's own sockets (a network one, a new Unix one, and a
  connect, bind or send to a Unix path or abstract name) refused with the rule. A Unix socket made
  around a descriptor the run already holds (socketpair(), fromfd) stays: that is the pipe.
- `name_shared_memory`: _posixshmem.shm_open / shm_unlink and _multiprocessing's SemLock /
  sem_unlink (C, no audit event) raise the rule where the kernel refuses them. Where there is no
  Landlock (gVisor) nothing in the kernel would refuse them, so they are replaced by a refusal
  that holds no original (one that held it would hand it back).
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
_EVENTS = _ADDRESSED | {"socket.__new__"}
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


def socket_hook(event: str, args: tuple) -> None:
    """Python's sockets beyond the pipe refused with the rule (the kernel refuses the rest, C
    included, with a bare EACCES). One set lookup for any other event."""
    if event not in _EVENTS or len(args) < 2:
        return
    if event == "socket.__new__":
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
