"""The course checked both ways (rustlings' `dev check`): every reference solution passes and
every starter fails, each in a fresh worker. `jaxstate-tutor verify` prints what this returns.
For named exercises (`verify ID...`, the author's loop) the course's red-team cases run too:

    tests/cases/<exercise-id>/pass_<name>.py              must pass every check
    tests/cases/<exercise-id>/fail_<check-id>__<name>.py  must not pass, and check <check-id> must fail

A mutant may also pin what the failure says, in comment lines of its own:
    # says: <text>       the failing check's English message contains <text> (the real cause is named)
    # never-says: <text> ...and does not contain <text> (e.g. advice about something else)
"""

from __future__ import annotations

import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def cases_of(cases: Path, exercise_id: str) -> list[Path]:
    """The red-team cases of one exercise, in name order."""
    return sorted((cases / exercise_id).glob("*.py"))


def pins(source: str, key: str) -> list[str]:
    prefix = f"# {key}:"
    return [line[len(prefix) :].strip() for line in source.splitlines() if line.startswith(prefix)]


def checks_report(verdict) -> str:
    """Each check's id, status and English message, a line each, for a problem's text."""
    return "\n".join(f"  {c.id}: {c.status} {c.message.en}" for c in verdict.checks)


def case_problem(exercise, path: Path, source: str, verdict) -> str | None:
    """What is wrong with a case's verdict, as its name and pins ask (None: nothing)."""
    report = checks_report(verdict)
    if path.name.startswith("pass_"):
        if verdict.status != "pass":
            return f"should pass, got {verdict.status} ({verdict.kind}): {verdict.message.en}\n{report}"
        return None
    if not path.name.startswith("fail_"):
        return "case files are named pass_<name>.py or fail_<check-id>__<name>.py"
    check_id = path.stem[len("fail_") :].split("__")[0]
    if check_id not in {c.id for c in exercise.checks}:
        return f"'{check_id}' (from the file's name) is not a check of {exercise.id}"
    if verdict.status == "pass":
        return f"should fail at {check_id}, but passed"
    failed = next((c for c in verdict.checks if c.id == check_id), None)
    if failed is None or failed.status != "fail":
        return f"should fail at {check_id}:\n{report}"
    if not (failed.message.en and failed.message.zh):
        return f"{check_id} failed without a message in both languages"
    for text in pins(source, "says"):
        if text not in failed.message.en:
            return f"{check_id} should say {text!r}:\n{report}"
    for text in pins(source, "never-says"):
        if text in failed.message.en:
            return f"{check_id} should not say {text!r}:\n{report}"
    return None


def starter_problem(verdict) -> str | None:
    """A starter must fail at a check: not pass, and not merely stop before judging (a check that
    could not judge, checks that did not load, a time limit), which a broken course does too."""
    if any(c.status == "fail" for c in verdict.checks):
        return None
    got = f"{verdict.status} ({verdict.kind}): {verdict.message.en}"
    return f"the starter should fail at a check, got {got}\n{checks_report(verdict)}"


def verify_course(
    course,
    home: Path,
    jobs: int = 2,
    accelerator: bool = False,
    ids: list[str] | None = None,
    cases: Path | None = None,
) -> list[dict]:
    """Run every reference solution (must pass) and every starter (must fail); `ids`: only those
    exercises', and with `cases` (the course's tests/cases) each of their red-team cases."""
    from tutor.sandbox.runner import Sandbox  # imported here: `--help` and `list` need no sandbox

    sandbox = Sandbox(home, accelerator=accelerator, fork_server=True)  # 32 runs: fork them
    scratch = Path(tempfile.mkdtemp(prefix="jaxstate-verify-"))

    def one(task):
        exercise, which = task
        problem = None
        if isinstance(which, Path):  # a red-team case
            path = which
            source = path.read_text(encoding="utf-8")
            verdict = sandbox.run_exercise(exercise, source, str(path)).result()
            problem = case_problem(exercise, path, source, verdict)
            ok, which = problem is None, f"case {path.name}"
        else:
            if which == "solution":
                path = course.solution_path(exercise.id)
            else:
                path = scratch / f"{exercise.id}.starter.py"
                path.write_text(exercise.starter, encoding="utf-8")
            verdict = sandbox.run_exercise(exercise, path.read_text(encoding="utf-8"), str(path)).result()
            problem = None if which == "solution" else starter_problem(verdict)
            ok = verdict.passed if which == "solution" else problem is None
        result = {
            "exercise": exercise.id,
            "file": which,
            "status": verdict.status,
            "ok": ok,
            "duration_s": round(verdict.duration_s, 3),
            "verdict": verdict,
        }
        if problem is not None:
            result["problem"] = problem
        return result

    chosen = [e for e in course.exercises if ids is None or e.id in ids]
    tasks: list[tuple] = [(e, w) for e in chosen for w in ("solution", "starter")]
    if cases is not None:
        tasks += [(e, path) for e in chosen for path in cases_of(cases, e.id)]
    if accelerator:
        jobs = 1  # one worker at a time owns the device (Sandbox._on_device): a second would only wait
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, tasks))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
