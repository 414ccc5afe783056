"""Points are the course's: an exercise declares what a pass is worth (1 by default), a
checkpoint and the quiz what their first tries are worth (0, not graded, by default); a worth
that is not a number of 0 or more is a problem `validate` names with file and line."""

from __future__ import annotations

from pathlib import Path

from tutor.course import read_course
from tutor.course.model import DEFAULT_POINTS
from tutor.course.scaffold import new_course


def _course(tmp_path: Path, exercise: str = "", checkpoint: str = "") -> tuple:
    root = tmp_path / "c"
    new_course(root)
    if exercise:
        path = root / "lessons/exercises/double/exercise.yaml"
        path.write_text(path.read_text(encoding="utf-8") + f"  points: {exercise}\n", encoding="utf-8")
    if checkpoint:
        path = root / "lessons/checkpoints/1.yaml"
        path.write_text(path.read_text(encoding="utf-8") + f"  points: {checkpoint}\n", encoding="utf-8")
    return read_course(root, lint=False)


def test_without_a_declaration_an_exercise_is_worth_the_default_and_a_checkpoint_nothing(tmp_path):
    course, problems = _course(tmp_path)
    assert problems == []
    assert course.exercises[0].points == DEFAULT_POINTS == 1.0
    assert course.checkpoints[0].points == 0.0 and course.quiz_points == 0.0


def test_declared_points_are_read(tmp_path):
    course, problems = _course(tmp_path, exercise="2.5", checkpoint="3")
    assert problems == []
    assert course.exercises[0].points == 2.5 and course.checkpoints[0].points == 3.0


def test_zero_points_is_an_ungraded_exercise(tmp_path):
    course, problems = _course(tmp_path, exercise="0")
    assert problems == [] and course.exercises[0].points == 0.0


def test_a_worth_that_is_not_a_number_of_zero_or_more_is_named_with_its_line(tmp_path):
    for bad in ("-1", "ten", "true", ".inf"):
        course, problems = _course(tmp_path / bad, exercise=bad)
        said = [str(p) for p in problems]
        assert any("exercise.yaml:" in s and "exercise points must be a number, 0 or more" in s for s in said), said
        assert course.exercises[0].points == DEFAULT_POINTS
