"""Typed, read-only answers about one progress document (tutor.progress.records) at one moment."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tutor.protocol import ExerciseStatus, LessonStatus

from .records import (
    DrillRecord,
    DrillReviewItem,
    ExerciseRecord,
    Given,
    Prediction,
    Progress,
    QuestionRecord,
    ReviewItem,
)

__all__ = [
    "DrillReviewItem",
    "DrillRecord",
    "ExerciseRecord",
    "Given",
    "Prediction",
    "QuestionRecord",
    "ReviewItem",
    "Snapshot",
]


class Snapshot:
    """Progress as read at one moment. Callers ask questions; a record never seen reads as its defaults."""

    def __init__(self, progress: Progress | None = None):
        self._data = progress if progress is not None else Progress()

    def exercise(self, exercise_id: str) -> ExerciseRecord:
        return self._data.exercises.get(exercise_id, ExerciseRecord())

    def exercise_status(self, exercise_id: str) -> ExerciseStatus:
        """'new' if never checked, else 'attempted' or 'passed'."""
        return self.exercise(exercise_id).status

    def exercises_seen(self) -> dict[str, ExerciseRecord]:
        """Every exercise progress has a record of (ids the course may no longer have included)."""
        return dict(self._data.exercises)

    def lesson_status(self, lesson_id: str) -> LessonStatus:
        """'new' if never opened, else 'started' or 'done'."""
        entry = self._data.lessons.get(lesson_id)
        return entry.status if entry is not None else "new"

    def lessons_seen(self) -> dict[str, LessonStatus]:
        """Status of every lesson progress has a record of."""
        return {k: r.status for k, r in self._data.lessons.items()}

    def quiz_answers(self) -> Mapping[str, str]:
        """Latest answer per quiz question id (read-only)."""
        return MappingProxyType(dict(self._data.quiz.answers))

    def question(self, question_id: str) -> QuestionRecord:
        """A question's record; for a quiz answer saved before questions were recorded, its
        letter alone (right or wrong is then the course's to say)."""
        entry = self._data.questions.get(question_id)
        if entry is not None:
            return entry
        old = self._data.quiz.answers.get(question_id)
        return QuestionRecord(answer=old) if old is not None else QuestionRecord()

    def quiz_best_score(self) -> int | None:
        return self._data.quiz.best_score

    def quiz_attempts(self) -> int:
        return self._data.quiz.attempts

    def prediction(self, cell_id: str) -> Prediction | None:
        """The learner's recorded guess for a cell, or None if none was made."""
        entry = self._data.predictions.get(cell_id)
        return entry if entry is not None and entry.answer else None

    def predictions(self) -> dict[str, Prediction]:
        """Every cell with a recorded guess."""
        return {k: p for k, p in self._data.predictions.items() if p.answer}

    def drill(self, drill_id: str) -> DrillRecord:
        return self._data.drills.get(drill_id, DrillRecord())

    def review_on(self) -> bool:
        """Whether questions answered wrong come back for review (the learner can turn it off)."""
        return self._data.review.on

    def review_items(self) -> dict[str, ReviewItem]:
        """Every question scheduled to come back, by id."""
        return dict(self._data.review.items)

    def review_drills(self) -> dict[str, DrillReviewItem]:
        """Every drill scheduled to come back, by the id of the drill answered wrong."""
        return dict(self._data.review.drills)

    def position(self) -> str | None:
        """The step key last opened ("exercise:counter-jit"), where `continue` resumes."""
        return self._data.position
