"""The course under JAX_ENABLE_X64=1, a learner's shell setting (issue 37). The checks run in the
learner's mode: with it every reference solution still passes, every starter fails the very
checks it fails without it, and a mistake that only 64-bit defaults explain says so.

Workers take the variable from the environment (worker_env copies os.environ) and JAX reads it
when it is imported, in the fork server the first run starts: so each mode gets a fork-server
Sandbox of its own, made while the environment says that mode, as `verify` makes one."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tutor.course import read_course

pytestmark = pytest.mark.slow  # real workers

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
JOBS = 2  # as verify: one worker computes while the other starts (2 cores)
EXERCISES = [e.id for e in read_course(ROOT)[0].exercises]

# Mistakes with 64-bit defaults in them: with X64 on, the failing check names JAX_ENABLE_X64.
# (exercise, case file, check that fails)
X64_NAMED = [
    ("functional-update", "fail_returns-state__python_int_count.py", "returns-state"),  # ~int64 count
    ("rmsprop", "fail_state-structure__zeros_of_shape_are_float32.py", "state-structure"),  # float64 s
    ("adam", "fail_state-types__float_count.py", "state-types"),  # count + 1.0 is ~float64
    ("gradient-descent", "fail_five-steps__promotes_params_to_float64.py", "five-steps"),
]

# Reference solutions rewritten as a learner in 64-bit mode may write them: (exercise, the
# solution's text, the learner's text, expected status, check that fails or None).
REWRITTEN = [
    # state: the learner's mode makes the start float64 and int64 (strong, no Python scalar in
    # it), and a step keeps them: passes
    (
        "moving-average",
        "(jnp.array(0.0, dtype=jnp.float32), jnp.array(0, dtype=jnp.int32))",
        "(jnp.zeros(()), jnp.zeros((), int))",
        "pass",
        None,
    ),
    # a dtype the exercise teaches (a float32 meter): fails, and says why the default was float64
    ("ref-meter", "jnp.zeros(2, jnp.float32)", "jnp.zeros(2)", "fail", "fresh-meter"),
]


def _judge(course, home: Path, tasks: list[tuple[str, str, str]]) -> dict:
    """{name: Verdict} for (name, exercise id, source) tasks, run on a fork-server Sandbox made
    now, in this process's environment, and closed after."""
    from tutor.sandbox.runner import Sandbox

    box = Sandbox(home, fork_server=True)
    try:

        def one(task):
            name, exercise_id, source = task
            return name, box.run_exercise(course.exercise(exercise_id), source, f"/learner/{name}.py").result()

        with ThreadPoolExecutor(max_workers=JOBS) as pool:
            return dict(pool.map(one, tasks))
    finally:
        box.close()


@pytest.fixture(scope="module")
def runs(course, tmp_path_factory):
    """{mode: {name: Verdict}}: every starter in both modes ("x32", "x64"); every solution, the
    X64_NAMED cases and the REWRITTEN solutions with X64 on."""
    starters = [(f"{e.id}.starter", e.id, e.starter) for e in course.exercises]
    solutions = [(f"{e.id}.solution", e.id, course.solution_path(e.id).read_text()) for e in course.exercises]
    named = [(f"{ex}.{case}", ex, (CASES / ex / case).read_text()) for ex, case, _ in X64_NAMED]
    rewritten = []
    for ex, was, now, _, _ in REWRITTEN:
        source = course.solution_path(ex).read_text()
        assert was in source, f"solutions/{ex}.py no longer holds {was!r}: update REWRITTEN"
        rewritten.append((f"{ex}.rewritten", ex, source.replace(was, now)))
    with pytest.MonkeyPatch.context() as env:
        env.delenv("JAX_ENABLE_X64", raising=False)
        x32 = _judge(course, tmp_path_factory.mktemp("home-x32"), starters)
        env.setenv("JAX_ENABLE_X64", "1")
        x64 = _judge(course, tmp_path_factory.mktemp("home-x64"), starters + solutions + named + rewritten)
    return {"x32": x32, "x64": x64}


def _report(verdict) -> str:
    checks = "\n".join(f"  {c.id}: {c.status} {c.message.en[:400]}" for c in verdict.checks)
    return f"{verdict.status} {verdict.kind}: {verdict.message.en}\n{checks}\n{verdict.stderr[-1500:]}"


@pytest.mark.parametrize("exercise", EXERCISES)
def test_solution_passes_with_x64(exercise, runs):
    verdict = runs["x64"][f"{exercise}.solution"]
    assert verdict.status == "pass", _report(verdict)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_starter_fails_the_same_checks_with_x64(exercise, runs):
    without, with_x64 = runs["x32"][f"{exercise}.starter"], runs["x64"][f"{exercise}.starter"]
    assert with_x64.status == "fail", _report(with_x64)
    statuses = {c.id: c.status for c in with_x64.checks}
    assert statuses == {c.id: c.status for c in without.checks}, (
        f"without X64:\n{_report(without)}\nwith X64:\n{_report(with_x64)}"
    )


@pytest.mark.parametrize(("exercise", "case", "check_id"), X64_NAMED, ids=[f"{e}/{c}" for e, c, _ in X64_NAMED])
def test_a_64_bit_default_is_named(exercise, case, check_id, runs):
    verdict = runs["x64"][f"{exercise}.{case}"]
    failed = {c.id: c for c in verdict.checks if c.status == "fail"}
    assert check_id in failed, _report(verdict)
    assert "JAX_ENABLE_X64" in failed[check_id].message.en, _report(verdict)
    assert "JAX_ENABLE_X64" in failed[check_id].message.zh, failed[check_id].message.zh


@pytest.mark.parametrize(("exercise", "was", "now", "status", "check_id"), REWRITTEN, ids=[r[0] for r in REWRITTEN])
def test_default_dtypes_of_the_learners_mode(exercise, was, now, status, check_id, runs):
    verdict = runs["x64"][f"{exercise}.rewritten"]
    assert verdict.status == status, _report(verdict)
    if check_id is not None:
        failed = {c.id: c for c in verdict.checks if c.status == "fail"}
        assert check_id in failed and "JAX_ENABLE_X64" in failed[check_id].message.en, _report(verdict)
