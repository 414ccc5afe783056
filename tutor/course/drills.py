"""Spot the bug: the drills a course shows, read from its exercises' folders, and the rule that a
drill's marked line is where it goes wrong.

A drill is one of the exercise's red-team mutants (tutor.course.cases names it: fail_<check>__<name>.py)
that the author moved into lessons/exercises/<id>/drills/, so that it ships with the course (the
wheel carries lessons/ and solutions/, never tests/), and marked with a line of its own:

    # drill: <line> <belief-id>

<line> is the line that holds the mistake, in the program as the learner sees it (the file less
its `# drill:`, `# says:` and `# never-says:` lines, numbered from 1); <belief-id> is the belief of
lessons/misconceptions.yaml behind it. `validate` checks that the marked line is among the lines
where the drill differs from the passing program closest to it (the reference solution, or a pass_
case of tests/cases/<id>/ where the course keeps its red team). No Textual, no JAX."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

from tutor.course.cases import CASES, read_name
from tutor.course.model import Course, Drill, Source

FOLDER = "drills"  # lessons/exercises/<id>/drills/
MARK = re.compile(r"^#\s*drill:\s*(.*)$")
PIN = re.compile(r"^#\s*(drill|says|never-says):")
MAX_LINES = 14  # shown with the beliefs to pick from and the keys, in an 80x24 terminal
MAX_COLUMNS = 75  # each line numbered ("14 "), inside the screen's margins, fits 80 columns


def shown(text: str) -> list[str]:
    """The program as the learner sees it: the file less its pin lines, trailing blank lines dropped."""
    lines = [line for line in text.splitlines() if not PIN.match(line)]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def read_drills(folder: Path, exercise_id: str, lesson: str, root: Path, problems: list[Any]) -> list[Drill]:
    """The drills in an exercise's folder; each problem as (file, line, message)."""
    found = []
    for path in sorted((folder / FOLDER).glob("*.py")) if (folder / FOLDER).is_dir() else []:
        try:
            rel = str(path.relative_to(root))
        except ValueError:
            rel = str(path)
        case = read_name(path)
        if case is None or case.passes:
            problems.append((rel, 1, "a drill is a mutant: fail_<check-id>__<name>.py"))
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.append((rel, 0, f"cannot read the drill: {exc}"))
            continue
        marks = [(i, m.group(1).split()) for i, line in enumerate(text.splitlines(), 1) if (m := MARK.match(line))]
        if len(marks) != 1 or len(marks[0][1]) != 2 or not marks[0][1][0].isdigit():
            problems.append((rel, marks[0][0] if marks else 1, "a drill needs one line '# drill: <line> <belief-id>'"))
            continue
        where, (number, belief) = marks[0]
        code = shown(text)
        if not 1 <= int(number) <= len(code) or not code[int(number) - 1].strip():
            problems.append((rel, where, f"drill line {number} is not a line of code of the {len(code)} shown"))
            continue
        found.append(
            Drill(
                id=f"{exercise_id}/{path.stem.split('__', 1)[-1]}",
                exercise=exercise_id,
                lesson=lesson,
                check=case.check or "",
                line=int(number),
                belief=belief,
                code="\n".join(code) + "\n",
                source=Source(rel, where),
            )
        )
    return found


def _significant(lines: list[str]) -> list[tuple[int, str]]:
    """(line number, the line without its comment and spaces) for each line of code: a diff that
    comments, blank lines and layout do not move."""
    out = []
    for number, line in enumerate(lines, 1):
        code = line.split("#", 1)[0].strip() if "#" in line and "'" not in line and '"' not in line else line.strip()
        if code:
            out.append((number, " ".join(code.split())))
    return out


def differing_lines(program: list[str], passing: list[str]) -> set[int]:
    """The lines of `program` (numbered from 1) that a passing program does not have as they are."""
    mine, theirs = _significant(program), _significant(passing)
    matcher = difflib.SequenceMatcher(a=[c for _, c in theirs], b=[c for _, c in mine], autojunk=False)
    changed: set[int] = set()
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if j2 > j1:
            changed.update(mine[j][0] for j in range(j1, j2))
        else:  # a line missing here: the mistake is where it should be, the line after the gap
            changed.add(mine[j1][0] if j1 < len(mine) else (mine[-1][0] if mine else 1))
    return changed


def drill_problems(course: Course, root: Path) -> list[tuple[Source | None, str]]:
    """What `validate` says of the course's drills: a belief or check it does not know, a program
    too big for the screen, and a marked line that is not where the drill differs from the passing
    program closest to it."""
    found: list[tuple[Source | None, str]] = []
    beliefs = {m.id for m in course.misconceptions}
    for drill in course.drills:
        exercise = course.exercise(drill.exercise)
        if drill.belief not in beliefs:
            found.append((drill.source, f"drill belief '{drill.belief}' is not in lessons/misconceptions.yaml"))
        if exercise is not None and drill.check not in {c.id for c in exercise.checks}:
            found.append((drill.source, f"exercise '{drill.exercise}' has no check '{drill.check}' (the file's name)"))
        lines = drill.code.splitlines()
        if len(lines) > MAX_LINES or any(len(l) > MAX_COLUMNS for l in lines):
            found.append(
                (drill.source, f"a drill is shown whole at 80x24: at most {MAX_LINES} lines of {MAX_COLUMNS} columns")
            )
        passing = _passing_programs(root, drill.exercise)
        if not passing:
            found.append((drill.source, "no passing program to compare the drill with (its solution or a pass_ case)"))
            continue
        closest = min((differing_lines(lines, p) for p in passing), key=len)
        if drill.line not in closest:
            where = ", ".join(str(n) for n in sorted(closest)) or "nowhere"
            found.append(
                (
                    drill.source,
                    f"drill line {drill.line} is not where the program differs from the closest passing one "
                    f"(lines {where})",
                )
            )
    return found


def _passing_programs(root: Path, exercise_id: str) -> list[list[str]]:
    paths = [root / "solutions" / f"{exercise_id}.py"]
    cases = root / CASES / exercise_id
    if cases.is_dir():
        paths += [p for p in sorted(cases.glob("*.py")) if (c := read_name(p)) is not None and c.passes]
    out = []
    for path in paths:
        try:
            out.append(shown(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return out
