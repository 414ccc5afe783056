"""`verify ID...`, the author's loop for one exercise (issue 41): validate's problems, then that
exercise's solution, starter and red-team cases, each judged as its name says (tutor.course.cases, tutor.course.verify)."""

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
    cases += [p.name for p in (ROOT / "lessons/exercises/counter-jit/drills").glob("*.py")]  # the mutants it shows
    assert sorted(f.removeprefix("case ") for f in files[2:]) == sorted(cases)
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


def _small_course(tmp_path, cli_env) -> tuple[Path, dict]:
    course = tmp_path / "small"
    env = cli_env(tmp_path / "home")
    assert (
        subprocess.run([sys.executable, "-m", "tutor", "new-course", str(course)], env=env, timeout=120).returncode == 0
    )
    return course, env


def _lines_while_running(args, env) -> list[tuple[str, bool]]:
    """Each line of stdout with whether the command was still running when it came."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tutor", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    try:
        return [(line, proc.poll() is None) for line in proc.stdout]
    finally:
        proc.wait(timeout=600)


def test_each_run_is_shown_as_it_ends(tmp_path, cli_env):
    """Issue 54: `verify` printed nothing until its last run ended (on a TPU VM, nothing for
    290 s). Now each run's line comes while the others still run, with the count so far."""
    course, env = _small_course(tmp_path, cli_env)
    lines = _lines_while_running(["--course", str(course), "verify", "double"], env)
    runs = [(line, running) for line, running in lines if line.startswith("[")]
    assert [line.split("]")[0].split()[0] for line, _ in runs] == [f"[{n}/7" for n in range(1, 8)], lines
    assert runs[0][1], "the first run's line came only once verify had ended"  # 6 runs were still to go
    assert lines[-1][0].startswith("verify: 1 exercises, every solution passes")


def test_json_lines_stream_each_run_then_the_document(tmp_path, cli_env):
    course, env = _small_course(tmp_path, cli_env)
    lines = _lines_while_running(["--course", str(course), "verify", "double", "--json-lines"], env)
    docs = [json.loads(line) for line, _ in lines]
    assert all(next(iter(d)) == "schema_version" for d in docs)
    assert [d["done"] for d in docs[:-1]] == list(range(1, 8)) and {d["total"] for d in docs[:-1]} == {7}
    assert lines[0][1], "the first run's line came only once verify had ended"
    final = docs[-1]
    assert final["ok"] and [r["file"] for r in final["results"]][:2] == ["solution", "starter"]
    assert sorted(json.dumps(d["result"], sort_keys=True) for d in docs[:-1]) == sorted(
        json.dumps(r, sort_keys=True) for r in final["results"]
    )


def test_json_shows_each_run_on_stderr_and_one_document_on_stdout(tmp_path, cli_env):
    course, env = _small_course(tmp_path, cli_env)
    done = _verify(["--course", str(course), "double", "--json"], env)
    assert done.returncode == 0 and json.loads(done.stdout)["ok"], done.stdout + done.stderr
    shown = [line for line in done.stderr.splitlines() if line.startswith("[")]
    assert len(shown) == 7 and shown[-1].startswith("[7/7"), done.stderr
