"""Which misconceptions a learner still holds, as far as their answers show: a belief is still
missed while the latest answer to any question that tests it is wrong. A question never answered
says nothing either way. The progress screen and `progress` both ask this. No Textual, no JAX."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.progress.asking import answered_right
from tutor.progress.snapshot import Snapshot

if TYPE_CHECKING:
    from tutor.course.model import Misconception


@dataclass(frozen=True)
class Missed:
    """A belief the learner's latest answers still show, and where: each question answered wrong,
    as (lesson of its checkpoint, or None for the quiz; the question's id)."""

    misconception: Misconception
    wrong: tuple[tuple[str | None, str], ...]


@dataclass(frozen=True)
class Misconceptions:
    missed: tuple[Missed, ...]  # in the catalogue's order
    tested: int  # beliefs with at least one question answered
    set_right: int  # tested beliefs whose every answered question is now right


def misconceptions(course, progress: Snapshot) -> Misconceptions:
    """What the learner's latest answers say about each belief the course names."""
    in_checkpoint = {q.id: c.lesson for c in course.checkpoints for q in c.questions}
    missed, tested = [], 0
    for belief in course.misconceptions:
        asked = [q for q in course.questions() if q.misconception == belief.id and progress.question(q.id).answered]
        if not asked:
            continue
        tested += 1
        wrong = tuple((in_checkpoint.get(q.id), q.id) for q in asked if not answered_right(q, progress))
        if wrong:
            missed.append(Missed(belief, wrong))
    return Misconceptions(tuple(missed), tested, tested - len(missed))
