"""Facts of the kernel and the platform every other part of tutor.host asks: /proc, fcntl, prctl,
gVisor and Landlock.

Part of tutor.host (what differs between hosts): import it as `from tutor import host`."""

from __future__ import annotations

import os
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
