"""The one owner of the learner's progress and of the path (rustlings' AppState): CLI and UI both ask it.

Reads come from an in-memory snapshot, refreshed after each write and on `refresh()`, so a key
press never reads the disk. A change is applied to the snapshot at once and returned as a
`save` callable: the CLI calls it straight away, the UI in a thread (a lock wait or an fsync
on a slow home must not stall the screen). Changes reach the file in the order they were made,
whatever order their saves run in (a save writes every earlier change still waiting with its
own); a save that fails raises ProgressError and leaves the snapshot as the file has it (plus
changes still waiting to save).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.files.outside_edits import FileWatch
from tutor.progress.asking import answered_right, first_try_score
from tutor.progress.path import (
    KINDS,
    Step,
    is_done,
    next_step,
    practice_of,
    step_status,
)
from tutor.progress.review import Clock, DrillReview, drills_due, due, local_today

from .records import Progress
from .snapshot import Snapshot
from .store import ProgressStore

if TYPE_CHECKING:
    from pathlib import Path

    from tutor.course.model import Course, Question
    from tutor.i18n import Bilingual


Change = Callable[..., Progress]  # a tutor.progress.changes function: (progress, *args) -> new progress
Pending = tuple[int, Change, tuple[object, ...]]  # (number, change, args): applied in memory, not saved


@dataclass(frozen=True)
class Summary:
    """Progress over the whole course, as the outline, the progress screen and `progress` show it."""

    lessons_done: int
    lessons: int
    exercises_passed: int
    exercises: int
    quiz_best: int | None
    quiz_questions: int
    quiz_answered: int
    quiz_attempts: int
    quiz_first: int | None  # right on the first try, once every question was answered
    quiz_now: int  # right in the latest answers (a retry of the wrong ones adds to it)
    checkpoints_done: int
    checkpoints: int
    predictions_made: int
    predictions_right: int
    # (lesson id, how many of its questions were never answered), for lessons opened: passed over with c
    predictions_not_made: tuple[tuple[str, int], ...] = ()

    @property
    def steps_done(self) -> int:
        """Lessons read, exercises passed and quiz points: what the outline's bar fills with."""
        return self.lessons_done + self.exercises_passed + (self.quiz_best or 0)

    @property
    def steps(self) -> int:
        return self.lessons + self.exercises + self.quiz_questions


def _apply_all(progress: Progress, batch: list[Pending]) -> Progress:
    for _, change, args in batch:
        progress = change(progress, *args)
    return progress


