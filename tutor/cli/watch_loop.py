"""Plain watch mode (`jaxstate-tutor watch`): check the learner's file on every save; put back a
file the learner's program deleted, as last checked; after a pass, Enter goes on to the next
exercise on the path. The loop and its rules live here; the command line is its face."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tutor.files.edited_file import EditedFile
from tutor.files.outside_edits import CHANGED, DELETED
from tutor.i18n import Bilingual
from tutor.progress.path import Step

if TYPE_CHECKING:
    from tutor.course.model import Exercise
    from tutor.progress.state import LearnerState


class Face(Protocol):
    """How the loop checks, asks and speaks (the CLI prints with Rich and reads Enter from a tty)."""

    def file_for(self, exercise: Exercise) -> Path: ...  # the learner's file, created from the starter if missing
    def watching(self, path: Path) -> None: ...
    def check(self, exercise: Exercise, path: Path) -> bool: ...  # run, show and record one check; True if passed
    def offer(
        self, next_exercise: Exercise | None
    ) -> None: ...  # after a pass: what Enter opens (None: that was the last)
    def put_back(self, path: Path, why_not: Bilingual | str | None) -> None: ...  # why_not None: written back
    def checked_elsewhere(self, path: Path) -> None: ...  # this version is checked by another view (the TUI)
    def enter_pressed(self, timeout: float) -> bool: ...  # waits up to `timeout` s


def watch(state: LearnerState, exercise: Exercise, path: Path, face: Face, interval: float) -> None:
    """Watch `exercise` (its file at `path`), then each exercise the learner goes on to, until
    interrupted (KeyboardInterrupt goes to the caller)."""
    while True:  # one exercise per round
        face.watching(path)
        file, offered, checked = EditedFile(path, seen_now=False), None, None  # first round: check it now
        started = False  # the first check runs whoever checked this text before
        while True:
            news = file.poll()
            if news == DELETED:  # most likely by the program itself
                face.put_back(path, file.put_back(checked))
            elif news == CHANGED:
                checked = file.read()
                offered = None
                if started and checked is not None and file.checked_elsewhere(checked):
                    face.checked_elsewhere(path)  # the TUI saved it to check it: one attempt, not two
                else:
                    started = True
                    if checked is not None:
                        file.checking(checked)  # a TUI that reloads this text does not check it again
                    if face.check(exercise, path):
                        nxt = state.refresh().next_step(Step("exercise", exercise.id), kinds=("exercise",))
                        offered = state.loaded_course.exercise(nxt.id) if nxt is not None else None
                        face.offer(offered)
            if face.enter_pressed(interval) and offered is not None:
                exercise = offered
                path = face.file_for(exercise)
                break
