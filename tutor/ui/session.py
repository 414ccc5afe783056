"""What every screen works with: the course, the progress store, the workspace and the sandbox."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from tutor.progress import ProgressError, ProgressStore
from tutor.workspace import Workspace


class Session:
    """The learner's home and the course, plus a sandbox created on first use."""

    def __init__(self, home: Path, course=None, problems=None, sandbox=None):
        self.home = Path(home)
        self.course = course
        self.problems = list(problems or [])
        self.store = ProgressStore(self.home)
        self.workspace = Workspace(self.home)
        self._sandbox = sandbox
        self._own_sandbox = sandbox is None  # a sandbox handed in (tests) is closed by its owner
        self._lock = threading.Lock()
        self.runs: set = set()  # RunHandles in flight, cancelled on exit
        self.after_exit: list[str] = []  # what must still be said once the terminal is back (unsaved code)

    @property
    def sandbox(self):
        """The sandbox; its module is imported only now (it is jax-free, but not needed to draw)."""
        with self._lock:
            if self._sandbox is None:
                from tutor.sandbox.runner import Sandbox

                self._sandbox = Sandbox(self.home, keep_spare=True)
            return self._sandbox

    def warm_up(self) -> None:
        """Start the spare worker (call from a thread: it spawns a process)."""
        self.sandbox.warm_up()

    def progress(self) -> dict:
        return self.store.load()

    def record(self, fn: Callable, *args) -> str | None:
        """Apply a ProgressStore update; return the reason if it could not be saved."""
        try:
            fn(*args)
        except ProgressError as exc:
            return exc.message  # a Bilingual: reads as English, pick() gives the learner's language
        return None

    def close(self) -> None:
        """Stop every run still going and, if we made it, the sandbox with its spare worker."""
        for handle in list(self.runs):
            handle.cancel()
        if self._own_sandbox and self._sandbox is not None:
            self._sandbox.close()
