"""Every change a learner's action makes to progress, as a pure function of the progress: the
old records untouched, the new ones made with `dataclasses.replace` (tutor.progress.records).

The store applies one under its lock to the file's fresh progress; the owner (state.py) applies
the same one at once to its in-memory snapshot, so what the learner sees never waits for a disk.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from tutor.protocol import STORED_LESSON_STATUSES, StoredLessonStatus

from . import review
from .records import DrillRecord, ExerciseRecord, Given, LessonRecord, Prediction, Progress, QuestionRecord, put
from .store import utc_now

# The most answers one question keeps in `given`: the first always, then the latest ones.
MAX_GIVEN = 20


def _exercise(progress: Progress, exercise_id: str, **changed: object) -> Progress:
    """`progress` with an exercise's record changed (made with defaults first if absent)."""
    record = replace(progress.exercises.get(exercise_id, ExerciseRecord()), **changed)  # type: ignore[arg-type]
    return replace(progress, exercises=put(progress.exercises, exercise_id, record))


def attempt(progress: Progress, exercise_id: str, passed: bool) -> Progress:
    """Count one attempt; a pass is never downgraded and first_passed_at is set only once."""
    ex, now = progress.exercises.get(exercise_id, ExerciseRecord()), utc_now()
    passed_once = passed or ex.status == "passed"
    return _exercise(
        progress,
        exercise_id,
        attempts=ex.attempts + 1,
        last_attempt_at=now,
        status="passed" if passed_once else "attempted",
        first_passed_at=(ex.first_passed_at or now) if passed else ex.first_passed_at,
    )


def hint(progress: Progress, exercise_id: str, shown: int) -> Progress:
    """Remember how many hints were revealed (never decreases)."""
    before = progress.exercises.get(exercise_id, ExerciseRecord()).hints_shown
    return _exercise(progress, exercise_id, hints_shown=max(before, shown))


def solution_viewed(progress: Progress, exercise_id: str) -> Progress:
    """Remember that the solution of an exercise was opened."""
    return _exercise(progress, exercise_id, solution_viewed=True)


def lesson(progress: Progress, lesson_id: str, status: StoredLessonStatus) -> Progress:
    """Set a lesson to 'started' or 'done'; 'started' never downgrades 'done'."""
    if status not in STORED_LESSON_STATUSES:
        raise ValueError(f"lesson status must be one of {STORED_LESSON_STATUSES}, not {status!r}")
    entry = progress.lessons.get(lesson_id, LessonRecord(status))
    if entry.status != "done":
        entry = replace(entry, status=status)
    return replace(progress, lessons=put(progress.lessons, lesson_id, entry))


def position(progress: Progress, step_key: str) -> Progress:
    """Remember the step the learner opened last ("exercise:counter-jit"), where `continue` resumes."""
    return replace(progress, position=step_key)


def prediction(progress: Progress, cell_id: str, answer: str) -> Progress:
    """Remember a guess made before a cell ran; the first guess stays (it was made blind)."""
    entry = progress.predictions.get(cell_id, Prediction())
    if not entry.answer:
        entry = replace(entry, answer=answer, predicted_at=utc_now())
    return replace(progress, predictions=put(progress.predictions, cell_id, entry))


def reveal(progress: Progress, cell_id: str, shown: str, correct: bool) -> Progress:
    """Remember what the cell's run showed and whether the recorded guess matched it."""
    entry = progress.predictions.get(cell_id)
    if entry is None or not entry.answer:
        return progress
    entry = replace(entry, shown=shown, correct=correct)
    return replace(progress, predictions=put(progress.predictions, cell_id, entry))


def question_drawn(progress: Progress, question_id: str, variant: int) -> Progress:
    """Remember that a question was asked in this variant (a template's numbers, or a lettered
    question's sibling): each seen once, the last asked last (a retry draws another)."""
    entry = progress.questions.get(question_id, QuestionRecord())
    variants = list(entry.variants)
    if variant in variants:
        variants.remove(variant)
    entry = replace(entry, variants=(*variants, variant))
    return replace(progress, questions=put(progress.questions, question_id, entry))


def answer(
    progress: Progress, question_id: str, given: str, correct: bool, in_quiz: bool, today: date | None = None
) -> Progress:
    """Remember an answer to a checkpoint or quiz question: the latest one and whether it was
    right; whether the first answer ever given was right is set once and never changes. The
    answer itself joins `given` with the variant it was asked in (the one drawn last), so a
    grader can judge it again; the first answer is never dropped from it. The review schedule
    follows the answer (`today`: the learner's day, from their clock)."""
    entry = progress.questions.get(question_id, QuestionRecord())
    now = utc_now()
    kept = (*entry.given, Given(given, entry.variants[-1] if entry.variants else 0, now))
    entry = replace(
        entry,
        first_correct=correct if entry.first_correct is None and not entry.tries else entry.first_correct,
        given=kept if len(kept) <= MAX_GIVEN else kept[:1] + kept[2:],
        answer=given,
        correct=correct,
        tries=entry.tries + 1,
        answered_at=now,
    )
    progress = replace(progress, questions=put(progress.questions, question_id, entry))
    if in_quiz:  # the quiz's answers stay where `progress --json` has always shown them
        quiz = progress.quiz
        progress = replace(progress, quiz=replace(quiz, answers=put(quiz.answers, str(question_id), given)))
    return review.after_answer(progress, question_id, correct, today or review.local_today())  # when it comes back


def quiz_result(progress: Progress, score: int) -> Progress:
    """Count a finished quiz run and keep the best score."""
    quiz = progress.quiz
    best = score if quiz.best_score is None else max(quiz.best_score, score)
    return replace(progress, quiz=replace(quiz, attempts=quiz.attempts + 1, best_score=best))


def drill(
    progress: Progress,
    drill_id: str,
    line: int,
    belief: str,
    correct: bool,
    today: date | None = None,
    reviewing: str | None = None,
) -> Progress:
    """Remember a spot-the-bug try: the line pointed at and the belief picked, and whether both
    were right; whether the first try was is set once and never changes. The review schedule
    follows the try (`reviewing`: the drill answered wrong it was asked for, in today's review)."""
    entry = progress.drills.get(drill_id, DrillRecord())
    entry = replace(
        entry,
        first_correct=correct if entry.first_correct is None and not entry.tries else entry.first_correct,
        line=line,
        belief=belief,
        correct=correct,
        tries=entry.tries + 1,
        answered_at=utc_now(),
    )
    progress = replace(progress, drills=put(progress.drills, drill_id, entry))
    return review.after_drill(progress, drill_id, correct, today or review.local_today(), reviewing)
