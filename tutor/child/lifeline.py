"""Worker side: die with the parent, however the parent died.

A worker runs in a session of its own (so killing its group reaches everything the learner
started), which also means nothing ties it to the tutor: a tutor killed mid-check (SIGKILL,
a dropped SSH connection) would leave learner code running with no time limit. Three layers:

- the parent keeps the worker's stdin pipe open for the worker's whole life; a watchdog
  thread polls it for hang-up (the kernel closes it when the parent dies) and also checks
  os.getppid(), then removes the run folder and kills the worker's process group;
- PR_SET_PDEATHSIG (Linux) sends SIGTERM when the parent dies. The kernel also sends it
  when the parent *thread* that spawned the worker exits (spares are started from worker
  threads), so the handler acts only if the parent process is really gone;
- `arm_deadline` sets a wall-clock alarm with SIGALRM's default action: the kernel ends the
  process at the deadline even if learner code holds the GIL in C and no Python thread can run,
  or the parent is alive but stopped (Ctrl+Z).
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import threading

from tutor import host
from tutor.protocol import RUN_DIR_PREFIX

_fd: int | None = None  # the parent's end of the pipe, as this process holds it
_identity: tuple[int, int] | None = None  # (st_dev, st_ino) of that pipe
_run_dir: str | None = None


def _die(run_dir: str | None) -> None:
    """The parent is gone: nobody else will clean up or stop this process group."""
    if run_dir and os.path.basename(run_dir).startswith(RUN_DIR_PREFIX):
        shutil.rmtree(run_dir, ignore_errors=True)
    try:
        if os.getpgrp() == os.getpid():  # our own group (start_new_session): the learner's children too
            os.killpg(os.getpid(), signal.SIGKILL)
    finally:
        os.kill(os.getpid(), signal.SIGKILL)


def _hung_up(poller, watched: int | None) -> bool:
    """True if the pipe from the parent reports hang-up, and it is still that pipe. The descriptor
    polled may have been switched meanwhile (fd 0 given the doctor's stdin, which may be at its
    end): then it is not the parent's, and the next poll watches the private copy."""
    if poller is None or watched is None:
        return False
    events = poller.poll(250)
    if not events:
        return False
    try:
        st = os.fstat(watched)
        same = (st.st_dev, st.st_ino) == _identity
    except OSError:
        same = False
    if not same and watched != _fd:
        return False
    if not same:
        raise OSError("the pipe from the parent was closed by the program")
    return any(mask & (select.POLLHUP | select.POLLERR) for _, mask in events)


def _watch(parent: int, run_dir: str | None) -> None:
    poller, watched = None, None
    while True:
        fd = _fd  # set by start() before this thread starts
        if fd is not None and fd != watched:  # switched to the private copy once the job was read
            watched = fd
            poller = select.poll()
            poller.register(fd, 0)  # hang-up and errors only: never steals the job's bytes
        try:
            if _hung_up(poller, watched):
                break
        except OSError:  # the learner closed it: os.getppid() alone still tells
            poller = None
            threading.Event().wait(0.25)
        if os.getppid() != parent:
            break
    _die(run_dir)


def _set_pdeathsig(parent: int, run_dir: str | None) -> None:
    def on_term(signum, frame):
        if os.getppid() != parent:
            _die(run_dir)
        # else: the spawning thread ended, the parent process lives on: nothing to do

    if not host.die_with_parent(signal.SIGTERM):
        return  # not Linux: the watchdog thread alone
    signal.signal(signal.SIGTERM, on_term)


def start(parent: int, run_dir: str | None) -> None:
    """Tie this process to `parent` (whose pid the parent passed us). Call first thing."""
    global _fd, _identity, _run_dir
    _fd, _run_dir = 0, run_dir
    st = os.fstat(0)
    _identity = (st.st_dev, st.st_ino)
    _set_pdeathsig(parent, run_dir)
    if os.getppid() != parent:  # the parent died before we got here
        _die(run_dir)
    threading.Thread(target=_watch, args=(parent, run_dir), name="parent-watch", daemon=True).start()


def abandoned() -> None:
    """The job pipe ended before a job came: the parent is gone (it kills a spare it no longer
    wants before closing the pipe), so clean up as the watchdog would."""
    _die(_run_dir)


def hide_stdin() -> None:
    """After the job is read: keep the pipe on a private descriptor and give fd 0 /dev/null, so
    learner code that reads input gets EOF, not the tutor's pipe (and cannot close it by accident)."""
    global _fd
    private = os.dup(0)  # non-inheritable: the learner's subprocesses do not hold it
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    _fd = private


def arm_deadline(seconds: float) -> None:
    """End this process after `seconds` of wall-clock time, by the kernel (SIGALRM, default action)."""
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.1))
