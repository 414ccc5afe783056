"""What every screen works with: the course, the learner's progress (its owner), the workspace and the sandbox."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tutor.files.workspace import Workspace
from tutor.i18n import Bilingual
from tutor.progress import ProgressError, ProgressStore
from tutor.progress.review import local_today
from tutor.progress.state import LearnerState

if TYPE_CHECKING:
    from tutor.course.model import Course
    from tutor.course.reader import Problem
    from tutor.progress.review import Clock
    from tutor.progress.state import Change
    from tutor.sandbox.runner import Sandbox

SAVE_WAIT_ON_EXIT_S = 3.0  # saves still in flight when the app ends get this long to finish


class Cancellable(Protocol):
    """A run in flight as the session sees it (tutor.ui.runs.RunHandle, which imports this module)."""

    def cancel(self) -> None: ...


class Session:
    """The learner's home and the course, plus a sandbox created on first use."""

    def __init__(
        self,
        home: Path,
        course: Course | None = None,
        problems: Iterable[Problem] | None = None,
        sandbox: Sandbox | None = None,
        accelerator: bool = False,
        shared_seat: bool = False,
        clock: Clock | None = None,
        course_root: Path | None = None,
    ) -> None:
        """`course_root`: the course's folder (--course; default: tutor.settings's), read and told to workers."""
        from tutor.settings import course_of

        self.home = Path(home)
        self.course_root = course_root if course_root is not None else course_of()
        self.accelerator = accelerator  # workers may use the GPU/TPU (--accelerator)
        # A seat of a class server (`serve --learner`): its user owns every seat's home, so what runs
        # a script unfenced (the doctor) is off here.
        self.shared_seat = shared_seat
        self.problems = list(problems or [])
        self.store = ProgressStore(self.home)
        # every screen reads and changes progress through it
        self.state = LearnerState(self.store, course, clock or local_today)
        self.workspace = Workspace(self.home)
        self._sandbox = sandbox
        self._own_sandbox = sandbox is None  # a sandbox handed in (tests) is closed by its owner
        self._lock = threading.Lock()
        self.runs: set[Cancellable] = set()  # RunHandles (tutor.ui.runs) in flight, cancelled on exit
        self._last_wanted = time.monotonic()
        self.after_exit: list[str] = []  # what must still be said once the terminal is back (unsaved code)

    @property
    def sandbox(self) -> Sandbox:
        """The sandbox; its module is imported only now (it is jax-free, but not needed to draw)."""
        with self._lock:
            if self._sandbox is None:
                from tutor.sandbox.runner import Sandbox

                self._sandbox = Sandbox(
                    self.home, keep_spare=True, accelerator=self.accelerator, course=self.course_root
                )
            return self._sandbox

    def warm_up(self) -> None:
        """Start the spare worker (call from a thread: it spawns a process)."""
        self.worker_wanted()
        self.sandbox.warm_up()

    def worker_wanted(self) -> None:
        """Note that a worker is in use or about to be: the idle clock starts again."""
        self._last_wanted = time.monotonic()

    def worker_idle(self, seconds: float) -> bool:
        """No run in flight and no worker wanted for `seconds`."""
        return not self.runs and time.monotonic() - self._last_wanted >= seconds

    def holds_workers(self) -> bool:
        """A spare worker or a fork server is kept (what release_spare closes)."""
        sandbox = self._sandbox
        return sandbox is not None and sandbox.holds_workers()

    def worker_warm(self) -> bool:
        """The next run need not start Python and JAX from nothing (a glance, from the UI thread)."""
        sandbox = self._sandbox
        return sandbox is not None and sandbox.warm()

    def release_spare(self) -> None:
        """Close the spare worker and the fork server, if ever made (call from a thread); the next
        run or screen that runs code makes new ones."""
        with self._lock:
            sandbox = self._sandbox
        if sandbox is not None:
            sandbox.release_spare()

    @property
    def course(self) -> Course | None:
        return self.state.course

    @course.setter
    def course(self, course: Course | None) -> None:
        self.state.course = course

    @property
    def loaded(self) -> Course:
        """The course, for a screen of it: one opens only once the course has loaded."""
        return self.state.loaded_course

    @property
    def progress(self) -> LearnerState:
        """The owner of progress and of the path; read from disk once, then kept current in memory."""
        return self.state.ensure_loaded()

    def record(self, fn: Change, *args: object) -> Bilingual | None:
        """Apply a change (tutor.progress.changes) and save it in this thread (never the UI's);
        return the reason if it could not be saved."""
        try:
            self.state.save_now(fn, *args)
        except ProgressError as exc:
            return exc.message
        return None

    def _save_pending(self, timeout: float) -> None:
        """Write the changes still waiting, from a thread of our own, waiting for it at most
        `timeout` s. close() runs on the event loop (on_unmount, a signal), and a save handed to a
        Textual thread worker starts only when that loop runs again: waiting for it there would wait
        out the timeout and leave the change unsaved."""

        def write() -> None:
            try:
                self.state.save_pending()
            except ProgressError:
                pass  # the session is ending: nobody is left to tell, and the file keeps what it had

        saver = threading.Thread(target=write, name="save-on-exit", daemon=True)
        saver.start()
        saver.join(timeout)

    def close(self) -> None:
        """Stop every run still going and, if we made it, the sandbox with its spare worker."""
        for handle in list(self.runs):
            handle.cancel()
        self._save_pending(SAVE_WAIT_ON_EXIT_S)
        if self._own_sandbox and self._sandbox is not None:
            self._sandbox.close()
