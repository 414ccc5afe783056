"""Course rules that span what one file can say, checked by `validate` (not by each course read:
some look outside lessons/): an exercise's place within its lesson, code that fits the editor at 80
columns, a TODO in every starter, enough red-team cases, and one cell per doctor finding it teaches.

Until these lived here, the slow test suite found them after a contributor's every other step
(issue 41); now `validate` says each in seconds, with file and line."""

from __future__ import annotations

from pathlib import Path

from tutor.course.cases import CASES, counts
from tutor.course.drills import drill_problems
from tutor.course.loader import problem_at
from tutor.course.model import Course, Exercise
from tutor.course.reader import Problem

# The editor's code columns in an 80x24 terminal: 80 less its border and margins, the line
# numbers, and the scrollbar of a file taller than the editor's rows. Measured in the editor itself
# by tests/ui/test_editor_width.py, which fails if this ever disagrees.
TERMINAL_COLUMNS = 80
EDITOR_ROWS = 19
SCROLLBAR_COLUMNS = 2


def editor_columns(lines: int) -> int:
    """How many characters of a line the editor shows without scrolling sideways, in a file of
    `lines` lines (a last empty line counts: the editor shows it)."""
    scrollbar = SCROLLBAR_COLUMNS if lines > EDITOR_ROWS else 0
    return TERMINAL_COLUMNS - 3 - len(str(max(lines, 1))) - scrollbar


MIN_PASSING_CASES = 2  # correct variants in other styles: the checks judge meaning, not form
MIN_FAILING_CASES = 3  # mutants, each failing at the check its name gives


def author_problems(course: Course, root: Path) -> list[Problem]:
    """Every rule above that `course` (read from `root`) breaks."""
    found: list[Problem] = []
    found += _orders(course)
    found += _teaches(course)
    for exercise in course.exercises:
        if exercise.folder is None:
            continue
        starter = exercise.folder / "starter.py"
        found += _too_wide(starter, exercise.starter)
        if "TODO" not in exercise.starter:
            found.append(Problem(str(starter), 1, "a starter must say with a TODO what the learner writes"))
        # (A solution is shown wrapped, each line numbered, so its width is free.)
    cases = root / CASES
    if cases.is_dir():  # the course's own red team (a course elsewhere may keep none)
        found += _cases(course, cases)
    for source, message in drill_problems(course, root):  # spot the bug: the marked line is the mistake
        found.append(problem_at(source, message))
    return found


def _orders(course: Course) -> list[Problem]:
    """`order` places an exercise among its lesson's exercises: two at one place is ambiguous."""
    found = []
    taken: dict[tuple[str, float], Exercise] = {}
    for e in course.exercises:
        other = taken.setdefault((e.lesson, e.order), e)
        if other is not e:
            found.append(
                problem_at(
                    e.source, f"exercise '{e.id}' has order {e.order:g} within lesson {e.lesson}, as '{other.id}' has"
                )
            )
    return found


def _teaches(course: Course) -> list[Problem]:
    """A cell's `teaches:` is where the doctor sends a learner with that finding: one cell per
    finding, and only in a course that offers the doctor (lessons/course.yaml: doctor: true)."""
    found = []
    first: dict[str, str] = {}
    for lesson in course.lessons:
        for cell in lesson.cells:
            where = cell.source.file if cell.source else str(course.root / "lessons")
            line = cell.source.line if cell.source else 0
            if cell.teaches and not course.has_doctor:
                found.append(
                    Problem(
                        where,
                        line,
                        f"cell '{cell.id}' teaches {', '.join(cell.teaches)}, but lessons/course.yaml does not say "
                        "`doctor: true`, so the doctor sends no one there",
                    )
                )
            for name in cell.teaches:
                other = first.setdefault(name, cell.id)
                if other != cell.id:
                    found.append(
                        Problem(
                            where,
                            line,
                            f"cell '{cell.id}' teaches {name}, as cell '{other}' does: one cell per finding",
                        )
                    )
    return found


def _too_wide(path: Path, text: str) -> list[Problem]:
    lines = text.split("\n")
    limit = editor_columns(len(lines))
    return [
        Problem(
            str(path),
            n,
            f"{len(line)} columns: the editor at 80 columns shows {limit} of this file's lines without scrolling",
        )
        for n, line in enumerate(lines, 1)
        if len(line) > limit
    ]


def _cases(course: Course, cases: Path) -> list[Problem]:
    found = []
    for e in course.exercises:
        folder = cases / e.id
        passing, failing = counts(folder)
        if passing < MIN_PASSING_CASES or failing < MIN_FAILING_CASES:
            found.append(
                Problem(
                    str(folder),
                    0,
                    f"exercise '{e.id}' has {passing} correct variants (pass_*.py) and {failing} mutants "
                    f"(fail_<check-id>__<what>.py); it needs at least {MIN_PASSING_CASES} and {MIN_FAILING_CASES}",
                )
            )
    return found
