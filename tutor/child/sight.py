"""What a run may read (issue 50): one list for every run of code that is not the learner's own
script (exercise checks, lesson cells, `grade`, a course's checks with their import-time code),
enforced by the fence (tutor.child.fence) with Landlock where the kernel has it and with the audit
hook on every host.

A run may read, list and execute beneath:
- its run folder (its TMPDIR is inside) and the compilation cache (what it may also write);
- the course files it needs: the course's lessons/ (the exercise's folder is inside); never
  solutions/ or tests/cases/ (near-solutions);
- the Python installation: sys.prefix, sys.base_prefix and every import path entry, except an
  entry that holds a course or a home (the source checkout, which holds solutions/; a PYTHONPATH of
  `~` or `/`): of the checkout only tutor/ is read (Python's import skips an entry it cannot list);
- what Python, NumPy and JAX read of the system: /usr, /lib*, /bin, /sbin, /etc, /sys, of /dev only
  the devices tutor.child.fence.devices names (no terminal, no disk), and of /proc only the process's own entries (/proc/self as it resolves when the fence
  is set) and the few files about the machine (cpuinfo, meminfo, stat...).
Nothing else: no tutor home, no other run folder or /tmp, no other process's /proc (environ,
cmdline, fds).

The parts that do not depend on the run (Python, the system) are computed once, in the fork server
before it forks, so each worker only adds its own folders.
"""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from tutor import host

# System folders a run reads beneath (whichever exist; symlinks such as /lib -> usr/lib resolved).
_SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/sys")
_PACKAGE = Path(__file__).resolve().parents[1]  # tutor/


@dataclass(frozen=True)
class Sight:
    """Paths (resolved) a run may read beneath (`read`), and paths beneath them it may not (`hidden`:
    a course's solutions/ and tests/ where a read root holds them, as a wheel's package holds the
    shipped course)."""

    read: tuple[str, ...]
    hidden: tuple[str, ...] = ()

    def plus(self, read: list[str]) -> Sight:
        return Sight(tuple(dict.fromkeys([*self.read, *_resolved(read)])), self.hidden)

    def readable(self, real: str) -> bool:
        """Whether a resolved path is in sight."""
        return beneath(real, self.read) and not beneath(real, self.hidden)

    def rules(self) -> list[tuple[str, bool]]:
        """The read list as Landlock can hold it (a rule grants all beneath its folder): (path, whole);
        a root holding a hidden path is granted as a listing only (whole False), and each entry beside
        the way down to the hidden path in whole."""
        out: list[tuple[str, bool]] = []
        for root in self.read:
            out += _split(root, self.hidden)
        return out


def beneath(real: str, roots: tuple[str, ...]) -> bool:
    """Whether `real` is one of `roots` or beneath one (all resolved)."""
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


@functools.cache  # warmed in base(): a forked worker lists no folder again
def _split(root: str, hidden: tuple[str, ...]) -> list[tuple[str, bool]]:
    if beneath(root, hidden):
        return []
    inside = [h for h in hidden if h.startswith(root.rstrip(os.sep) + os.sep)]
    if not inside or not os.path.isdir(root):
        return [(root, True)]
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return [(root, False)]
    out = [(root, False)]
    for name in names:
        out += _split(os.path.join(root, name), tuple(inside))
    return out


def _resolved(paths) -> list[str]:
    out = []
    for p in paths:
        if not p:
            continue
        real = os.path.realpath(p)
        if os.path.exists(real):
            out.append(real)
    return out


def _holds_course_or_home(folder: str) -> bool:
    """A folder not to read in full: it holds a course (solutions/) or is at or above a home."""
    if os.path.isdir(os.path.join(folder, "solutions")) or os.path.isdir(os.path.join(folder, "tests", "cases")):
        return True
    home = os.path.realpath(os.path.expanduser("~"))
    return home == folder or home.startswith(folder.rstrip(os.sep) + os.sep) or folder == os.sep


_base: Sight | None = None


def base() -> Sight:
    """Python and the system, for this process: computed once (the fork server's workers inherit it)."""
    global _base
    if _base is not None:
        return _base
    python = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, *sys.path, str(_PACKAGE)]
    read = [p for p in _resolved(python) if not (os.path.isdir(p) and _holds_course_or_home(p))]
    _base = Sight(tuple(dict.fromkeys(read + _resolved(_SYSTEM))), tuple(_resolved(_hidden())))
    _base.rules()
    return _base


def _hidden() -> list[str]:
    """Never in sight, wherever a read root holds them: the solutions and red-team cases of the
    shipped course (inside the package in a wheel) and of the course in use."""
    from tutor.paths import shipped_course_root
    from tutor.settings import course_of

    return [
        str(c / part) for c in dict.fromkeys([shipped_course_root(), course_of()]) for part in ("solutions", "tests")
    ]


def for_run(run_dir: str | None, cache_dir: str | None, course_dirs: list[str]) -> Sight:
    """What this run may read: the base, its folders, the course's, its own /proc."""
    return base().plus([p for p in (run_dir, cache_dir, *course_dirs) if p] + host.own_proc_paths())
