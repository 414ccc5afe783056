"""Bubblewrap, seccomp, and which guards this host cannot give (with the sentences that say so).

Part of tutor.host (what differs between hosts): import it as `from tutor import host`."""

from __future__ import annotations

import os
import subprocess
import sys

from tutor.host.kernel import IS_MACOS, IS_WINDOWS, LANDLOCK_NET_ABI, LOCKS, PROC, landlock_abi
from tutor.host.memory import memory_of
from tutor.host.tree import _parents_from_ps, fork_after_jax_is_safe

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
        "(no Landlock in this kernel), which therefore refuses starting programs and loading C (ctypes, cffi); "
        "code that calls C at a raw address still gets past it and can read and write what your account can, "
        "so grade strangers' files in bubblewrap or a container of their own; sockets, other processes' "
        "scheduling and memory, and IPC stay refused by the kernel (seccomp)",
        "检查代码能读、能写、能访问的网络只由 Python 的审计钩子限制（本内核没有 Landlock），"
        "因此它直接拒绝启动程序和加载 C（ctypes、cffi）；但在原始地址上调用 C 的代码仍能绕过它，读写你的账户能读写的文件，"
        "所以请在 bubblewrap 或单独的容器中评判陌生人的文件；套接字、其他进程的调度和内存、IPC 仍由内核（seccomp）拒绝",
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
