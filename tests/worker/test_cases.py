"""Each exercise judged on varied correct solutions and on typical mistakes ("mutants").

tests/cases/<exercise-id>/pass_<name>.py        must pass every check
tests/cases/<exercise-id>/fail_<check-id>__<name>.py  must not pass, and check <check-id> must fail

A mutant may also pin what the failure says, in comment lines of its own:
  # says: <text>       the failing check's English message contains <text> (the real cause is named)
  # never-says: <text> ...and does not contain <text> (e.g. advice about something else)
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parents[1] / "cases"

JOBS = 2  # two cases judged at once: one worker computes while the other starts (2 cores)


def _pins(source: str, key: str) -> list[str]:
    prefix = f"# {key}:"
    return [line[len(prefix) :].strip() for line in source.splitlines() if line.startswith(prefix)]


def _cases():
    for path in sorted(CASES.glob("*/*.py")):
        yield pytest.param(path, id=f"{path.parent.name}/{path.stem}")


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
        path: pool.submit(run_source, sandbox, course.exercise(path.parent.name), path.read_text(), path.name)
        for path in selected
        if course.exercise(path.parent.name) is not None
    }
    yield futures
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("path", list(_cases()))
def test_case(path, course, case_verdicts):
    exercise = course.exercise(path.parent.name)
    assert exercise is not None, f"no exercise named {path.parent.name}"
    verdict = case_verdicts[path].result()
    report = "\n".join(f"{c.id}: {c.status} {c.message.en}" for c in verdict.checks)
    if path.name.startswith("pass_"):
        assert verdict.status == "pass", (
            f"{verdict.status} {verdict.kind}: {verdict.message}\n{report}\n{verdict.stderr[-2000:]}"
        )
    else:
        assert path.name.startswith("fail_"), "case files are named pass_* or fail_<check-id>__*"
        check_id = path.stem[len("fail_") :].split("__")[0]
        assert check_id in {c.id for c in exercise.checks}, f"{check_id} is not a check of {exercise.id}"
        assert verdict.status != "pass"
        by_id = {c.id: c for c in verdict.checks}
        assert by_id[check_id].status == "fail", f"expected {check_id} to fail:\n{report}"
        assert by_id[check_id].message.en and by_id[check_id].message.zh
        source = path.read_text()
        for text in _pins(source, "says"):
            assert text in by_id[check_id].message.en, f"{check_id} should say {text!r}:\n{report}"
        for text in _pins(source, "never-says"):
            assert text not in by_id[check_id].message.en, f"{check_id} should not say {text!r}:\n{report}"
        # failures and skips are counted apart, and every skip names the check it waits for
        skipped = [c for c in verdict.checks if c.status == "skipped"]
        if verdict.kind == "checks":
            assert ("skipped" in verdict.message.en) == bool(skipped), verdict.message.en
        for c in skipped:
            assert c.message.en.startswith(("waits for", "not run")), c.message.en
