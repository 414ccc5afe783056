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


# ---- drills: a wrong try comes back as another drill -----------------------------------------

WRONG = "pure-scale/history"  # lesson 6.1, belief trace-time-python


def drill_try(state, drill_id: str, correct: bool, on_day: int, reviewing: str | None = None) -> None:
    state.clock = day(on_day)
    d = state.course.drill(drill_id)
    line, belief = (d.line, d.belief) if correct else (d.line + 1, d.belief)
    state.save_now(changes.drill, drill_id, line, belief, correct, state.clock(), reviewing)


def drills_due_on(state, n: int) -> list[tuple[str, str]]:
    state.clock = day(n)
    return [(r.item, r.drill.id) for r in state.drill_reviews_due()]


def test_a_wrong_drill_comes_back_after_1_3_and_7_days_as_another_drill_each_time(tmp_path, course):
    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    for d in course.drills_of("6.1"):  # the lesson's drills, as the drill screen walks them
        drill_try(state, d.id, d.id != WRONG, 0)
    assert drills_due_on(state, 0) == [] and state.reviews_due_count() == 0
    asked = []
    for today, back in ((1, 3), (4, 7), (11, None)):
        [(item, variant)] = drills_due_on(state, today)
        assert state.reviews_due_count() == 1
        assert item == WRONG and variant != WRONG and variant not in asked, (today, variant, asked)
        v = course.drill(variant)
        assert v.belief == course.drill(WRONG).belief or v.lesson == "6.1"
        asked.append(variant)
        drill_try(state, variant, True, today, reviewing=WRONG)
        if back is not None:
            assert drills_due_on(state, today + back - 1) == [] and drills_due_on(state, today + back)
    assert drills_due_on(state, 400) == [] and state.review_drills() == {}
    # never tried before, the first one asked shows the same belief (another lesson's drill)
    assert course.drill(asked[0]).belief == "trace-time-python" and course.drill(asked[0]).lesson != "6.1"


def test_a_wrong_drill_review_starts_over_and_a_right_drill_in_its_lesson_schedules_nothing(tmp_path, course):
    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    other = next(d.id for d in course.drills_of("6.1") if d.id != WRONG)
    drill_try(state, other, True, 0)
    assert state.review_drills() == {}
    drill_try(state, WRONG, False, 0)
    drill_try(state, WRONG, True, 0)  # a retry in the lesson, its answer seen: still back tomorrow
    [(_, variant)] = drills_due_on(state, 1)
    drill_try(state, variant, False, 1, reviewing=WRONG)
    item = state.review_drills()[WRONG]
    assert item.step == 0 and item.due == (D + timedelta(days=2)).isoformat() and item.shown == (variant,)
    [(_, again)] = drills_due_on(state, 2)
    assert again not in (WRONG, variant)  # another still: the one asked yesterday had its answer shown


def test_two_drills_due_the_same_day_are_asked_two_different_drills(tmp_path, course):
    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    a, b = (d.id for d in course.drills_of("6.1")[:2])
    drill_try(state, a, False, 0)
    drill_try(state, b, False, 0)
    due = drills_due_on(state, 1)
    assert {i for i, _ in due} == {a, b} and len({v for _, v in due}) == 2


def test_drills_due_off_when_review_is_off_and_a_schema_2_file_without_them_opens(tmp_path, course):
    import json

    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    drill_try(state, WRONG, False, 0)
    state.save_now(review.turn, False)
    assert drills_due_on(state, 1) == []
    # a schema-2 file written before drills came back (0bce953's): no review.drills; nothing lost
    path = tmp_path / "progress.json"
    doc = json.loads(path.read_text())
    del doc["review"]["drills"]
    path.write_text(json.dumps(doc))
    state = LearnerState(ProgressStore(tmp_path), course, clock=day(0)).refresh()
    assert state.review_drills() == {} and state.drill(WRONG).tries == 1 and not state.warnings
