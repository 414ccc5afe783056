"""Spot-the-bug drills (tutor.course.drills): the course reads each `# drill: <line> <belief>` mark
from an exercise's drills/ folder, and `validate` says where a mark is not where the drill differs
from the passing program closest to it, names an unknown belief, or shows a program too big for
80x24. The drills live under lessons/ so that the wheel, which ships lessons/ and never tests/,
carries them."""

from __future__ import annotations

import shutil
from pathlib import Path

from tutor.course import read_course
from tutor.course.author_rules import author_problems
from tutor.course.drills import differing_lines, drill_problems, shown

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path) -> Path:
    """The course's lessons and solutions, and pure-scale's red team (the drill broken below is its)."""
    root = tmp_path / "course"
    for part in ("lessons", "solutions", "tests/cases/pure-scale"):
        shutil.copytree(ROOT / part, root / part)
    return root


def _drill_problems(root: Path) -> list[str]:
    """What `validate` says of the drills (the reader's problems, then the rule spanning files)."""
    course, problems = read_course(root)
    found = [str(p) for p in problems if "drill" in p.file or "drill" in p.message]
    return found + [f"{s.file}:{s.line}: {m}" for s, m in drill_problems(course, root) if s is not None]


def test_the_shipped_drills_are_clean_and_shown_without_their_marks():
    course, problems = read_course(ROOT)
    assert [str(p) for p in author_problems(course, ROOT) if "drill" in p.message] == _drill_problems(ROOT) == []
    for drill in course.drills:
        assert "# drill:" not in drill.code and "# says:" not in drill.code
        assert drill.code.splitlines()[drill.line - 1].strip()


def test_a_mark_off_the_mistake_an_unknown_belief_and_a_long_program_are_named(tmp_path):
    root = _copy(tmp_path)
    course, _ = read_course(root)
    drill = next(d for d in course.drills if d.exercise == "pure-scale" and "history" in d.id)
    path = root / drill.source.file
    text = path.read_text()
    path.write_text(
        text.replace(f"# drill: {drill.line} ", "# drill: 4 ")
    )  # `def scaled(x, scale):`, as in the solution
    found = _drill_problems(root)
    assert any(f"{drill.source.file}:1: drill line 4 is not where the program differs" in p for p in found), found
    path.write_text(text.replace(drill.belief, "no-such-belief"))
    assert any("'no-such-belief' is not in lessons/misconceptions.yaml" in p for p in _drill_problems(root))
    path.write_text(text + "\n".join(f"x{i} = {i}" for i in range(20)) + "\n")
    assert any("shown whole at 80x24" in p for p in _drill_problems(root))
    path.write_text(text.replace("# drill:", "# dril:"))
    assert any("needs one line '# drill: <line> <belief-id>'" in p for p in _drill_problems(root))


def test_the_lines_that_differ_ignore_comments_and_layout():
    passing = ["def f(x):", "    # doubles", "    return 2 * x"]
    mutant = ["def f(x):", "", "    return  x * x  # squares"]
    assert differing_lines(mutant, passing) == {3}
    assert shown("# drill: 2 b\n# says: y\na = 1\nb = 2\n\n\n") == ["a = 1", "b = 2"]
