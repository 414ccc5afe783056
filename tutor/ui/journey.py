"""The learner's path through the course, and where "continue" should take them."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.progress import exercise_status, lesson_status


@dataclass(frozen=True)
class Step:
    kind: str  # lesson | exercise | quiz
    id: str = ""


def course_path(course) -> list[Step]:
    """Lessons in order, each followed by its exercises; exercises of unknown lessons, then the quiz."""
    steps: list[Step] = []
    placed: set[str] = set()
    for lesson in course.lessons:
        steps.append(Step("lesson", lesson.id))
        for ex in course.exercises:
            if ex.lesson == lesson.id:
                steps.append(Step("exercise", ex.id))
                placed.add(ex.id)
    steps += [Step("exercise", ex.id) for ex in course.exercises if ex.id not in placed]
    if course.quiz:
        steps.append(Step("quiz"))
    return steps


def is_done(step: Step, data: dict) -> bool:
    if step.kind == "lesson":
        return lesson_status(data, step.id) == "done"
    if step.kind == "exercise":
        return exercise_status(data, step.id) == "passed"
    return data["quiz"].get("best_score") is not None


def next_step(course, data: dict) -> Step | None:
    """Where to continue: the exercise last worked on and not yet passed, else a lesson left
    half-read, else the first unfinished step; None when everything is done."""
    attempted = [(rec.get("last_attempt_at") or "", ex.id) for ex in course.exercises
                 if (rec := data["exercises"].get(ex.id)) and exercise_status(data, ex.id) == "attempted"]
    if attempted:
        return Step("exercise", max(attempted)[1])
    for lesson in course.lessons:
        if lesson_status(data, lesson.id) == "started":
            return Step("lesson", lesson.id)
    return next((s for s in course_path(course) if not is_done(s, data)), None)
