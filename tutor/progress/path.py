"""The learner's path through the course, and the one rule for "what comes next".

The path is: each lesson in order, then that lesson's checkpoint (its own questions), then
its exercises; after the last lesson, the full quiz.
Every "next" in the product (the outline's `c`, the lesson's and exercise's `c` / Ctrl+N,
the passed prompt, `list` order, `watch`) asks `next_step`, through the progress owner
(tutor.progress.state.LearnerState). Progress is read here only through a typed Snapshot.
No Textual, no JAX here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, get_args

from tutor.progress.asking import answered_right
from tutor.progress.snapshot import Snapshot

if TYPE_CHECKING:
    from tutor.course.model import Course, Exercise, Question

# What a step of the path is: its word in progress.json (tutor.protocol says why a Literal).
StepKind = Literal["lesson", "checkpoint", "exercise", "quiz", "progress", "continue"]
# The path's kinds; the others are the UI's own destinations, never on the path nor in progress.json:
# "progress" the progress screen, "continue" what comes next, resolved once the course has loaded.
KINDS: tuple[StepKind, ...] = ("lesson", "checkpoint", "exercise", "quiz")
_STEP_KINDS: tuple[StepKind, ...] = get_args(StepKind)


@dataclass(frozen=True)
class Step:
    kind: StepKind
    id: str = ""  # lesson id for lesson and checkpoint, exercise id, "" for the quiz

    def __post_init__(self) -> None:
        if self.kind not in _STEP_KINDS:  # a kind read as text is one of the words, or ValueError
            raise ValueError(f"{self.kind!r} is not a StepKind")

    @property
    def key(self) -> str:
        """How the step is written in progress.json ("exercise:counter-jit")."""
        return f"{self.kind}:{self.id}"

    @classmethod
    def parse(cls, key: object) -> Step | None:
        if not isinstance(key, str) or ":" not in key:
            return None
        kind, _, ident = key.partition(":")
        return next((cls(k, ident) for k in KINDS if k == kind), None)


def checkpoint_questions(course: Course, lesson_id: str) -> list[Question]:
    """The questions of a lesson's own checkpoint (lessons/checkpoints/), in the order written."""
    return list(course.checkpoint(lesson_id))


def exercises_of(course: Course, lesson_id: str) -> list[Exercise]:
    return [e for e in course.exercises if e.lesson == lesson_id]


def course_path(course: Course) -> list[Step]:
    """Every step in the order a learner takes them."""
    steps: list[Step] = []
    placed: set[str] = set()
    for lesson in course.lessons:
        steps.append(Step("lesson", lesson.id))
        if checkpoint_questions(course, lesson.id):
            steps.append(Step("checkpoint", lesson.id))
        for ex in exercises_of(course, lesson.id):
            steps.append(Step("exercise", ex.id))
            placed.add(ex.id)
    steps += [Step("exercise", ex.id) for ex in course.exercises if ex.id not in placed]
    if course.quiz:
        steps.append(Step("quiz"))
    return steps


def is_done(course: Course, step: Step, progress: Snapshot) -> bool:
    if step.kind == "lesson":
        return progress.lesson_status(step.id) == "done"
    if step.kind == "exercise":
        return progress.exercise_status(step.id) == "passed"
    if step.kind == "checkpoint":  # done when every answer is right, not merely given
        return all(answered_right(q, progress) for q in checkpoint_questions(course, step.id))
    if step.kind == "quiz":
        return progress.quiz_best_score() is not None
    return False


def step_status(course: Course, step: Step, progress: Snapshot) -> str:
    """The mark in front of a step: a lesson's or exercise's own status; for a checkpoint or
    the quiz, done / started (some question answered: a checkpoint with a wrong answer left is
    partly done) / new."""
    if step.kind == "lesson":
        return progress.lesson_status(step.id)
    if step.kind == "exercise":
        return progress.exercise_status(step.id)
    if is_done(course, step, progress):
        return "done"
    asked = checkpoint_questions(course, step.id) if step.kind == "checkpoint" else course.quiz
    return "started" if any(progress.question(q.id).answered for q in asked) else "new"


def next_step(
    course: Course, progress: Snapshot, here: Step | None = None, kinds: tuple[str, ...] = KINDS
) -> Step | None:
    """Where the learner goes next.

    From `here` (the step they are on): the first unfinished step after it in path order,
    wrapping around to the start. With no `here` ("continue"): the step last opened
    (progress' `position`) if it is still unfinished, else the first unfinished step after
    it. Only steps of `kinds` are candidates (watch asks for exercises). None when every
    candidate is done.
    """
    steps = course_path(course)
    resume = here is None
    if resume:
        here = Step.parse(progress.position())
    start = 0
    if here in steps:
        at = steps.index(here)
        start = at if resume else at + 1
    for step in steps[start:] + steps[:start]:
        if step.kind in kinds and step != (None if resume else here) and not is_done(course, step, progress):
            return step
    return None


def practice_of(course: Course, progress: Snapshot, lesson_id: str) -> Step | None:
    """A lesson's practice (`x`): its checkpoint or exercises, the first unfinished one (else the first)."""
    practice = [Step("checkpoint", lesson_id)] if checkpoint_questions(course, lesson_id) else []
    practice += [Step("exercise", e.id) for e in exercises_of(course, lesson_id)]
    if not practice:
        return None
    return next((s for s in practice if not is_done(course, s, progress)), practice[0])


def position_of(course: Course, step: Step) -> tuple[int, int]:
    """(1-based index of the step on the path, path length), for "step 4 of 27"."""
    steps = course_path(course)
    return (steps.index(step) + 1 if step in steps else 0), len(steps)
