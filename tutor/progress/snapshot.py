"""Typed, read-only answers about one normalized progress document: the only code that indexes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from tutor.protocol import EXERCISE_STATUSES, STORED_LESSON_STATUSES, ExerciseStatus, LessonStatus, word_in

from .store import normalize


@dataclass(frozen=True)
class ExerciseRecord:
    """What progress knows about one exercise (defaults for one never checked)."""

    status: ExerciseStatus = "new"
    attempts: int = 0
    hints_shown: int = 0
    solution_viewed: bool = False
    first_passed_at: str | None = None  # UTC, ISO-8601 with a Z
    last_attempt_at: str | None = None


@dataclass(frozen=True)
class Prediction:
    """A cell's recorded guess and, once the cell ran, what it showed and whether the guess matched."""

    answer: str
    shown: str | None = None
    correct: bool | None = None


@dataclass(frozen=True)
class Given:
    """One answer as the learner gave it: its text, the variant it was asked in, and when.
    `lost`: answered before answers were kept, and more than once (the first is not known)."""

    answer: str
    variant: int = 0
    at: str | None = None
    lost: bool = False

    def as_dict(self) -> dict:
        out = {"answer": self.answer, "variant": self.variant, "at": self.at}
        return out | {"lost": True} if self.lost else out


@dataclass(frozen=True)
class QuestionRecord:
    """What progress knows about one checkpoint or quiz question."""

    answer: str = ""  # the latest answer: an authored letter, or the number typed
    correct: bool | None = None  # whether it was right (None: from a file that did not say)
    first_correct: bool | None = None  # whether the first answer ever given was right
    tries: int = 0
    variants: tuple[int, ...] = ()  # template variants drawn so far, in order
    given: tuple[Given, ...] = ()  # every answer kept, the first first

    @property
    def answered(self) -> bool:
        return bool(self.answer)


@dataclass(frozen=True)
class DrillRecord:
    """A spot-the-bug drill's tries: the latest line and belief picked, and whether they were right."""

    line: int = 0
    belief: str = ""
    correct: bool | None = None  # the latest try: the line and the belief both right
    first_correct: bool | None = None
    tries: int = 0

    @property
    def answered(self) -> bool:
        return self.tries > 0


@dataclass(frozen=True)
class ReviewItem:
    """A question coming back: its step in the schedule (0: a day after a wrong answer, 1: three
    days after the first right review, 2: a week after the second) and the day it is due."""

    step: int
    due: str  # YYYY-MM-DD, the learner's local day


@dataclass(frozen=True)
class DrillReviewItem(ReviewItem):
    """A drill answered wrong, coming back: as a question's, plus the drills asked for it so far
    (the oldest first), so that each review asks another."""

    shown: tuple[str, ...] = ()


class Snapshot:
    """Progress as read at one moment. Callers ask questions; they never see the dict."""

    def __init__(self, data: dict | None = None):
        self._data = data if data is not None else normalize({})[0]

    def exercise(self, exercise_id: str) -> ExerciseRecord:
        entry = self._data["exercises"].get(exercise_id)
        if not isinstance(entry, dict):
            return ExerciseRecord()
        status = word_in(EXERCISE_STATUSES, entry.get("status"), "new")
        return ExerciseRecord(
            status=status,
            attempts=entry.get("attempts", 0),
            hints_shown=entry.get("hints_shown", 0),
            solution_viewed=bool(entry.get("solution_viewed")),
            first_passed_at=entry.get("first_passed_at"),
            last_attempt_at=entry.get("last_attempt_at"),
        )

    def exercise_status(self, exercise_id: str) -> ExerciseStatus:
        """'new' if never checked, else 'attempted' or 'passed'."""
        return self.exercise(exercise_id).status

    def exercises_seen(self) -> dict[str, ExerciseRecord]:
        """Every exercise progress has a record of (ids the course may no longer have included)."""
        return {k: self.exercise(k) for k in self._data["exercises"]}

    def lesson_status(self, lesson_id: str) -> LessonStatus:
        """'new' if never opened, else 'started' or 'done'."""
        entry = self._data["lessons"].get(lesson_id)
        return entry["status"] if isinstance(entry, dict) and entry.get("status") in STORED_LESSON_STATUSES else "new"

    def lessons_seen(self) -> dict[str, LessonStatus]:
        """Status of every lesson progress has a record of."""
        return {k: self.lesson_status(k) for k in self._data["lessons"]}

    def quiz_answers(self) -> Mapping[str, str]:
        """Latest answer per quiz question id (read-only)."""
        return MappingProxyType(self._data["quiz"]["answers"])

    def question(self, question_id: str) -> QuestionRecord:
        """A question's record; for a quiz answer saved before questions were recorded, its
        letter alone (right or wrong is then the course's to say)."""
        entry = self._data["questions"].get(question_id)
        if isinstance(entry, dict):
            return QuestionRecord(
                answer=entry.get("answer", ""),
                correct=entry.get("correct"),
                first_correct=entry.get("first_correct"),
                tries=entry.get("tries", 0),
                variants=tuple(entry.get("variants", ())),
                given=tuple(
                    Given(g["answer"], g.get("variant", 0), g.get("at"), bool(g.get("lost")))
                    for g in entry.get("given", ())
                ),
            )
        old = self._data["quiz"]["answers"].get(question_id)
        return QuestionRecord(answer=old) if isinstance(old, str) else QuestionRecord()

    def quiz_best_score(self) -> int | None:
        return self._data["quiz"]["best_score"]

    def quiz_attempts(self) -> int:
        return self._data["quiz"]["attempts"]

    def prediction(self, cell_id: str) -> Prediction | None:
        """The learner's recorded guess for a cell, or None if none was made."""
        entry = self._data["predictions"].get(cell_id)
        if not isinstance(entry, dict) or not entry.get("answer"):
            return None
        return Prediction(answer=entry["answer"], shown=entry.get("shown"), correct=entry.get("correct"))

    def predictions(self) -> dict[str, Prediction]:
        """Every cell with a recorded guess."""
        made = {k: self.prediction(k) for k in self._data["predictions"]}
        return {k: p for k, p in made.items() if p is not None}

    def drill(self, drill_id: str) -> DrillRecord:
        entry = self._data["drills"].get(drill_id)
        if not isinstance(entry, dict):
            return DrillRecord()
        return DrillRecord(
            line=entry["line"],
            belief=entry["belief"],
            correct=entry["correct"],
            first_correct=entry["first_correct"],
            tries=entry["tries"],
        )

    def review_on(self) -> bool:
        """Whether questions answered wrong come back for review (the learner can turn it off)."""
        return self._data["review"]["on"]

    def review_items(self) -> dict[str, ReviewItem]:
        """Every question scheduled to come back, by id."""
        return {k: ReviewItem(v["step"], v["due"]) for k, v in self._data["review"]["items"].items()}

    def review_drills(self) -> dict[str, DrillReviewItem]:
        """Every drill scheduled to come back, by the id of the drill answered wrong."""
        return {
            k: DrillReviewItem(v["step"], v["due"], tuple(v.get("shown", ())))
            for k, v in self._data["review"]["drills"].items()
        }

    def position(self) -> str | None:
        """The step key last opened ("exercise:counter-jit"), where `continue` resumes."""
        value = self._data.get("position")
        return value if isinstance(value, str) else None
