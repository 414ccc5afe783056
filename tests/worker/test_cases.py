"""Each exercise judged on varied correct solutions and on typical mistakes ("mutants"), as
tutor.course.cases names them (the rule and its pins live there; `verify ID` runs the same cases).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tutor.course.cases import is_mutant
from tutor.course.verify import case_problem

CASES = Path(__file__).resolve().parents[1] / "cases"

JOBS = 2  # two cases judged at once: one worker computes while the other starts (2 cores)


DRILLS = CASES.parents[1] / "lessons" / "exercises"  # the mutants the course shows: <id>/drills/


def _exercise_id(path: Path) -> str:
    return path.parent.parent.name if path.parent.name == "drills" else path.parent.name


def _cases():
    for path in sorted(CASES.glob("*/*.py")):
        yield pytest.param(path, id=f"{path.parent.name}/{path.stem}")
    for path in sorted(DRILLS.glob("*/drills/*.py")):
        yield pytest.param(path, id=f"{_exercise_id(path)}/drills/{path.stem}")


@pytest.fixture(scope="session")
def case_verdicts(request, course, sandbox, run_source):
    """Every selected case, submitted at once to a small pool; each test waits for its own."""
    selected = [
        item.callspec.params["path"]
        for item in request.session.items
        if getattr(item, "callspec", None) is not None
        and "path" in item.callspec.params
        and item.module.__name__ == __name__
    ]
    pool = ThreadPoolExecutor(max_workers=JOBS)
    futures = {
        path: pool.submit(run_source, sandbox, course.exercise(_exercise_id(path)), path.read_text(), path.name)
        for path in selected
        if course.exercise(_exercise_id(path)) is not None
    }
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("path", list(_cases()))
def test_case(path, course, case_verdicts):
    exercise = course.exercise(_exercise_id(path))
    assert exercise is not None, f"no exercise named {_exercise_id(path)}"
    verdict = case_verdicts[path].result()
    problem = case_problem(exercise, path, path.read_text(), verdict)
    assert problem is None, f"{problem}\n{verdict.stderr[-2000:]}"
    if is_mutant(path):
        # failures and skips are counted apart, and every skip names the check it waits for
        skipped = [c for c in verdict.checks if c.status == "skipped"]
        if verdict.kind == "checks":
            assert ("skipped" in verdict.message.en) == bool(skipped), verdict.message.en
        for c in skipped:
            assert c.message.en.startswith(("waits for", "not run")), c.message.en
