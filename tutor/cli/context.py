"""What every command works with: the parsed arguments, the language, the home, and the course,
progress and sandbox, each built only when a command first needs it (`--help` and `validate` stay fast)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.cli.texts import say
from tutor.controls import show_controls
from tutor.errors import TutorError
from tutor.i18n import Bilingual, pick
from tutor.settings import Settings, UnknownUserHome, lang_of, resolve

if TYPE_CHECKING:  # each is imported where a command first needs it (`--help` and `validate` stay fast)
    from rich.console import Console

    from tutor.course.model import Course, Exercise
    from tutor.progress.review import Clock
    from tutor.progress.state import LearnerState
    from tutor.progress.store import ProgressStore
    from tutor.sandbox.runner import Sandbox


class UsageError(TutorError):
    """Bad usage or an unknown id: exit code 2. Its text is already in the command's language."""

    def __init__(self, text: str):
        super().__init__(Bilingual.same(text), exit_code=2)


class Context:
    """What every command needs, built lazily so `--help` and `validate` stay fast."""

    def __init__(self, args: argparse.Namespace, clock: Clock | None = None, settings: Settings | None = None):
        """`settings`: as cli/main resolved them from `args`, the environment and the defaults
        (tutor.settings); resolved here when not given."""
        self.args = args
        self.clock = clock  # the learner's day for the review (None: the local date)
        if settings is None:
            try:
                settings = resolve(args)
            except UnknownUserHome as exc:
                lang = getattr(args, "lang", None) or lang_of()
                raise UsageError(say("home_no_such_user", lang, where=exc.where)) from None
        self.settings = settings
        self.lang = settings.lang
        self.home = settings.home
        # Workers may use the GPU/TPU only when asked: the flag, or the variable for a whole shell.
        self.accelerator = settings.accelerator
        self._course: Course | None = None
        self._store: ProgressStore | None = None
        self._state: LearnerState | None = None
        self._noted_host = False

    @property
    def course(self) -> Course:
        if self._course is None:
            from tutor.course import CourseError, load_course

            try:
                self._course = load_course(self.settings.course)
            except CourseError as exc:
                lines = [say("course_broken", self.lang)] + [f"  {p}" for p in exc.problems]
                raise UsageError("\n".join(lines)) from None
            from tutor.cli.course_trust import note_course

            note_course(self._course.root, self.home, self.lang)  # a course not shipped with the tutor is code
        return self._course

    @property
    def store(self) -> ProgressStore:
        if self._store is None:
            from tutor.progress import ProgressStore

            self._store = ProgressStore(self.home, on_wait=self._say_wait)
            note = self._store.make_private()
            if note is not None:
                print(show_controls(pick(note, self.lang)), file=sys.stderr)  # it names the home's path
        return self._store

    @property
    def state(self) -> LearnerState:
        """The owner of progress and of the path, read once per command (then kept current)."""
        if self._state is None:
            from tutor.progress.review import local_today
            from tutor.progress.state import LearnerState

            self._state = LearnerState(self.store, self.course, self.clock or local_today).refresh()
        return self._state

    def _say_wait(self, message: Bilingual) -> None:
        print(show_controls(pick(message, self.lang)), file=sys.stderr)  # it names the home's path

    def exercise(self, exercise_id: str) -> Exercise:
        ex = self.course.exercise(exercise_id)
        if ex is None:
            known = ", ".join(e.id for e in self.course.exercises)
            raise UsageError(say("unknown_id", self.lang, id=exercise_id, known=known))
        return ex

    def console(self, stderr: bool = False) -> Console:
        """Rich output (on stdout, or `stderr`). On a terminal Rich wraps lines to its width, Chinese
        as Chinese (tutor.terminal.text_wrap); piped output is not wrapped (the reader's tool does that)."""
        from rich.console import Console

        from tutor.terminal.text_wrap import use_in_rich

        use_in_rich()
        # Markup is asked for where a line is written with it, its fields escaped: a path, an id or
        # a program's words holding "[/x]" are text, never a tag (a MarkupError killed `watch`).
        console = Console(highlight=False, markup=False, stderr=stderr)
        console.soft_wrap = not console.is_terminal
        return console

    def note_host(self) -> None:
        """Say once, on stderr, which guards this host cannot give (none on Linux with /proc)."""
        from tutor import host

        notice = host.guards_off_notice()
        if notice and not self._noted_host:
            self._noted_host = True
            print(pick(Bilingual(en=notice[0], zh=notice[1]), self.lang), file=sys.stderr)

    def sandbox(self, keep_spare: bool = False) -> Sandbox:
        """A sandbox for this command's runs (the caller closes it)."""
        from tutor.sandbox.runner import Sandbox

        self.note_host()
        # A command's every child is this sandbox's: it adopts what a killed reaper leaves (orphans.py).
        return Sandbox(
            self.home,
            keep_spare=keep_spare,
            accelerator=self.accelerator,
            adopt_orphans=True,
            course=self.settings.course,
        )

    def warn_progress(self) -> None:
        for w in self.store.warnings:
            print(say("progress_warning", self.lang, w=pick(w, self.lang)), file=sys.stderr)

    def record(self, save: Callable[[], None]) -> None:
        """Save a change made through self.state; a store that cannot be written warns instead of failing the command."""
        from tutor.progress import ProgressError

        try:
            save()
        except ProgressError as exc:
            print(say("progress_warning", self.lang, w=pick(exc.message, self.lang)), file=sys.stderr)
        self.warn_progress()

    def workspace_file(self, exercise: Exercise) -> Path:
        """The learner's file, created from the starter if missing (said: a file that vanished
        after attempts was most likely deleted); a home that cannot hold it is a usage error."""
        from tutor.files.workspace import LearnerFileError, Workspace

        ws = Workspace(self.home)
        existed = ws.exists(exercise.id)
        try:
            path = ws.ensure(exercise)
        except LearnerFileError as exc:
            raise UsageError(pick(exc.message, self.lang)) from None
        if not existed:
            attempted = self.state.exercise(exercise.id).attempts > 0
            print(
                say("file_was_missing", self.lang, path=path, backups=ws.dir / ".backup")
                if attempted
                else say("file_created", self.lang, path=path),
                file=sys.stderr,
            )
        return path
