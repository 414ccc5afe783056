"""progress.json's records, written once: each a frozen dataclass, read by the protocol codec's
tolerant mode (a bad value repaired to its field's default and named, a bad entry dropped and
named, keys this tutor does not know kept in `unknown` and written back as they were), and
written back by the same codec. Nothing else names a field of the file; a change is a
`dataclasses.replace` of a record (tutor.progress.changes)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from tutor.i18n import Bilingual
from tutor.protocol import COUNT, SPARSE, UNKNOWN, ExerciseStatus, StoredLessonStatus, decode_tolerant, encode_tolerant

# 2: `review` (the schedule of questions coming back, tutor.progress.review). A schema-1 file is
# read as 2 with its review seeded from the answers still wrong; a tutor that knows only 1 reads a
# 2 and never writes over it.
SCHEMA = 2

Unknown = Mapping[str, Any]  # a record's keys this tutor does not know, as the file had them
_NOTHING: Unknown = MappingProxyType({})


def _empty() -> Unknown:
    return _NOTHING  # shared: nothing writes into a record's maps, a change makes new ones


def _unknown() -> Any:
    return field(default_factory=_empty, metadata=UNKNOWN, repr=False)


def _count(default: int | None = 0) -> Any:
    return field(default=default, metadata=COUNT)


@dataclass(frozen=True)
class ExerciseRecord:
    """What progress knows about one exercise (defaults for one never checked)."""

    status: ExerciseStatus = "new"
    attempts: int = _count()
    hints_shown: int = _count()
    solution_viewed: bool = False
    first_passed_at: str | None = None  # UTC, ISO-8601 with a Z
    last_attempt_at: str | None = None
    unknown: Unknown = _unknown()


@dataclass(frozen=True)
class LessonRecord:
    """A lesson opened ("started") or read to its end ("done")."""

    status: StoredLessonStatus = "started"
    unknown: Unknown = _unknown()


@dataclass(frozen=True)
class Prediction:
    """A cell's `predict:` (keyed by cell id): the learner's first guess, when it was made, and once
    the cell ran, what it showed and whether the guess matched."""

    answer: str = ""
    predicted_at: str | None = None
    shown: str | None = None
    correct: bool | None = None
    unknown: Unknown = _unknown()


@dataclass(frozen=True)
class Given:
    """One answer as the learner gave it: its text, the variant it was asked in, and when.
    `lost`: answered before answers were kept, and more than once (the first is not known)."""

    answer: str
    variant: int = _count()
    at: str | None = None
    lost: bool = field(default=False, metadata=SPARSE)
    unknown: Unknown = _unknown()

    def as_dict(self) -> dict[str, Any]:
        """As `progress --json` shows it."""
        out: dict[str, Any] = {"answer": self.answer, "variant": self.variant, "at": self.at}
        return out | {"lost": True} if self.lost else out


@dataclass(frozen=True)
class QuestionRecord:
    """A checkpoint or quiz question (keyed by question id): the latest answer and whether it was
    right, whether the first answer ever given was, which template variants were drawn, and the
    answers themselves (`given`, first first), so a grader can judge them again against the course."""

    answer: str = ""  # the latest answer: an authored letter, or the number typed
    correct: bool | None = None  # whether it was right (None: from a file that did not say)
    first_correct: bool | None = None  # whether the first answer ever given was right
    tries: int = _count()
    variants: tuple[int, ...] = field(default=(), metadata=COUNT)  # drawn so far, in order
    answered_at: str | None = None
    given: tuple[Given, ...] = ()  # every answer kept, the first first
    unknown: Unknown = _unknown()

    @property
    def answered(self) -> bool:
        return bool(self.answer)


@dataclass(frozen=True)
class DrillRecord:
    """A spot-the-bug drill (keyed by "<exercise>/<name>"): the latest try (the line pointed at, the
    belief picked, whether both were right), whether the first try was, and how many."""

    line: int = _count()
    belief: str = ""
    correct: bool | None = None
    first_correct: bool | None = None
    tries: int = _count()
    answered_at: str | None = None
    unknown: Unknown = _unknown()

    @property
    def answered(self) -> bool:
        return self.tries > 0


@dataclass(frozen=True)
class ReviewItem:
    """A question coming back: its step in the schedule (0: a day after a wrong answer, 1: three
    days after the first right review, 2: a week after the second) and the day it is due."""

    step: int = field(metadata=COUNT)
    due: str  # YYYY-MM-DD, the learner's local day
    unknown: Unknown = _unknown()


@dataclass(frozen=True)
class DrillReviewItem(ReviewItem):
    """A drill answered wrong, coming back: as a question's, plus the drills asked for it so far
    (the oldest first), so that each review asks another."""

    shown: tuple[str, ...] = field(default=(), metadata=SPARSE)


@dataclass(frozen=True)
class Review:
    """The review schedule: whether it is on, and each question and drill coming back, by id (a
    drill's by the id of the drill answered wrong)."""

    on: bool = True
    items: Mapping[str, ReviewItem] = field(default_factory=_empty)
    drills: Mapping[str, DrillReviewItem] = field(default_factory=_empty)
    unknown: Unknown = _unknown()


@dataclass(frozen=True)
class Quiz:
    """The quiz's latest answers (by question id, where `progress --json` has always shown them),
    its best score and how many runs were finished."""

    answers: Mapping[str, str] = field(default_factory=_empty)
    best_score: int | None = _count(None)
    attempts: int = _count()
    unknown: Unknown = _unknown()


@dataclass(frozen=True)
class Progress:
    """The whole file. `schema` is kept as read when newer (such a file is never written)."""

    schema: int = SCHEMA
    exercises: Mapping[str, ExerciseRecord] = field(default_factory=_empty)
    lessons: Mapping[str, LessonRecord] = field(default_factory=_empty)
    predictions: Mapping[str, Prediction] = field(default_factory=_empty)
    questions: Mapping[str, QuestionRecord] = field(default_factory=_empty)
    drills: Mapping[str, DrillRecord] = field(default_factory=_empty)
    quiz: Quiz = Quiz()
    review: Review = Review()
    position: str | None = field(default=None, metadata=SPARSE)  # the step last opened ("exercise:adam")
    unknown: Unknown = _unknown()


def put(records: Mapping[str, Any], key: str, record: Any) -> dict[str, Any]:
    """`records` with `key`'s record replaced (or added): a change's new map, the old one untouched."""
    return {**records, key: record}


def decode(doc: Any) -> tuple[Progress, list[Bilingual]]:
    """(the progress, the problems found): every good part of a damaged document salvaged."""
    problems: list[Bilingual] = []
    if not isinstance(doc, dict):
        kind = type(doc).__name__
        problems.append(Bilingual(en=f"top level is {kind}, not an object", zh=f"顶层是 {kind}，不是对象"))
        doc = {}
    schema = doc.get("schema", SCHEMA)
    if type(schema) is not int or schema < 1:
        problems.append(Bilingual(en="'schema' is not a version number", zh="'schema' 不是版本号"))
        schema = SCHEMA
    progress = decode_tolerant(Progress, {k: v for k, v in doc.items() if k != "schema"}, "", problems)
    assert progress is not None  # an object, and every field of Progress has a default
    questions = doc.get("questions")
    before_kept = {
        qid: replace(q, given=_given_before_kept(q))
        for qid, q in progress.questions.items()
        if isinstance(questions, dict) and "given" not in questions[qid]
    }
    review = progress.review
    if "review" not in doc and schema < 2:
        review = Review(items=_review_of_schema_1(progress.questions))
    # a schema-1 file is read as 2 (written back as 2, with its review); a newer one keeps its number
    # so it is never silently downgraded
    return replace(progress, schema=max(schema, 2), questions={**progress.questions, **before_kept}, review=review), (
        problems
    )


def encode(progress: Progress) -> dict[str, Any]:
    """The file's document (its keys sorted when written)."""
    return encode_tolerant(progress)


def _review_of_schema_1(questions: Mapping[str, QuestionRecord]) -> dict[str, ReviewItem]:
    """The review a file from before reviews starts with: each question whose latest answer is
    wrong comes back the day after that answer (a day long past, where that day is not known)."""
    items = {}
    for qid, entry in questions.items():
        if entry.correct is False:
            at = entry.answered_at or ""
            items[qid] = ReviewItem(step=0, due=_day_after(at[:10]) if len(at) >= 10 else "0001-01-01")
    return items


def _day_after(day: str) -> str:
    try:
        return (datetime.strptime(day, "%Y-%m-%d") + timedelta(days=1)).strftime("%Y-%m-%d")
    except ValueError:
        return "0001-01-01"


def _given_before_kept(entry: QuestionRecord) -> tuple[Given, ...]:
    """`given` of a question answered before answers were kept (schema 1 as 92686d9 wrote it):
    after one try, its only answer is the first (asked in the first variant drawn); after more,
    the first is lost, and said so, so nothing takes the latest for it."""
    if not entry.tries or not entry.answer:
        return ()
    if entry.tries == 1:
        variant = entry.variants[0] if entry.variants else 0
        return (Given(entry.answer, variant, entry.answered_at),)
    latest = entry.variants[-1] if entry.variants else 0
    return (Given("", 0, None, lost=True), Given(entry.answer, latest, entry.answered_at))
