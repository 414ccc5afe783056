"""Review that comes back (tutor.progress.review): a question answered wrong returns after 1 day,
then after 3 and 7 more days while it is answered right, then leaves the schedule; a wrong answer
on the way starts it over; a learner can turn it off and on without losing the schedule. The clock
is handed in and moved: nothing sleeps."""

from __future__ import annotations

from datetime import date, timedelta

from tutor.progress import ProgressStore, changes, review
from tutor.progress.state import LearnerState

D = date(2026, 12, 7)
QID = "cp61-global-count"


def day(n: int):
    return lambda: D + timedelta(days=n)


def answer(state, correct: bool, on_day: int, qid: str = QID) -> None:
    state.clock = day(on_day)
    state.save_now(changes.answer, qid, "3" if correct else "4", correct, False, state.clock())


def due_on(state, n: int) -> list[str]:
    state.clock = day(n)
    return [q.id for q in state.reviews_due()]


def test_a_wrong_answer_comes_back_after_1_3_and_7_days_then_leaves(tmp_path, course):
    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    answer(state, False, 0)
    assert due_on(state, 0) == []
    assert due_on(state, 1) == [QID]
    answer(state, True, 1)
    assert due_on(state, 3) == [] and due_on(state, 4) == [QID]
    answer(state, True, 4)
    assert due_on(state, 10) == [] and due_on(state, 11) == [QID]
    answer(state, True, 11)
    assert due_on(state, 400) == [] and state.review_items() == {}


def test_a_wrong_review_starts_over_and_a_same_day_retry_changes_nothing(tmp_path, course):
    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    answer(state, False, 0)
    answer(state, True, 0)  # the checkpoint's retry, the same day: still back tomorrow
    assert due_on(state, 1) == [QID]
    answer(state, True, 1)
    answer(state, False, 4)  # wrong at the second review
    assert state.review_items()[QID].step == 0 and due_on(state, 5) == [QID]


def test_turned_off_nothing_is_due_and_turned_on_the_schedule_is_back(tmp_path, course):
    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    answer(state, False, 0)
    state.save_now(review.turn, False)
    assert due_on(state, 1) == [] and QID in state.review_items()
    state.save_now(review.turn, True)
    assert due_on(state, 1) == [QID]


def test_the_review_asks_a_form_not_yet_seen(tmp_path, course):
    """A template question answered in variant 2 is asked in another one when it comes back."""
    import random

    from tutor.progress.asking import draw_variant

    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    state.save_now(changes.question_drawn, QID, 2)
    answer(state, False, 0)
    q = course.question(QID)
    assert q.variants() > 1
    drawn = {draw_variant(q, state, random.Random(seed)) for seed in range(20)}
    assert 2 not in drawn
