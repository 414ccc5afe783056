"""Orphans of a killed reaper: this process adopts them and ends them.

Each run's reaper is a child subreaper, so whatever the learner's code starts stays below it. If
that code kills the reaper itself, what it started (in a session of its own, say) would go to
init and outlive the run. The process that starts reapers (the fork server, or a CLI command that
spawns them) is made a subreaper too: those orphans come to it instead, and `sweep` ends every
child it did not start. Only a process whose every child is a reaper (or known) may sweep.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Collection

from tutor import host
from tutor.sandbox.reaper import kill_tree


def adopt() -> bool:
    """Make this process a child subreaper (Linux); False where the system has none."""
    return host.become_subreaper()


def own_children() -> list[int]:
    me = os.getpid()
    kids = host.children_of(me)
    if kids is None:  # no children files: by parent links
        kids = host.children_map().get(me, [])
    return kids


def sweep(known: Collection[int]) -> int:
    """End every child of this process not in `known` (and all below it), and reap it.
    Returns how many children were ended."""
    ended = 0
    for pid in own_children():
        if pid in known:
            continue
        kill_tree(pid)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (OSError, ChildProcessError):
            pass
        ended += 1
    return ended
