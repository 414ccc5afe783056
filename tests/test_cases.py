"""Each exercise judged on varied correct solutions and on typical mistakes ("mutants").

tests/cases/<exercise-id>/pass_<name>.py        must pass every check
tests/cases/<exercise-id>/fail_<check-id>__<name>.py  must not pass, and check <check-id> must fail
"""

from __future__ import annotations

import pytest

from conftest import CASES, run_source


def _cases():
    for path in sorted(CASES.glob("*/*.py")):
        yield pytest.param(path, id=f"{path.parent.name}/{path.stem}")


@pytest.mark.parametrize("path", list(_cases()))
def test_case(path, course, sandbox):
    exercise = course.exercise(path.parent.name)
    assert exercise is not None, f"no exercise named {path.parent.name}"
    verdict = run_source(sandbox, exercise, path.read_text(), path.name)
    report = "\n".join(f"{c.id}: {c.status} {c.message.get('en', '')}" for c in verdict.checks)
    if path.name.startswith("pass_"):
        assert verdict.status == "pass", f"{verdict.status} {verdict.kind}: {verdict.message}\n{report}\n{verdict.stderr[-2000:]}"
    else:
        assert path.name.startswith("fail_"), "case files are named pass_* or fail_<check-id>__*"
        check_id = path.stem[len("fail_"):].split("__")[0]
        assert check_id in {c.id for c in exercise.checks}, f"{check_id} is not a check of {exercise.id}"
        assert verdict.status != "pass"
        by_id = {c.id: c for c in verdict.checks}
        assert by_id[check_id].status == "fail", f"expected {check_id} to fail:\n{report}"
        assert by_id[check_id].message.get("en") and by_id[check_id].message.get("zh")


def test_every_exercise_has_enough_cases(course):
    for exercise in course.exercises:
        folder = CASES / exercise.id
        passes = list(folder.glob("pass_*.py"))
        fails = list(folder.glob("fail_*.py"))
        assert len(passes) >= 2, f"{exercise.id}: needs at least 2 correct variants, has {len(passes)}"
        assert len(fails) >= 3, f"{exercise.id}: needs at least 3 mutants, has {len(fails)}"
