"""`grade`'s outer wall: each worker started inside bubblewrap (`bwrap`), so a stranger's file sees
only its own run folder, the Python installation, the tutor and the course's lessons.

What a wrapped worker gets (issue 50: "grade runs a stranger's code as a stranger"):
- new mount, network, IPC, PID, UTS (and, where allowed, user and cgroup) namespaces: no network
  but its own loopback, no SysV object that outlives it, no other process in view;
- read-only: the Python installation and its site-packages, the tutor's package, the course's
  lessons/ (never solutions/), a few files of /etc the loader reads; a fresh /proc and /dev;
- writable: the run folder alone (on a tmpfs /tmp); no home, no compilation cache (one stranger's
  cache entry would be the next one's compiled code), no capability (root's are dropped);
- it dies with the tutor (--die-with-parent), and all it started with it (its PID namespace).

The in-worker fence (tutor.child.fence) is installed inside as everywhere: this layer wraps the
process from the outside and changes nothing within. Whether bwrap runs on this host is
tutor.host's question (`bwrap_usable`).
"""

from __future__ import annotations

import os
import re
import site
import sys
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tutor import host
from tutor.paths import PACKAGE_DIR

NAME = "bwrap"
FENCE = "fence"  # the in-worker fence alone (tutor.child.fence): the same user's view of the files


# What a wrapped worker keeps of the instructor's environment: what Python, JAX, XLA, the BLAS
# libraries and an accelerator's runtime read, the locale, and the run's own TMPDIR. Nothing else:
# a token in the shell must not reach a stranger's code (whose error text lands in the table's notes).
_KEEP_ENV = re.compile(
    r"^(PATH|HOME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TEMP|TMP|PYTHON[A-Z]*|JAX_.*|XLA_.*|TF_CPP_.*|LIBTPU.*|TPU_.*"
    r"|CUDA_.*|NVIDIA_.*|OPENBLAS_.*|OMP_.*|MKL_.*|JAXSTATE_TUTOR_LANG|LD_LIBRARY_PATH)$"
)


def keep_env(env: dict[str, str]) -> dict[str, str]:
    """The environment a wrapped worker starts with: `env` (tutor.sandbox.worker_process's) less
    everything not on the list above."""
    return {k: v for k, v in env.items() if _KEEP_ENV.match(k)}


def python_paths() -> list[str]:
    """Every folder the worker's Python reads its code from: the installation, the environment's
    site-packages, the user's site-packages where Python reads it, PYTHONPATH's folders."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths |= {v for k, v in sysconfig.get_paths().items() if k in ("stdlib", "platstdlib", "purelib", "platlib")}
    paths.add(os.path.dirname(os.path.realpath(sys.executable)))
    paths.update(site.getsitepackages() if hasattr(site, "getsitepackages") else [])
    if site.ENABLE_USER_SITE:
        paths.add(site.getusersitepackages())
    # The instructor's own PYTHONPATH (JAX may come from there); the tutor's own entry is PACKAGE_DIR's
    # parent, a checkout that holds the shipped course's solutions/: only the package is bound.
    for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if entry and os.path.isabs(entry) and Path(entry).resolve() != PACKAGE_DIR.parent:
            paths.add(entry)
    paths.add(str(PACKAGE_DIR))
    return _outermost(p for p in paths if p and os.path.isdir(p))


def _outermost(paths: Iterable[str]) -> list[str]:
    """Each folder once, none inside another already listed (a bind of the parent shows it)."""
    kept: list[str] = []
    for p in sorted({os.path.realpath(p) for p in paths}, key=len):
        if not any(p == k or p.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(p)
    return kept


def _beneath(path: str, roots: Iterable[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


@dataclass(frozen=True)
class Bwrap:
    """The wrapper for one `grade` run: `prefix(run_dir)` is what goes before the reaper's command."""

    program: str  # bwrap's path
    lessons: tuple[str, ...] = ()  # the course's lessons/ folder(s): read-only
    hidden: tuple[str, ...] = ()  # never visible, even beneath a bound folder: solutions/, the home, collected exports
    accelerator: bool = False  # the host's /dev and /sys as they are: the chip's device files and its driver's view
    read_only: tuple[str, ...] = field(default_factory=lambda: tuple(python_paths()))
    name: str = NAME

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        return keep_env(env)

    def prefix(self, run_dir: str) -> list[str]:
        run_dir = os.path.realpath(run_dir)
        args = [self.program, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        args += host.bwrap_system(self.accelerator)  # /usr and its links, the loader's /etc, /dev, /proc, /tmp
        roots = _outermost(["/usr", *self.read_only])  # what lies in /usr is bound with it
        for root in (r for r in roots if r != "/usr"):
            args += ["--ro-bind", root, root]
        for lessons in self.lessons:  # where the job names its checks.py: the path as given, links and all
            if os.path.isdir(lessons):
                args += ["--ro-bind", os.path.realpath(lessons), os.path.abspath(lessons)]
                roots.append(os.path.abspath(lessons))
        # Over whatever a bound folder holds that is not the run's to see (a wheel's _course/solutions,
        # a home or a collection kept inside the environment): an empty folder, or an empty file.
        for path in sorted({os.path.realpath(p) for p in self.hidden}):
            if _beneath(path, roots) and os.path.exists(path):
                args += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
        args += ["--bind", run_dir, run_dir, "--chdir", run_dir, "--"]
        return args
