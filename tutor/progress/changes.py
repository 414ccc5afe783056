"""Every change a learner's action makes to progress, as a pure function of the document.

The store applies one under its lock to the file's fresh data; the owner (state.py) applies
the same one at once to its in-memory snapshot, so what the learner sees never waits for a disk.
"""

from __future__ import annotations

from datetime import date

from tutor.protocol import STORED_LESSON_STATUSES, StoredLessonStatus

from . import review
from .store import DRILL_FIELDS, MAX_GIVEN, PREDICTION_FIELDS, QUESTION_FIELDS, _exercise, _fill, utc_now


def attempt(data: dict, exercise_id: str, passed: bool) -> None:
    """Count one attempt; a pass is never downgraded and first_passed_at is set only once."""
    ex, now = _exercise(data, exercise_id), utc_now()
    ex["attempts"] += 1
    ex["last_attempt_at"] = now
    if passed:
        ex["status"] = "passed"
        ex["first_passed_at"] = ex["first_passed_at"] or now
    elif ex["status"] != "passed":
        ex["status"] = "attempted"


def hint(data: dict, exercise_id: str, shown: int) -> None:
    """Remember how many hints were revealed (never decreases)."""
    ex = _exercise(data, exercise_id)
    ex["hints_shown"] = max(ex["hints_shown"], shown)


def solution_viewed(data: dict, exercise_id: str) -> None:
    """Remember that the solution of an exercise was opened."""
    _exercise(data, exercise_id)["solution_viewed"] = True


def lesson(data: dict, lesson_id: str, status: StoredLessonStatus) -> None:
    """Set a lesson to 'started' or 'done'; 'started' never downgrades 'done'."""
    if status not in STORED_LESSON_STATUSES:
        raise ValueError(f"lesson status must be one of {STORED_LESSON_STATUSES}, not {status!r}")
    entry = data["lessons"].setdefault(lesson_id, {"status": status})
    if entry["status"] != "done":
        entry["status"] = status


def position(data: dict, step_key: str) -> None:
    """Remember the step the learner opened last ("exercise:counter-jit"), where `continue` resumes."""
    data["position"] = step_key


def prediction(data: dict, cell_id: str, answer: str) -> None:
    """Remember a guess made before a cell ran; the first guess stays (it was made blind)."""
    entry = data["predictions"].setdefault(cell_id, _fill({}, PREDICTION_FIELDS, "", []))
    if not entry["answer"]:
        entry.update(answer=answer, predicted_at=utc_now())


def reveal(data: dict, cell_id: str, shown: str, correct: bool) -> None:
    """Remember what the cell's run showed and whether the recorded guess matched it."""
    entry = data["predictions"].get(cell_id)
    if entry is not None and entry["answer"]:
        entry.update(shown=shown, correct=correct)


def question_drawn(data: dict, question_id: str, variant: int) -> None:
    """Remember that a question was asked in this variant (a template's numbers, or a lettered
    question's sibling): each seen once, the last asked last (a retry draws another)."""
    entry = data["questions"].setdefault(question_id, _fill({}, QUESTION_FIELDS, "", []))
    if variant in entry["variants"]:
        entry["variants"].remove(variant)
    entry["variants"].append(variant)


def answer(data: dict, question_id: str, given: str, correct: bool, in_quiz: bool, today: date | None = None) -> None:
    """Remember an answer to a checkpoint or quiz question: the latest one and whether it was
    right; whether the first answer ever given was right is set once and never changes. The
    answer itself joins `given` with the variant it was asked in (the one drawn last), so a
    grader can judge it again; the first answer is never dropped from it. The review schedule
    follows the answer (`today`: the learner's day, from their clock)."""
    entry = data["questions"].setdefault(question_id, _fill({}, QUESTION_FIELDS, "", []))
    if entry["first_correct"] is None and not entry["tries"]:
        entry["first_correct"] = correct
    now = utc_now()
    variant = entry["variants"][-1] if entry["variants"] else 0
    entry["given"].append({"answer": given, "variant": variant, "at": now})
    if len(entry["given"]) > MAX_GIVEN:
        del entry["given"][1]
    entry.update(answer=given, correct=correct, tries=entry["tries"] + 1, answered_at=now)
    if in_quiz:  # the quiz's answers stay where `progress --json` has always shown them
        data["quiz"]["answers"][str(question_id)] = given
    review.after_answer(data, question_id, correct, today or review.local_today())  # when it comes back


def quiz_result(data: dict, score: int) -> None:
    """Count a finished quiz run and keep the best score."""
    quiz = data["quiz"]
    quiz["attempts"] += 1
    quiz["best_score"] = score if quiz["best_score"] is None else max(quiz["best_score"], score)


def drill(
    data: dict,
    drill_id: str,
    line: int,
    belief: str,
    correct: bool,
    today: date | None = None,
    reviewing: str | None = None,
) -> None:
    """Remember a spot-the-bug try: the line pointed at and the belief picked, and whether both
    were right; whether the first try was is set once and never changes. The review schedule
    follows the try (`reviewing`: the drill answered wrong it was asked for, in today's review)."""
    entry = data["drills"].setdefault(drill_id, _fill({}, DRILL_FIELDS, "", []))
    if entry["first_correct"] is None and not entry["tries"]:
        entry["first_correct"] = correct
    entry.update(line=line, belief=belief, correct=correct, tries=entry["tries"] + 1, answered_at=utc_now())
    review.after_drill(data, drill_id, correct, today or review.local_today(), reviewing)
