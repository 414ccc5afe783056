"""lessons/misconceptions.yaml: the beliefs the questions test, each named once with the lesson
that sets it right. A question names its belief (`misconception: id`), so that the progress screen
can say which ones a learner still holds; its siblings and variants test the same one."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tutor.course.model import Misconception, Question, Source
from tutor.course.reader import Reader
from tutor.course.schema import FORMAT, ID_REGEX
from tutor.course.yamlread import LineList

ID_PATTERN = re.compile(ID_REGEX)


def read_misconceptions(r: Reader, value: object, line: int) -> list[Misconception]:
    """The catalogue's entries; each problem reported through the loader's reader `r`."""
    if not isinstance(value, LineList) or not value:
        r.problem(line, "misconceptions must be a non-empty list")
        return []
    shape = FORMAT["misconception"]
    found = []
    for i, item in enumerate(value):
        what = f"misconception {i + 1}"
        d = r.mapping(item, value.item_lines[i], what, shape.required, shape.optional)
        if d is None:
            continue
        mid = r.string(d.get("id"), d.line_of("id"), f"{what} id", ID_PATTERN)
        lesson = r.string(d.get("lesson"), d.line_of("lesson"), f"{what} lesson", ID_PATTERN)
        text = r.text(d.get("text"), d.line_of("text"), f"misconception '{mid}' text")
        if mid and lesson and text:
            found.append(Misconception(mid, lesson, text, Source(r.file, d.line)))
    return found


def misconception_problems(
    misconceptions: Sequence[Misconception], questions: Sequence[Question], lesson_ids: set[str]
) -> list[tuple[Source | None, str]]:
    """Rules that span files: a tag names a catalogued belief, each belief is tested by some
    question and names a lesson that exists; with a catalogue, every question names its belief,
    and every wrong option (or template variant) of a tagged question maps to one, through
    `beliefs:` or the question's `misconception:` (a course without a catalogue needs no tags)."""
    problems: list[tuple[Source | None, str]] = []
    known: dict[str, Source | None] = {}
    for m in misconceptions:
        if m.id in known:
            problems.append((m.source, f"duplicate misconception '{m.id}' (first in {known[m.id]})"))
        known.setdefault(m.id, m.source)
        if lesson_ids and m.lesson not in lesson_ids:
            problems.append((m.source, f"misconception '{m.id}' names lesson '{m.lesson}', which does not exist"))
    tested = set().union(*(q.tested_beliefs() for q in questions))
    for m in misconceptions:
        if m.id not in tested:
            problems.append((m.source, f"misconception '{m.id}' is tested by no question: tag one, or remove it"))
    for q in questions:
        if not q.tested_beliefs():
            if misconceptions:
                problems.append(
                    (
                        q.source,
                        f"question '{q.id}' names no misconception: add `misconception:` with an id "
                        "from lessons/misconceptions.yaml",
                    )
                )
            continue
        problems += _unmapped(q)
        for name in sorted(q.tested_beliefs() - known.keys()):
            problems.append(
                (
                    q.source,
                    f"question '{q.id}' names misconception '{name}', which is not in lessons/misconceptions.yaml",
                )
            )
    return problems


def _unmapped(q: Question) -> list[tuple[Source | None, str]]:
    """A tagged question's wrong answers that show no belief, and beliefs given to a right one."""
    problems: list[tuple[Source | None, str]] = []
    if q.template:
        if not q.misconception and len(q.beliefs) < len(q.template.variants):
            problems.append((q.source, f"question '{q.id}' has a variant with no belief: give `misconception:`"))
        return problems
    for form in (q, *q.siblings):
        where = (
            f"question '{q.id}'"
            if form is q
            else f"question '{q.id}' sibling at line {form.source.line if form.source else 0}"
        )
        if form.answer in form.beliefs:
            problems.append((form.source, f"{where}: `beliefs:` names option {form.answer}, which is the right answer"))
        for letter in sorted(set(form.options) - {form.answer}):
            if form.belief(0, letter) is None:
                problems.append(
                    (
                        form.source,
                        f"{where}: wrong option {letter} maps to no belief: name one under `beliefs:`, "
                        "or give the question a `misconception:` for every wrong option",
                    )
                )
    return problems
