"""The instructor's table: every file of every export re-judged, beside what the learner's
progress claims. A status comes only from a re-run; a claim is only shown, never believed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from tutor.classroom.archive import Export, ExportedFile
from tutor.classroom.binding import Binding, bind, short
from tutor.classroom.rescore import QUIZ, Score, Shown, rescore
from tutor.classroom.texts import say
from tutor.protocol import GRADE_STATUSES, GradeStatus

if TYPE_CHECKING:
    from tutor.course.model import Course, Exercise

# Beside a verdict's pass | fail | error | timeout: no file for a claimed exercise, a file not run
# (unknown id, too large, not text, an export of another course), a whole export that could not be read.
STATUSES = GRADE_STATUSES
# A claim the evidence does not support: a claimed pass the re-run does not confirm (the progress
# file was edited, or the file changed), or a first-try score its answers do not give.
FLAG = "forged or stale"
# The export was made on another version of the course, or does not say which course it is of.
FLAG_VERSION = "other course version"
FLAG_UNSAID = "course not said"
FLAGS = (FLAG, FLAG_VERSION, FLAG_UNSAID)
COLUMNS = (
    "learner",
    "learner_id",
    "export",
    "exercise",
    "status",
    "claimed",
    "flag",
    "checks_passed",
    "points",
    "points_possible",
    "total",
    "total_possible",
    "roster",
    "similar_group",
    "similar_to",
    "reference",
    "solution_viewed",
    "hints",
    "first_passed_at",
    "exported_at",
    "submitted_at",
    "late",
    "quiz_first_try",
    "checkpoints_first_try",
    "isolation",
    "note",
)


@dataclass
class Row:
    learner: str
    export: str
    exercise: str
    status: GradeStatus | Literal[""]  # "": not judged yet
    claimed: str = ""
    checks_passed: str = ""
    quiz_first_try: str = ""  # re-scored from the answers: "5/8"
    checkpoints_first_try: str = ""  # re-scored: "6.1 2/3; 6.2 3/3"
    isolation: str = ""  # what walled the re-run in: "bwrap" or "fence" (tutor.sandbox.bwrap); empty where nothing ran
    notes: list[str] = field(default_factory=list)
    learner_flags: tuple[str, ...] = ()  # of the whole export: a score unsupported, another course version
    # the gradebook's (tutor.classroom.gradebook): who on the roster, what it is worth, what to look at
    learner_id: str = ""
    points: str = ""
    points_possible: str = ""
    total: str = ""
    total_possible: str = ""
    roster: str = ""  # "", "not on roster", "N exports", "no export"
    similar_group: str = ""
    similar_to: str = ""
    reference: str = ""
    solution_viewed: str = ""
    hints: str = ""
    first_passed_at: str = ""
    exported_at: str = ""
    submitted_at: str = ""  # the exchange's time of hand-in (the file's ctime): not the learner's clock
    late: str = ""
    source: str | None = field(default=None, repr=False)  # the file as handed in: compared, never written
    scores: tuple[Score, ...] = field(default=(), repr=False)  # the export's first tries, re-scored

    @property
    def pass_unconfirmed(self) -> bool:
        """A claimed pass the re-run does not confirm."""
        return self.claimed == "passed" and self.status != "pass"

    @property
    def flags(self) -> list[str]:
        own = [FLAG] if self.pass_unconfirmed else []
        return list(dict.fromkeys(own + list(self.learner_flags)))

    @property
    def flag(self) -> str:
        return "; ".join(self.flags)

    def as_dict(self) -> dict[str, str]:
        values = {name: getattr(self, name, "") for name in COLUMNS if name != "note"}
        values["note"] = "; ".join(self.notes)
        return values


@dataclass(frozen=True)
class Judged:
    """A re-run's outcome: its status, checks passed of checks run, and why it failed (one line)."""

    status: GradeStatus
    checks_passed: int
    checks: int
    why: str = ""
    isolation: str = ""


# judge(exercise, source): one handed-in file re-run against the exercise's checks
Judge = Callable[["Exercise", str], Judged]


@dataclass(frozen=True)
class Rescored:
    """The first-try scores of one export judged again, as the table shows them, and what they flag."""

    quiz: str
    checkpoints: str
    flags: tuple[str, ...]
    notes: tuple[str, ...]
    scores: tuple[Score, ...] = ()


def first_tries(export: Export, course: Course, shown: Shown, lang: str) -> Rescored:
    """The quiz's and each checkpoint's first-try score as the export's answers give them against
    the course ("5/8", "6.1 2/3"), never as claimed; a claim they do not give is flagged and named."""
    scores = rescore(course, export.progress, export.answers, shown)
    quiz = next((s for s in scores if s.part == QUIZ), None)
    checkpoints = "; ".join(f"{s.part} {s.text}" for s in scores if s.part != QUIZ and s.text)
    notes = [_unsupported(s, lang) for s in scores if not s.supported]
    if export.answers is None and any(s.claimed is not None for s in scores):
        notes.append(say("no_answers", lang))
    return Rescored(quiz.text if quiz else "", checkpoints, (FLAG,) if notes else (), tuple(notes), tuple(scores))


