"""Review that comes back: a question answered wrong is asked again a day later, then, each time
it is answered right, three days and a week later, in a form not seen before (a template's other
numbers, a lettered question's sibling: tutor.progress.asking.draw_variant). A wrong answer on the
way starts it over. The schedule lives in progress.json's `review`; the day is the learner's local
one, from a clock the caller hands in (tests move it). No Textual, no JAX."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from typing import TYPE_CHECKING

from tutor.progress.snapshot import Snapshot

if TYPE_CHECKING:
    from tutor.course.model import Course

INTERVALS_DAYS = (1, 3, 7)  # after a wrong answer; after the first right review; after the second

Clock = Callable[[], date]


def local_today() -> date:
    """The learner's day: a review due "tomorrow" comes after their night, not UTC's midnight."""
    return date.today()


def _day(d: date, plus: int = 0) -> str:
    return (d + timedelta(days=plus)).isoformat()


def after_answer(data: dict, question_id: str, correct: bool, today: date) -> None:
    """A change (as tutor.progress.changes): schedule a question after an answer given `today`.
    Wrong: it comes back tomorrow, from the start. Right while due: the next interval, or off the
    schedule after the last. Right before it is due (a retry the same day): nothing changes."""
    items = data["review"]["items"]
    item = items.get(question_id)
    if not correct:
        items[question_id] = {"step": 0, "due": _day(today, INTERVALS_DAYS[0])}
        return
    if item is None or item["due"] > _day(today):
        return
    step = item["step"] + 1
    if step >= len(INTERVALS_DAYS):
        del items[question_id]
    else:
        items[question_id] = {"step": step, "due": _day(today, INTERVALS_DAYS[step])}


def turn(data: dict, on: bool) -> None:
    """A change: review on or off. The schedule is kept while off, so turning it back on loses nothing."""
    data["review"]["on"] = on


def due(course: Course, progress: Snapshot, today: date) -> list:
    """The questions to review today, in the course's order (none while review is off). A question
    the course no longer has is left out."""
    if not progress.review_on():
        return []
    items, day = progress.review_items(), _day(today)
    return [q for q in course.questions() if q.id in items and items[q.id].due <= day]


def next_due(progress: Snapshot, today: date) -> str | None:
    """The first day after today with something to review, or None."""
    later = sorted(i.due for i in progress.review_items().values() if i.due > _day(today))
    return later[0] if later else None
