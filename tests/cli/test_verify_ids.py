"""`verify ID...`, the author's loop for one exercise (issue 41): validate's problems, then that
exercise's solution, starter and red-team cases, each judged as its name says (tutor.cli.verify)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # real workers

ROOT = Path(__file__).resolve().parents[2]


def _verify(args, env, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "tutor", "verify", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )


def test_one_exercise_with_its_cases(tmp_path, cli_env):
    done = _verify(["counter-jit", "--json"], cli_env(tmp_path))
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["ok"], done.stdout + done.stderr
    files = [r["file"] for r in out["results"]]
    assert {r["exercise"] for r in out["results"]} == {"counter-jit"}
    assert files[:2] == ["solution", "starter"]
    cases = sorted(p.name for p in (ROOT / "tests/cases/counter-jit").glob("*.py"))
    assert sorted(f.removeprefix("case ") for f in files[2:]) == cases
    assert out["problems"] == []


def test_a_case_that_lies_about_its_check_is_named(tmp_path, cli_env):
    """A course copy whose correct variant is filed as a mutant: verify says which and why."""
    root = tmp_path / "course"
    for part in ("lessons", "solutions", "tests/cases"):
        shutil.copytree(ROOT / part, root / part)
    shutil.copy(ROOT / "solutions/counter-jit.py", root / "tests/cases/counter-jit/fail_counts-up__not_really.py")
    env = cli_env(tmp_path / "home")
    env["JAXSTATE_TUTOR_COURSE"] = str(root)
    done = _verify(["counter-jit"], env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "fail_counts-up__not_really.py" in done.stdout and "should fail at counts-up, but passed" in done.stdout


def test_a_checks_own_mistake_fails_verify_for_the_starter_and_every_mutant(tmp_path, cli_env):
    """checks.py whose checks misuse the tutor's own objects (an attribute a TraceCounter lacks)
    could not judge anything: the starter did not fail *at a check*, and no mutant failed where its
    name says, so verify is red and says so, not "fails, as it should" (the harness once blamed the
    learner for such an error)."""
    root = tmp_path / "course"
    for part in ("lessons", "solutions", "tests/cases"):
        shutil.copytree(ROOT / part, root / part)
    checks = root / "lessons/exercises/counter-jit/checks.py"
    ids = ["defines", "returns-pair", "counts-up", "increment-passthrough", "pure", "jit-once"]
    checks.write_text(
        "from tutor.child.library import check, traced\n"
        + "".join(
            f"\n\n@check({cid!r})\ndef check_{n}(update_counter):\n    traced(update_counter, 'u').fn(0, 1)\n"
            for n, cid in enumerate(ids)
        ),
        encoding="utf-8",
    )
    env = cli_env(tmp_path / "home")
    env["JAXSTATE_TUTOR_COURSE"] = str(root)
    done = _verify(["counter-jit", "--json"], env)
    assert done.returncode == 1, done.stdout + done.stderr
    results = {r["file"]: r for r in json.loads(done.stdout)["results"]}
    assert not results["starter"]["ok"] and "should fail at a check" in results["starter"]["problem"]
    assert "could not judge" in results["starter"]["problem"] and "TraceCounter" in results["starter"]["problem"]
    mutants = [r for f, r in results.items() if f.startswith("case fail_")]
    assert mutants and not any(r["ok"] for r in mutants), mutants


def test_an_unknown_id_is_a_usage_error(tmp_path, cli_env):
    done = _verify(["no-such-exercise"], cli_env(tmp_path))
    assert done.returncode == 2 and "no-such-exercise" in done.stderr and "counter-jit" in done.stderr
