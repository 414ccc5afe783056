"""Review that comes back: a question answered wrong is asked again a day later, then, each time
it is answered right, three days and a week later, in a form not seen before (a template's other
numbers, a lettered question's sibling: tutor.progress.asking.draw_variant). A wrong answer on the
way starts it over. A spot-the-bug drill answered wrong comes back the same way (`review.drills`),
as another drill of its belief or lesson (tutor.progress.review.drill_variant): its own answer was
shown. The schedule lives in progress.json's `review`; the day is the learner's local one, from a
clock the caller hands in (tests move it). No Textual, no JAX."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TYPE_CHECKING, TypeVar

from tutor.progress.records import DrillReviewItem, Progress, ReviewItem
from tutor.progress.snapshot import Snapshot

if TYPE_CHECKING:
    from tutor.course.model import Course, Drill, Question

INTERVALS_DAYS = (1, 3, 7)  # after a wrong answer; after the first right review; after the second

Clock = Callable[[], date]
Item = TypeVar("Item", bound=ReviewItem)


def local_today() -> date:
    """The learner's day: a review due "tomorrow" comes after their night, not UTC's midnight."""
    return date.today()


def _day(d: date, plus: int = 0) -> str:
    return (d + timedelta(days=plus)).isoformat()


def after_answer(progress: Progress, question_id: str, correct: bool, today: date) -> Progress:
    """A change (as tutor.progress.changes): schedule a question after an answer given `today`.
    Wrong: it comes back tomorrow, from the start. Right while due: the next interval, or off the
    schedule after the last. Right before it is due (a retry the same day): nothing changes."""
    items = _schedule(progress.review.items, question_id, correct, today, ReviewItem)
    return replace(progress, review=replace(progress.review, items=items))


def after_drill(
    progress: Progress, drill_id: str, correct: bool, today: date, reviewing: str | None = None
) -> Progress:
    """A change: schedule a drill after a try given `today`. A wrong try in the drill's own lesson
    brings it back tomorrow; a right one there changes nothing (it was not a review). A try made
    for today's review (`reviewing`: the drill answered wrong that it stands for) moves that one
    along the schedule as a question's answer does, and is remembered as shown for it."""
    items = progress.review.drills
    if reviewing is None:
        if correct:
            return progress
        items = _schedule(items, drill_id, False, today, DrillReviewItem)
    else:
        items = _schedule(items, reviewing, correct, today, DrillReviewItem)
        if reviewing in items:
            item = items[reviewing]
            items[reviewing] = replace(item, shown=(*[s for s in item.shown if s != drill_id], drill_id))
    return replace(progress, review=replace(progress.review, drills=items))


def _schedule(
    items: Mapping[str, Item], key: str, correct: bool, today: date, new: Callable[..., Item]
) -> dict[str, Item]:
    """`items` with `key` moved along the schedule (a new item made by `new`); the old map untouched."""
    out = dict(items)
    item = out.get(key)
    if not correct:
        again = _day(today, INTERVALS_DAYS[0])
        out[key] = new(step=0, due=again) if item is None else replace(item, step=0, due=again)
    elif item is None or item.due > _day(today):
        pass
    elif item.step + 1 >= len(INTERVALS_DAYS):
        del out[key]
    else:
        out[key] = replace(item, step=item.step + 1, due=_day(today, INTERVALS_DAYS[item.step + 1]))
    return out


def turn(progress: Progress, on: bool) -> Progress:
    """A change: review on or off. The schedule is kept while off, so turning it back on loses nothing."""
    return replace(progress, review=replace(progress.review, on=on))


def due(course: Course, progress: Snapshot, today: date) -> list[Question]:
    """The questions to review today, in the course's order (none while review is off). A question
    the course no longer has is left out."""
    if not progress.review_on():
        return []
    items, day = progress.review_items(), _day(today)
    return [q for q in course.questions() if q.id in items and items[q.id].due <= day]


def next_due(progress: Snapshot, today: date) -> str | None:
    """The first day after today with something to review (a question or a drill), or None."""
    items = [*progress.review_items().values(), *progress.review_drills().values()]
    later = sorted(i.due for i in items if i.due > _day(today))
    return later[0] if later else None


@dataclass(frozen=True)
class DrillReview:
    """A drill due today (`item`: the id of the drill answered wrong) and the drill asked for it."""

    item: str
    drill: Drill


def drill_variant(course: Course, progress: Snapshot, item: str, taken: tuple[str, ...] = ()) -> Drill | None:
    """The drill to ask for a drill answered wrong: one never tried that shows the same belief,
    then one never tried of the same lesson; else one already tried, of the belief or the lesson,
    shown for this item least lately (its answer seen days ago at the least). The drill itself only
    when its lesson has no other: its answer was shown. Drills in `taken` (asked today for another
    item) are passed over. None if the course lost it, or nothing is left."""
    wrong = course.drill(item)
    if wrong is None:
        return None
    shown = progress.review_drills().get(item)
    asked = shown.shown if shown else ()
    kin = [
        d
        for d in course.drills
        if d.id != item and d.id not in taken and (d.belief == wrong.belief or d.lesson == wrong.lesson)
    ]
    kin.sort(key=lambda d: d.belief != wrong.belief)  # the same belief first, then the same lesson
    fresh = [d for d in kin if not progress.drill(d.id).answered]
    if fresh:
        return fresh[0]
    if kin:  # never asked for this item first, then the one asked longest ago
        return min(kin, key=lambda d: asked.index(d.id) if d.id in asked else -1)
    return wrong if wrong.id not in taken else None


def drills_due(course: Course, progress: Snapshot, today: date) -> list[DrillReview]:
    """The drills to review today, each with the drill that asks it, in the course's order (none
    while review is off). Two due drills are never asked the same one."""
    if not progress.review_on():
        return []
    items, day = progress.review_drills(), _day(today)
    out: list[DrillReview] = []
    for d in course.drills:
        if d.id in items and items[d.id].due <= day:
            variant = drill_variant(course, progress, d.id, tuple(r.drill.id for r in out))
            if variant is not None:
                out.append(DrillReview(d.id, variant))
    return out
