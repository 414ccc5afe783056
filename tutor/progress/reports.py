"""The documents `list --json` and `progress --json` print (contracts in DESIGN.md), built from the owner."""

from __future__ import annotations

from tutor.progress.path import course_path

from .state import LearnerState


def list_document(state: LearnerState, lang: str) -> dict:
    """Lessons, exercises in path order, and the quiz, with their status; titles in `lang`."""
    course = state.course
    exercises = [course.exercise(s.id) for s in course_path(course) if s.kind == "exercise"]
    summary = state.summary()
    return {
        "lessons": [
            {"id": l.id, "title": l.title.get(lang), "status": state.lesson_status(l.id)} for l in course.lessons
        ],
        "exercises": [
            {"id": e.id, "lesson": e.lesson, "title": e.title.get(lang), "status": state.exercise_status(e.id)}
            for e in exercises
        ],
        "quiz": {
            "questions": summary.quiz_questions,
            "answered": summary.quiz_answered,
            "best_score": summary.quiz_best,
        },
    }


def progress_document(state: LearnerState) -> dict:
    """Every recorded exercise and lesson, the quiz, and (beside the contract) each cell's guess."""
    return {
        "exercises": {
            k: {
                "status": r.status,
                "attempts": r.attempts,
                "hints_shown": r.hints_shown,
                "solution_viewed": r.solution_viewed,
            }
            for k, r in state.exercises_seen().items()
        },
        "lessons": {k: {"status": status} for k, status in state.lessons_seen().items()},
        "quiz": {
            "answers": dict(state.quiz_answers()),
            "best_score": state.quiz_best_score(),
            "attempts": state.quiz_attempts(),
        },
        # an extra key beside the contract's: each cell's predict guess and what the run showed
        "predictions": {
            k: {"answer": p.answer, "shown": p.shown, "correct": p.correct} for k, p in state.predictions().items()
        },
    }
