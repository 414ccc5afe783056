"""The instructor's table: every file of every export re-judged, beside what the learner's
progress claims. A status comes only from a re-run; a claim is only shown, never believed."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tutor.classroom.archive import Export, ExportedFile
from tutor.classroom.texts import say

# Beside a verdict's pass | fail | error | timeout: no file for a claimed exercise, a file not run
# (unknown id, too large, not text), a whole export that could not be read.
STATUSES = ("pass", "fail", "error", "timeout", "missing", "refused", "unreadable")
FLAG = (
    "forged or stale"  # a claimed pass the re-run does not confirm: the progress file was edited, or the file changed
)
COLUMNS = (
    "learner",
    "export",
    "exercise",
    "status",
    "claimed",
    "flag",
    "checks_passed",
    "quiz_first_try_unverified",
    "checkpoints_first_try_unverified",
    "isolation",
    "note",
)


@dataclass
class Row:
    learner: str
    export: str
    exercise: str
    status: str
    claimed: str = ""
    checks_passed: str = ""
    quiz_first_try_unverified: str = ""
    checkpoints_first_try_unverified: str = ""
    isolation: str = ""  # what walled the re-run in: "bwrap" or "fence" (tutor.sandbox.bwrap); empty where nothing ran
    notes: list[str] = field(default_factory=list)

    @property
    def flag(self) -> str:
        return FLAG if self.claimed == "passed" and self.status != "pass" else ""

    def as_dict(self) -> dict[str, str]:
        values = {name: getattr(self, name, "") for name in COLUMNS if name != "note"}
        values["note"] = "; ".join(self.notes)
        return values


@dataclass(frozen=True)
class Judged:
    """A re-run's outcome: its status, checks passed of checks run, and why it failed (one line)."""

    status: str
    checks_passed: int
    checks: int
    why: str = ""
    isolation: str = ""


def first_tries(export: Export, course) -> tuple[str, str]:
    """The learner's claimed first-try scores: the quiz ("5/8") and each checkpoint ("6.1 2/3"),
    as their progress says; nothing re-runs them, so a grader cannot confirm them."""
    progress = export.progress
    quiz = progress.get("quiz")
    first = quiz.get("first_score") if isinstance(quiz, dict) else None
    quiz_text = f"{first}/{len(course.quiz)}" if _count(first) else ""
    parts = []
    checkpoints = progress.get("checkpoints")
    for c in checkpoints if isinstance(checkpoints, list) else []:
        if isinstance(c, dict) and _count(c.get("first_score")) and _count(c.get("questions")):
            parts.append(f"{c.get('lesson')} {c['first_score']}/{c['questions']}")
    return quiz_text, "; ".join(parts)


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def grade_export(
    export: Export,
    course,
    judge: Callable[[object, str], Judged],
    lang: str,
    on_row: Callable[[Row], None] | None = None,
) -> list[Row]:
    """One row per exercise the export has a file for or a claim about, in the course's order
    (ids the course does not know after it). `judge(exercise, source)` re-runs one file."""
    quiz, checkpoints = first_tries(export, course)
    files = {f.exercise_id: f for f in export.files}
    known = [e.id for e in course.exercises]
    wanted = set(files) | set(export.claimed_ids())
    order = [i for i in known if i in wanted] + sorted(i for i in wanted if i not in known)
    rows = []
    for exercise_id in order:
        row = Row(
            learner=export.learner,
            export=export.path.name,
            exercise=exercise_id,
            status="",
            claimed=export.claimed_status(exercise_id),
            quiz_first_try_unverified=quiz,
            checkpoints_first_try_unverified=checkpoints,
        )
        _judge_one(row, course.exercise(exercise_id), files.get(exercise_id), judge, lang)
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows


def _judge_one(row: Row, exercise, file: ExportedFile | None, judge, lang: str) -> None:
    if exercise is None:
        row.status = "refused"
        row.notes.append(say("unknown_exercise", lang, id=row.exercise))
        return
    if file is None:
        row.status = "missing"
        row.notes.append(say("no_file", lang))
        return
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


def unreadable_row(path: Path, why: str) -> Row:
    """The row of an export that could not be read at all: the class list still shows the learner."""
    return Row(learner=path.stem, export=path.name, exercise="", status="unreadable", notes=[why])


def summary(rows: Iterable[Row]) -> dict[str, int]:
    rows = list(rows)
    return {
        "learners": len({(r.learner, r.export) for r in rows if r.status != "unreadable"}),
        "files": sum(r.status in ("pass", "fail", "error", "timeout") for r in rows),
        "problems": sum(r.status == "unreadable" for r in rows),
        "flagged": sum(bool(r.flag) for r in rows),
    }
