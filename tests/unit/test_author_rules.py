"""`validate` owns the course rules that only the slow suite used to find (issue 41): an exercise's
place within its lesson, starters that fit the editor at 80 columns, a TODO in every starter, the
red-team cases each exercise needs, and the lesson and cell every doctor finding links to."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.course.author_rules import author_problems, editor_columns
from tutor.course.cases import CASES, cases_of, is_mutant

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path: Path) -> Path:
    """The shipped course, lessons, solutions and cases, to break one rule at a time."""
    root = tmp_path / "course"
    for part in ("lessons", "solutions", "tests/cases"):
        shutil.copytree(ROOT / part, root / part)
    return root


def _validate(root: Path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "--lang", "en", "validate", str(root)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    return done.returncode, done.stdout + done.stderr


def test_the_shipped_course_keeps_every_author_rule():
    course, _ = read_course(ROOT)
    assert author_problems(course, ROOT) == []


def test_what_a_cell_teaches_is_checked_in_any_course(tmp_path):
    """Issue 54: the doctor's links were 29 ids in tutor/doctor/teaching.py, checked only for the
    shipped course. Now a cell declares `teaches:`, and `validate` checks it in every course: a
    name the doctor does not report, a finding two cells claim, and a course without `doctor: true`."""
    root = _copy(tmp_path)
    lesson = root / "lessons/6.3-explicit-state.yaml"
    text = lesson.read_text(encoding="utf-8")
    assert "teaches: [side-effect/global, side-effect/rebound]" in text
    lesson.write_text(text.replace("side-effect/rebound]", "side-effect/rebond, retrace/shape]"), encoding="utf-8")
    code, out = _validate(root)
    assert code == 1, out
    assert "teaches 'side-effect/rebond', which is not a finding of the doctor" in out
    assert "6.3-explicit-state.yaml:" in out
    assert "teaches retrace/shape, as cell 'l67-jit-structure' does" in out or (
        "teaches retrace/shape, as cell 'l63-functional-counter' does" in out
    ), out
    course_file = root / "lessons/course.yaml"
    course_file.write_text(course_file.read_text().replace("doctor: true", "doctor: false"), encoding="utf-8")
    code, out = _validate(root)
    assert "does not say `doctor: true`, so the doctor sends no one there" in out, out


def test_each_broken_rule_is_named_with_its_file_and_line(tmp_path):
    root = _copy(tmp_path)
    ema = root / "lessons/exercises/ema/exercise.yaml"  # lesson 6.8, like welford
    welford_order = next(
        line for line in (root / "lessons/exercises/welford/exercise.yaml").read_text().splitlines() if "order:" in line
    )
    text = ema.read_text()
    ema.write_text(
        "\n".join(welford_order if "order:" in line else line for line in text.splitlines()) + "\n", encoding="utf-8"
    )
    starter = root / "lessons/exercises/pure-scale/starter.py"
    lines = starter.read_text().replace("TODO", "to do").split("\n")
    lines.insert(2, "x = 1  # " + "a" * 80)
    starter.write_text("\n".join(lines), encoding="utf-8")
    for mutant in [p for p in cases_of(root / CASES, "rnn") if is_mutant(p)][2:]:
        mutant.unlink()

    code, out = _validate(root)
    assert code == 1, out
    assert "exercise 'welford' has order" in out and "within lesson 6.8, as 'ema' has" in out, out
    assert f"{starter}:3: 89 columns" in out, out
    assert f"{starter}:1: a starter must say with a TODO" in out, out
    assert "exercise 'rnn' has" in out and "2 mutants" in out, out


@pytest.mark.parametrize("lines", [9, 12, 19, 20, 150])
def test_editor_columns_is_a_pure_function_of_the_line_count(lines):
    # a taller file has wider line numbers and, past the editor's rows, a scrollbar: never wider
    assert editor_columns(lines) >= editor_columns(lines * 10)


def test_order_counts_within_the_lesson(tmp_path):
    """lessons/README.md: `order` is a place among the lesson's own exercises. An exercise of the
    last lesson given order 0.5 still comes after every exercise of the lessons before it."""
    root = _copy(tmp_path)
    path = root / "lessons/exercises/train-state/exercise.yaml"
    text = path.read_text()
    path.write_text(
        "\n".join("  order: 0.5" if line.strip().startswith("order:") else line for line in text.splitlines()) + "\n",
        encoding="utf-8",
    )
    shipped, _ = read_course(ROOT)
    course, _ = read_course(root)
    lesson_of = {e.id: e.lesson for e in shipped.exercises}
    ids = [e.id for e in course.exercises]
    assert ids.index("train-state") > max(ids.index(e) for e in ids if lesson_of[e] != lesson_of["train-state"])
    assert ids[ids.index("train-state") - 1] not in {e for e in ids if lesson_of[e] == lesson_of["train-state"]}
