"""Which misconceptions a learner still holds, as far as their answers show: a belief is still
missed while the latest answer to any question that tests it is wrong. A question never answered
says nothing either way. The progress screen and `progress` both ask this. No Textual, no JAX."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.progress.asking import answered_right
from tutor.progress.snapshot import Snapshot

if TYPE_CHECKING:
    from tutor.course.model import Course, Misconception


DRILL = "drill"  # in Missed.wrong, where a spot-the-bug drill (not a question) showed the belief


@dataclass(frozen=True)
class Missed:
    """A belief the learner's latest answers still show, and where: each question answered wrong,
    as (lesson of its checkpoint, or None for the quiz; the question's id), or (DRILL, the drill's id)."""

    misconception: Misconception
    wrong: tuple[tuple[str | None, str], ...]


@dataclass(frozen=True)
class Misconceptions:
    missed: tuple[Missed, ...]  # in the catalogue's order
    tested: int  # beliefs with at least one question answered
    set_right: int  # tested beliefs whose every answered question is now right


def misconceptions(course: Course, progress: Snapshot) -> Misconceptions:
    """What the learner's latest answers say about each belief the course names: a wrong answer
    shows the belief of the option picked (or of the template's variant asked), not every belief
    its question can test."""
    in_checkpoint = {q.id: c.lesson for c in course.checkpoints for q in c.questions}
    answered = [q for q in course.questions() if progress.question(q.id).answered]
    shown: dict[str, list[tuple[str | None, str]]] = {}
    for q in answered:
        belief = q.belief(latest_variant(progress, q.id), progress.question(q.id).answer)
        if belief and not answered_right(q, progress):
            shown.setdefault(belief, []).append((in_checkpoint.get(q.id), q.id))
    # A spot-the-bug drill tests its own belief: missing its line or its belief shows it.
    for drill in getattr(course, "drills", ()):
        record = progress.drill(drill.id)
        if record.answered and not record.correct:
            shown.setdefault(drill.belief, []).append((DRILL, drill.id))
    drilled = {d.belief for d in getattr(course, "drills", ()) if progress.drill(d.id).answered}
    tested = set().union(*(q.tested_beliefs() for q in answered)) | shown.keys() | drilled
    missed = tuple(Missed(b, tuple(shown[b.id])) for b in course.misconceptions if b.id in shown)
    count = sum(1 for b in course.misconceptions if b.id in tested)
    return Misconceptions(missed, count, count - len(missed))


def latest_variant(progress: Snapshot, question_id: str) -> int:
    """The form the latest answer was given in (0 where progress did not keep it)."""
    record = progress.question(question_id)
    if record.given:
        return record.given[-1].variant
    return record.variants[-1] if record.variants else 0
