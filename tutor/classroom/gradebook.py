"""What turns re-judged rows into a gradebook: points and totals from the course, the roster (who
handed in nothing, whose export is not on it, who handed in twice), and what an instructor
should look at before believing a pass: hand-ins that are the same work, hand-ins that are the
reference solution, a solution viewed, hints used, and times past the due time.

Everything here but the re-run's status is the learner's own record (times, hints, a solution
viewed, first-try scores) or a likeness: shown to be looked at, never a verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tutor.classroom import similarity
from tutor.classroom.archive import Export
from tutor.classroom.grading import FLAG, FLAG_UNSAID, FLAG_VERSION, Row
from tutor.classroom.rescore import QUIZ
from tutor.classroom.roster import Learner, find
from tutor.classroom.texts import say

if TYPE_CHECKING:
    from tutor.course.model import Course

EXPORT_PREFIX = "jaxstate-tutor-export-"  # `export`'s default file name, before the learner's
# The `roster` column's values: fixed words a script can match, whatever --lang is.
NOT_ON_ROSTER = "not on roster"
NO_EXPORT = "no export"
EXPORTS = "{n} exports"  # of one learner: neither is kept


def number(value: float) -> str:
    return f"{round(value, 2):g}"


def parse_time(text: str) -> datetime | None:
    """An ISO-8601 time; without an offset it is UTC (what `export` writes has a Z)."""
    try:
        t = datetime.fromisoformat(text.strip())
    except (ValueError, AttributeError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def parts_earned(rows: Sequence[Row], course: Course) -> dict[str, tuple[float, float]]:
    """Each graded checkpoint's and the quiz's (points earned, points possible), by its column's
    name: the declared points times the share right at the first try, as the export's answers give
    it against the course (tutor.classroom.rescore); nothing where a first answer is missing."""
    scores = {s.part: s for s in (rows[0].scores if rows else ())}
    out: dict[str, tuple[float, float]] = {}
    for column, part, points in _graded_parts(course):
        score = scores.get(part)
        right = score.right if score is not None and score.right is not None and score.questions else 0
        out[column] = (points * right / score.questions if right and score else 0.0, points)
    return out


def _graded_parts(course: Course) -> list[tuple[str, str, float]]:
    """(column, rescore's part, points) of each checkpoint and the quiz the course gives points."""
    parts = [(f"checkpoint {cp.lesson}", cp.lesson, cp.points) for cp in course.checkpoints if cp.points > 0]
    return parts + ([("quiz", QUIZ, course.quiz_points)] if course.quiz_points > 0 else [])


def possible_parts(course: Course) -> dict[str, float]:
    return {column: points for column, _, points in _graded_parts(course)}


def fill_export(rows: Sequence[Row], export: Export, course: Course, exported_at: str) -> dict[str, Any]:
    """The columns one export settles alone: points, the learner's record of hints, a viewed
    solution and the first pass, the export's time, and the total. Returns its parts' points."""
    parts = parts_earned(rows, course)
    total = sum(earned for earned, _ in parts.values())
    possible = sum(p for _, p in parts.values())
    for row in rows:
        exercise = course.exercise(row.exercise)
        worth = exercise.points if exercise is not None else 0.0
        earned = worth if row.status == "pass" else 0.0
        row.points, row.points_possible = number(earned), number(worth)
        total += earned
        possible += worth
        if not row.exercise:  # an export refused whole (another course): nothing of it is the course's
            continue
        record = export.exercise_record(row.exercise)
        row.solution_viewed = "yes" if record["solution_viewed"] else "no"
        hints = record["hints_shown"]
        row.hints = f"{hints}/{len(exercise.hints)}" if exercise is not None else str(hints)
        row.first_passed_at = record["first_passed_at"] or ""
        row.exported_at = exported_at
    for row in rows:
        row.total, row.total_possible = number(total), number(possible)
    return parts


@dataclass
class Hand:
    """One export as the gradebook sees it: its rows, whose it is, what its parts earned."""

    export: str
    learner_key: str
    rows: list[Row]
    parts: dict[str, Any]
    readable: bool = True


def _duration(seconds: float) -> str:
    """How long, in the unit a person reads it in: 40 s, 12 min, 5.5 h, 3.2 d."""
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{number(seconds / size) if unit != 'min' else round(seconds / size)} {unit}"
    return f"{round(seconds)} s"


def mark_late(rows: Sequence[Row], due: datetime, lang: str) -> None:
    """`late`: how long after the due time the export was handed in (the exchange's time where it
    came through one, else the export's own), and the exercise first passed."""
    for row in rows:
        if row.status == "missing" or not row.exercise:  # nothing handed in for it: nothing late
            continue
        said = []
        handed_in = ("late_submit", row.submitted_at) if row.submitted_at else ("late_export", row.exported_at)
        for key, when in (handed_in, ("late_pass", row.first_passed_at)):
            t = parse_time(when) if when else None
            if t is not None and t > due:
                said.append(say(key, lang, after=_duration((t - due).total_seconds())))
        row.late = "; ".join(said)


def mark_similar(rows: Sequence[Row], course: Course, lang: str) -> dict[str, int]:
    """`similar_group` and `similar_to`: hand-ins of one exercise that are the same work;
    `reference`: a hand-in that is the course's solution, or near it."""
    counts = {"copies": 0, "reference": 0}
    by_exercise: dict[str, list[Row]] = {}
    for row in rows:
        if row.source is not None:
            by_exercise.setdefault(row.exercise, []).append(row)
    for exercise_id, hands in by_exercise.items():
        exercise = course.exercise(exercise_id)
        if exercise is None:
            continue
        starter = exercise.starter
        keys = [str(i) for i in range(len(hands))]
        found = similarity.matches(
            [similarity.Hand(k, r.source or "") for k, r in zip(keys, hands, strict=True)], starter
        )
        # one learner's two exports are flagged as such (`roster`), not as a copy of themselves
        found = [m for m in found if hands[int(m.a)].learner != hands[int(m.b)].learner]
        short = {
            k
            for k, r in zip(keys, hands, strict=True)
            if len(similarity.own(r.source or "", starter)) < similarity.MIN_OWN
        }
        for n, group in enumerate(similarity.groups(keys, found), start=1):
            for k in group:
                row = hands[int(k)]
                row.similar_group = f"{exercise_id}#{n}"
                said = []
                for m in found:
                    if k not in (m.a, m.b):
                        continue
                    other = hands[int(m.b if m.a == k else m.a)]
                    if m.identical:
                        how = say("identical_short" if k in short else "identical", lang)
                    else:
                        how = say("near_identical", lang, similarity=number(m.similarity))
                    said.append(f"{other.learner} ({other.export}): {how}")
                row.similar_to = "; ".join(said)
                counts["copies"] += 1
        solution = _solution(course, exercise_id)
        if solution is None:
            continue
        reference = similarity.own(solution, starter)
        for row in hands:
            if row.source == solution:
                row.reference = say("is_reference", lang)
            elif (s := similarity.same_work(similarity.own(row.source or "", starter), reference)) is not None:
                row.reference = say("near_reference", lang, similarity=number(s))
            counts["reference"] += bool(row.reference)
    return counts


def _solution(course: Course, exercise_id: str) -> str | None:
    try:
        return course.solution_path(exercise_id).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def mark_roster(hands: Sequence[Hand], roster: list[Learner] | None, course: Course, lang: str) -> list[Row]:
    """Who each export is (the roster's name and id where there is a roster), two exports of one
    learner flagged on both, an export of no roster learner flagged; then one row per exercise for
    each roster learner who handed in nothing. Returns those new rows."""
    by_learner: dict[str, list[Hand]] = {}
    for hand in hands:
        learner = find(roster, hand.learner_key) if roster is not None else None
        if roster is not None and learner is None:
            for row in hand.rows:
                row.roster = NOT_ON_ROSTER if hand.readable else ""
            if not hand.readable:
                continue
            key = "\0" + hand.learner_key.casefold()
        else:
            key = learner.name if learner is not None else " ".join(hand.learner_key.split()).casefold()
        if learner is not None:
            for row in hand.rows:
                row.learner, row.learner_id = learner.name, learner.id
        by_learner.setdefault(key, []).append(hand)
    for group in by_learner.values():
        if len(group) > 1:
            files = ", ".join(h.export for h in group)
            for hand in group:
                for row in hand.rows:
                    row.roster = EXPORTS.format(n=len(group))
                    row.notes.append(say("exports_of_one_note", lang, files=files))
    added: list[Row] = []
    possible = sum(e.points for e in course.exercises) + sum(possible_parts(course).values())
    for learner in roster or []:
        if learner.name in by_learner:
            continue
        for exercise in course.exercises:
            added.append(
                Row(
                    learner=learner.name,
                    learner_id=learner.id,
                    export="",
                    exercise=exercise.id,
                    status="missing",
                    notes=[say("no_export", lang)],
                    roster=NO_EXPORT,
                    points="0",
                    points_possible=number(exercise.points),
                    total="0",
                    total_possible=number(possible),
                )
            )
    return added


def learner_key_of_unreadable(stem: str) -> str:
    """Whose an unreadable export is, as far as its file's name says."""
    return stem[len(EXPORT_PREFIX) :] if stem.startswith(EXPORT_PREFIX) else stem


# The wide gradebook: Canvas's import columns (Moodle maps any of them), then the course's parts.
WIDE_HEAD = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "    Points Possible"  # Canvas's own second row: each column's maximum


def wide(
    rows: Sequence[Row], course: Course, roster: list[Learner] | None, parts: dict[str, dict[str, Any]]
) -> list[list[str]]:
    """One line per learner (the roster's order, then the others as they came): points per exercise,
    per graded checkpoint and the quiz, and the total. A learner with two exports, or an export that
    could not be read, has empty cells: an importer leaves them as they were, and nothing is kept
    that the instructor did not choose. A learner who handed in nothing has 0s."""
    columns = [e.id for e in course.exercises] + list(possible_parts(course))
    maxima = [number(e.points) for e in course.exercises] + [number(p) for p in possible_parts(course).values()]
    lines = [[*WIDE_HEAD, *columns, "Total"], [POINTS_POSSIBLE, "", "", "", "", *maxima, number(_sum(maxima))]]
    by_name: dict[str, list[Row]] = {}
    for row in rows:
        by_name.setdefault(row.learner, []).append(row)
    known = {l.name: l for l in roster or []}
    order = [l.name for l in roster or [] if l.name in by_name] + [n for n in by_name if n not in known]
    for name in order:
        mine = by_name[name]
        learner = known.get(name, Learner(name))
        head = [name, "", learner.id, learner.email, learner.section]
        exports = {r.export for r in mine if r.export}
        whole = any(r.status == "unreadable" or (r.status == "refused" and not r.exercise) for r in mine)
        if whole or len(exports) > 1:
            lines.append([*head, *([""] * len(columns)), ""])
            continue
        points = {r.exercise: r.points for r in mine}
        earned = parts.get(next(iter(exports)), {}) if exports else {}
        cells = [points.get(e.id, "0") or "0" for e in course.exercises]
        cells += [number(earned[c][0]) if c in earned else "0" for c in possible_parts(course)]
        lines.append([*head, *cells, number(_sum(cells))])
    return lines


def _sum(cells: Sequence[str]) -> float:
    return sum(float(c) for c in cells if c)


def summary(rows: Sequence[Row]) -> dict[str, int]:
    """The counts `grade` ends with and the JSON table holds."""
    exports = {(r.learner, r.export) for r in rows if r.export and r.status != "unreadable"}
    return {
        "learners": len(exports),
        "files": sum(r.status in ("pass", "fail", "error", "timeout") for r in rows),
        "problems": sum(r.status == "unreadable" for r in rows),
        "flagged": sum(r.pass_unconfirmed for r in rows),
        # exports (not rows): a first-try score the answers do not give; another course version
        # or none said; another course (refused)
        "scores_unsupported": len({r.export for r in rows if FLAG in r.learner_flags}),
        "course_version": len({r.export for r in rows if {FLAG_VERSION, FLAG_UNSAID} & set(r.learner_flags)}),
        "other_course": len({r.export for r in rows if r.status == "refused" and not r.exercise}),
        "missing_learners": len({r.learner for r in rows if r.roster == NO_EXPORT}),
        "not_on_roster": len({r.export for r in rows if r.roster == NOT_ON_ROSTER}),
        "duplicates": len({r.learner for r in rows if r.roster.endswith(" exports")}),
        "copies": sum(bool(r.similar_group) for r in rows),
        "reference": sum(bool(r.reference) for r in rows),
        "viewed": sum(r.solution_viewed == "yes" for r in rows),
        "late": sum(bool(r.late) for r in rows),
    }
