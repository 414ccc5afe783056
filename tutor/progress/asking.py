"""How a checkpoint or quiz question is asked and judged: which template variant a try draws,
whether the latest answer is right, and the score of the first tries. No Textual, no JAX."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from tutor.course.predict import OPTION_LETTERS
from tutor.progress.snapshot import Snapshot

if TYPE_CHECKING:
    from tutor.course.model import Course, Drill, Misconception, Question

BELIEF_CHOICES = 4  # beliefs a drill offers: its own and three others


def draw_variant(question: Question, progress: Snapshot, rng: random.Random) -> int:
    """The form to ask a question in now (a template's variant, or a lettered question's sibling):
    one the learner has not seen, at random (a lettered question first as written); once every one
    has been seen, any but the last one asked. 0 for a question with one form."""
    count = question.variants()
    if count < 2:
        return 0
    record = progress.question(question.id)
    seen = record.variants or ([0] if record.answered else [])  # answered before variants were kept
    if not seen and not question.numeric:
        return 0  # a lettered question is first asked as written: first tries are comparable
    fresh = [i for i in range(count) if i not in seen]
    if not fresh:
        fresh = [i for i in range(count) if i != seen[-1]]
    return rng.choice(fresh)


def answered_right(question: Question, progress: Snapshot) -> bool:
    """Whether the learner's latest answer to a question is right: as recorded when it was
    given; for an answer saved before that was recorded, the authored letter decides."""
    record = progress.question(question.id)
    if record.correct is not None:
        return record.correct
    return record.answered and not question.numeric and record.answer == question.answer


def first_try_score(questions: Iterable[Question], progress: Snapshot) -> int | None:
    """How many questions the learner got right the first time; None until each was answered
    (or when progress predates first answers being kept)."""
    firsts = [progress.question(q.id).first_correct for q in questions]
    return None if any(f is None for f in firsts) else sum(1 for f in firsts if f)


def option_order(question: Question, answered_before: bool, rng: random.Random) -> tuple[str, ...]:
    """The authored letters in the order they are shown: as written the first time, shuffled
    (and never left as written) once the learner has seen the answer (the TUI's and `review`'s)."""
    if not answered_before or question.numeric:
        return OPTION_LETTERS
    order = list(OPTION_LETTERS)
    while tuple(order) == OPTION_LETTERS:
        rng.shuffle(order)
    return tuple(order)


def belief_choices(course: Course, drill: Drill, rng: random.Random) -> list[Misconception]:
    """A drill's belief and up to three others, its own lesson's first, in a random order (the
    TUI's drill screen and `review` in the terminal both ask it so)."""
    others = [m for m in course.misconceptions if m.id != drill.belief]
    others.sort(key=lambda m: (m.lesson != drill.lesson, rng.random()))
    own = course.misconception(drill.belief)
    chosen = ([own] if own else []) + others[: BELIEF_CHOICES - 1]
    rng.shuffle(chosen)
    return chosen
