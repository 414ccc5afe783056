"""What differs between hosts, in one place (this package; each part a module of one concern, all
asked as `host.NAME`): the process tree, memory, threads, file locks, the
subreaper and other prctl calls, Landlock's ABI, whether forking after importing JAX is safe, and
whether bubblewrap runs here.

Linux (bare, containers, gVisor) is first class; macOS and Windows get what they have, and
`guards_off()` names what they lack, so the tutor can say which guards are off instead of
guessing. Every function here answers "could not tell" (None, 0, False) rather than raising.

Stdlib only, and nothing from the rest of the tutor: the reaper (tutor.sandbox.reaper) imports
this module from a `python -I -S` process that starts in milliseconds.

What differs, as measured:
- gVisor's /proc has no `smaps_rollup` and no `RssAnon`; its `children` files (newer releases)
  may list the threads of each child, so a child is taken as a process only when its `Tgid` is
  its own id; an older release has no `children` files at all. A process's own files there
  (stat, status, fd) wait while it forks: reading the tree of a fork bomb of 55 took 13 s.
  gVisor mounts no cgroups, but root may mount its `pids` controller, which caps and lists a tree
  (release 20221219: no `pids.events`); it keeps a root process's capabilities across exec, and
  holds no task with CAP_SYS_ADMIN or CAP_SYS_RESOURCE to RLIMIT_NPROC.
- macOS has no /proc: `ps` gives the tree there; Windows has neither `fcntl` nor fork.
- Landlock: ABI 7 on Linux 6.18 (signals scoped from ABI 6, Linux 6.12); none under gVisor
  (release 20221219: ENOSYS, and no `pidfd_open` either).
"""

from __future__ import annotations

from tutor.host.guards import (
    GUARD_TEXT,
    SECCOMP_ARCHES,
    bwrap_system,
    bwrap_usable,
    find_bwrap,
    guards_off,
    guards_off_notice,
    seccomp_filters,
    userns_off,
)
from tutor.host.kernel import (
    IS_MACOS,
    IS_WINDOWS,
    LANDLOCK_NET_ABI,
    LANDLOCK_SIGNAL_SCOPE_ABI,
    LOCKS,
    PROC,
    _fcntl,
    become_subreaper,
    die_with_parent,
    drop_admin,
    drop_raise_limits,
    is_gvisor,
    landlock_abi,
    prctl,
    signals_scoped,
)
from tutor.host.locks import lock_holder, try_lock
from tutor.host.memory import deleted_files_held, memory_of, memory_of_tree, path_of_fd
from tutor.host.tasks import (
    TASKS_CGROUP_PREFIX,
    cgroup_processes,
    cgroup_tasks,
    drop_capabilities,
    leave_tasks_cgroup,
    stop_new_tasks,
    tasks_cgroup,
    tasks_cgroup_detached,
    tasks_refused,
    tasks_rlimit_in_namespace,
    tasks_rlimit_of_user,
)
from tutor.host.tree import (
    ancestors,
    children_map,
    children_of,
    descendants,
    fork_after_jax_is_safe,
    group_alive,
    is_alive,
    is_process,
    own_proc_paths,
    own_threads,
    parent_of,
    processes_now,
    tasks_of_user,
    thread_ids,
    threads_of,
)

__all__ = [
    "IS_MACOS",
    "IS_WINDOWS",
    "LANDLOCK_NET_ABI",
    "LANDLOCK_SIGNAL_SCOPE_ABI",
    "LOCKS",
    "PROC",
    "_fcntl",
    "become_subreaper",
    "die_with_parent",
    "drop_admin",
    "drop_raise_limits",
    "is_gvisor",
    "landlock_abi",
    "prctl",
    "signals_scoped",
    "ancestors",
    "children_map",
    "children_of",
    "descendants",
    "fork_after_jax_is_safe",
    "group_alive",
    "is_alive",
    "is_process",
    "own_proc_paths",
    "own_threads",
    "parent_of",
    "processes_now",
    "tasks_of_user",
    "thread_ids",
    "threads_of",
    "TASKS_CGROUP_PREFIX",
    "cgroup_processes",
    "cgroup_tasks",
    "drop_capabilities",
    "leave_tasks_cgroup",
    "stop_new_tasks",
    "tasks_cgroup",
    "tasks_cgroup_detached",
    "tasks_refused",
    "tasks_rlimit_in_namespace",
    "tasks_rlimit_of_user",
    "deleted_files_held",
    "memory_of",
    "memory_of_tree",
    "path_of_fd",
    "lock_holder",
    "try_lock",
    "GUARD_TEXT",
    "SECCOMP_ARCHES",
    "bwrap_system",
    "bwrap_usable",
    "find_bwrap",
    "guards_off",
    "guards_off_notice",
    "seccomp_filters",
    "userns_off",
]