def _unsupported(score: Score, lang: str) -> str:
    part = say("part_quiz", lang) if score.part == QUIZ else say("part_checkpoint", lang, lesson=score.part)
    claimed = f"{score.claimed}/{score.questions}" if _count(score.claimed) else repr(score.claimed)
    if score.right is None:
        said = say("score_unjudged", lang, part=part, claimed=claimed, ids=", ".join(score.unjudged))
        if score.lost:  # the tutor that recorded them kept no answers: say so, it is not the learner's doing
            said += say("score_lost", lang, ids=", ".join(score.lost))
        return said
    return say("score_unsupported", lang, part=part, claimed=claimed, right=score.text)


def _count(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def grade_export(
    export: Export,
    course: Course,
    judge: Judge,
    lang: str,
    on_row: Callable[[Row], None] | None = None,
    shown: Shown = lambda question, variant: None,
) -> list[Row]:
    """One row per exercise of the course, in its order, and one per id the export names that the
    course does not know, after them. `judge(exercise, source)` re-runs one file;
    `shown(question, variant)` what a template question's variant prints (tutor.classroom.rescore).
    An export of another course is refused whole: one row that says whose it is."""
    binding = bind(export, course)
    if binding.refused:
        row = Row(learner=export.learner, export=export.path.name, exercise="", status="refused")
        row.notes.append(_binding_note(binding, lang))
        if on_row is not None:
            on_row(row)
        return [row]
    scores = first_tries(export, course, shown, lang)
    learner_flags = scores.flags + ((FLAG_VERSION,) if binding.verdict == "other-version" else ())
    learner_flags += (FLAG_UNSAID,) if binding.verdict == "unsaid" else ()
    learner_notes = list(scores.notes) + ([_binding_note(binding, lang)] if binding.flagged else [])
    files = {f.exercise_id: f for f in export.files}
    known = [e.id for e in course.exercises]
    wanted = set(files) | set(export.claimed_ids())
    order = known + sorted(i for i in wanted if i not in known)
    rows = []
    for exercise_id in order:
        row = Row(
            learner=export.learner,
            export=export.path.name,
            exercise=exercise_id,
            status="",
            claimed=export.claimed_status(exercise_id),
            quiz_first_try=scores.quiz,
            checkpoints_first_try=scores.checkpoints,
            learner_flags=learner_flags,
            scores=scores.scores,
        )
        _judge_one(row, course.exercise(exercise_id), files.get(exercise_id), judge, lang)
        row.notes += learner_notes
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


def _judge_one(row: Row, exercise: Exercise | None, file: ExportedFile | None, judge: Judge, lang: str) -> None:
    if exercise is None:
        row.status = "refused"
        row.notes.append(say("unknown_exercise", lang, id=row.exercise))
        return
    if file is None:
        row.status = "missing"
        row.notes.append(say("no_file" if row.claimed in ("attempted", "passed") else "not_attempted", lang))
        return
    row.source = file.source
    if file.source is None:
        row.status = "refused"
        key, fields = file.problem or ("file_not_text", {"why": "?"})
        row.notes.append(say(key, lang, **fields))
        return
    judged = judge(exercise, file.source)
    row.status = judged.status
    row.checks_passed = f"{judged.checks_passed}/{judged.checks}"
    row.isolation = judged.isolation
    if judged.why:
        row.notes.append(judged.why)
    if file.kind == "latest":
        row.notes.append(say("was_latest", lang))
    if not file.sha256_matches:
        row.notes.append(say("hash_differs", lang))


def _binding_note(binding: Binding, lang: str) -> str:
    ours = binding.ours
    if binding.verdict == "unsaid":
        return say("course_unsaid", lang, id=ours["id"])
    theirs = binding.theirs or {}
    title = theirs.get("title")
    title_text = title.get(lang) or title.get("en") if isinstance(title, dict) else None
    fields = {
        "id": theirs.get("id"),
        "title": title_text if isinstance(title_text, str) else "?",
        "ours": ours["id"],
        "our_title": ours["title"][lang],
        "hash": short(theirs.get("content_hash")),
        "our_hash": short(ours["content_hash"]),
    }
    return say("course_other" if binding.refused else "course_version", lang, **fields)


def unreadable_row(path: Path, why: str) -> Row:
    """The row of an export that could not be read at all: the class list still shows the learner."""
    return Row(learner=path.stem, export=path.name, exercise="", status="unreadable", notes=[why])