class LearnerState(Snapshot):
    """Progress of one home over one course: typed reads, the writes, and the path rules."""

    def __init__(self, store: ProgressStore, course: Course | None = None, clock: Clock = local_today) -> None:
        super().__init__()
        self.store = store
        self.course = course  # None until loaded
        self.clock = clock  # the learner's day, for the review (a test moves it)
        self._pending: list[Pending] = []  # (number, change, args) applied in memory, not saved
        self._numbers = itertools.count()
        self._lock = threading.Lock()  # guards the snapshot and the pending list
        self._saving = threading.Lock()  # one save at a time, in the order they were asked
        self._on_disk = self._data  # the file's data as last read or written
        self._file = FileWatch(store.path, seen_now=False)
        self.loaded = False

    # ---- reading ----------------------------------------------------------------------------

    def refresh(self) -> LearnerState:
        """Read the file again (the only read from disk); changes not yet saved stay applied."""
        self._file.seen()
        self._settle(self.store.load())
        self.loaded = True
        return self

    def refresh_if_changed(self) -> bool:
        """Refresh if progress.json changed since it was last read (another tutor, or `check` in
        another terminal); True if it did. For a worker thread: it stats and may read the file."""
        if self._file.poll() is None:
            return False
        self.refresh()
        return True

    def ensure_loaded(self) -> LearnerState:
        return self if self.loaded else self.refresh()

    @property
    def warnings(self) -> list[Bilingual]:
        """What the store found wrong with the file (a damaged or newer progress.json), as Texts."""
        return self.store.warnings

    def predictions_not_made(self, lesson_id: str) -> tuple[str, ...]:
        """The cells of a lesson whose question before running was never answered (skipped with Esc,
        or passed over with c): such a lesson is started, never done."""
        lesson = self.course.lesson(lesson_id) if self.course else None
        if lesson is None:
            return ()
        return tuple(c.id for c in lesson.cells if c.predict is not None and self.prediction(c.id) is None)

    # ---- the path ---------------------------------------------------------------------------

    @property
    def loaded_course(self) -> Course:
        """The course, for what runs only once it has loaded (the path, the summary, the reports)."""
        course = self.course
        assert course is not None, "the course was asked of progress before it loaded"
        return course

    def is_done(self, step: Step) -> bool:
        return is_done(self.loaded_course, step, self)

    def step_status(self, step: Step) -> str:
        return step_status(self.loaded_course, step, self)

    def next_step(self, here: Step | None = None, kinds: tuple[str, ...] = KINDS) -> Step | None:
        """The one "what comes next" rule (tutor.progress.path.next_step) on this progress."""
        return next_step(self.loaded_course, self, here, kinds)

    def reviews_due(self) -> list[Question]:
        """The questions to review today (tutor.progress.review)."""
        return due(self.course, self, self.clock()) if self.course else []

    def drill_reviews_due(self) -> list[DrillReview]:
        """The drills to review today, each with the drill asked for it (tutor.progress.review)."""
        return drills_due(self.course, self, self.clock()) if self.course else []

    def reviews_due_count(self) -> int:
        """How many things are to review today, questions and drills: "N to review today"."""
        return len(self.reviews_due()) + len(self.drill_reviews_due())

    def practice(self, lesson_id: str) -> Step | None:
        return practice_of(self.loaded_course, self, lesson_id)

    def summary(self) -> Summary:
        course = self.loaded_course
        made = self.predictions()
        checkpoints = [Step("checkpoint", c.lesson) for c in course.checkpoints]
        return Summary(
            lessons_done=sum(self.lesson_status(l.id) == "done" for l in course.lessons),
            lessons=len(course.lessons),
            exercises_passed=sum(self.exercise_status(e.id) == "passed" for e in course.exercises),
            exercises=len(course.exercises),
            quiz_best=self.quiz_best_score(),
            quiz_questions=len(course.quiz),
            quiz_answered=sum(self.question(q.id).answered for q in course.quiz),
            quiz_attempts=self.quiz_attempts(),
            quiz_first=first_try_score(course.quiz, self),
            quiz_now=sum(answered_right(q, self) for q in course.quiz),
            checkpoints_done=sum(self.is_done(s) for s in checkpoints),
            checkpoints=len(checkpoints),
            predictions_made=len(made),
            predictions_right=sum(p.correct is True for p in made.values()),
            predictions_not_made=tuple(
                (l.id, len(open_ones))
                for l in course.lessons
                if self.lesson_status(l.id) != "new" and (open_ones := self.predictions_not_made(l.id))
            ),
        )

    # ---- writing ----------------------------------------------------------------------------

    def change(self, fn: Change, *args: object) -> Callable[[], None]:
        """Apply a change (a tutor.progress.changes function) to the snapshot now; return the
        `save` that writes it to disk (raises ProgressError if it cannot)."""
        with self._lock:
            self._data = fn(self._data, *args)  # records are frozen: the old snapshot is untouched
            entry = (next(self._numbers), fn, args)
            self._pending.append(entry)

        return lambda: self._save_through(entry)

    def _save_through(self, entry: Pending) -> None:
        """Write every change up to `entry` that is still waiting (raises ProgressError)."""
        with self._saving:
            with self._lock:
                if entry not in self._pending:
                    return  # written already, with a later change's save
                batch = self._pending[: self._pending.index(entry) + 1]
            try:
                saved = self.store.update(lambda d: _apply_all(d, batch))
            except BaseException:
                self._forget(batch)
                self._settle(None)
                raise
            self._forget(batch)
            self._settle(saved)

    def save_pending(self) -> None:
        """Write every change still waiting, in this thread (raises ProgressError). For the end of
        a session: a save handed to the UI's thread worker starts only when the event loop runs
        again, so code on that loop must not wait for it."""
        with self._lock:
            last = self._pending[-1] if self._pending else None
        if last is not None:
            self._save_through(last)

    def _forget(self, batch: list[Pending]) -> None:
        with self._lock:
            self._pending = [e for e in self._pending if e not in batch]

    def wait_saved(self, timeout: float) -> bool:
        """Wait (at most `timeout` s) until every change has been saved or has failed; True if none is left."""
        deadline = time.monotonic() + timeout
        while self._pending and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._pending

    def save_now(self, fn: Change, *args: object) -> None:
        """Apply and save a change in this thread (the CLI, or a thread already off the UI)."""
        self.change(fn, *args)()

    def _settle(self, data: Progress | None) -> None:
        """The snapshot becomes `data` (the file as read or written; None: keep the last file
        state) with the changes still waiting to save applied on top."""
        with self._lock:
            base = self._on_disk = data if data is not None else self._on_disk
            self._data = _apply_all(base, self._pending)

    def reset(self) -> Path | None:
        """Move the progress file aside (returns the backup path) and start from empty progress."""
        backup = self.store.reset()
        self.refresh()
        return backup
