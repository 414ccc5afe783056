"""The course checked both ways (rustlings' `dev check`): every reference solution passes and
every starter fails, each in a fresh worker; for named exercises (`verify ID...`, the author's
loop) the course's red-team cases run too, each judged as its name says (tutor.course.cases).

`verify` yields each run's row as the run ends, so the command line shows progress while the
rest still run (an accelerator's runs, one at a time, took minutes in silence).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.course.cases import NAMING, pins, read_name
from tutor.course.cases import cases_of as _cases_of

if TYPE_CHECKING:
    from tutor.course.model import Course, Exercise
    from tutor.sandbox.events import Verdict


@dataclass(frozen=True)
class Task:
    """One run to make: an exercise's solution, its starter, or one of its cases (a path)."""

    exercise: Exercise
    which: str | Path  # "solution" | "starter" | a case file

    @property
    def file(self) -> str:
        """How rows and documents name it: solution, starter or `case <file name>`."""
        return f"case {self.which.name}" if isinstance(self.which, Path) else self.which

    @property
    def should_pass(self) -> bool:
        if isinstance(self.which, Path):
            case = read_name(self.which)
            return case is not None and case.passes
        return self.which == "solution"


@dataclass(frozen=True)
class Row:
    """One run's outcome: `ok` when the file did as it should; `problem` says why not where
    there is more to say than the verdict (a case, a starter that did not fail at a check)."""

    index: int  # its place in the plan: a final document lists rows in this order
    task: Task
    verdict: Verdict
    ok: bool
    problem: str | None
    elapsed_s: float  # seconds from the start of `verify` to this run's end

    @property
    def exercise(self) -> str:
        return self.task.exercise.id

    @property
    def file(self) -> str:
        return self.task.file

    def document(self) -> dict[str, Any]:
        """The row in `verify --json` (docs/CONTRACTS.md)."""
        doc: dict[str, Any] = {
            "exercise": self.exercise,
            "file": self.file,
            "status": self.verdict.status,
            "ok": self.ok,
            "duration_s": round(self.verdict.duration_s, 3),
            "elapsed_s": round(self.elapsed_s, 3),
        }
        if self.problem is not None:
            doc["problem"] = self.problem
        return doc


def checks_report(verdict: Verdict) -> str:
    """Each check's id, status and English message, a line each, for a problem's text."""
    return "\n".join(f"  {c.id}: {c.status} {c.message.en}" for c in verdict.checks)


def case_problem(exercise: Exercise, path: Path, source: str, verdict: Verdict) -> str | None:
    """What is wrong with a case's verdict, as its name and pins ask (None: nothing)."""
    report = checks_report(verdict)
    case = read_name(path)
    if case is None:
        return NAMING
    if case.check is None:
        if verdict.status != "pass":
            return f"should pass, got {verdict.status} ({verdict.kind}): {verdict.message.en}\n{report}"
        return None
    check_id = case.check
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


def starter_problem(verdict: Verdict) -> str | None:
    """A starter must fail at a check: not pass, and not merely stop before judging (a check that
    could not judge, checks that did not load, a time limit), which a broken course does too."""
    if any(c.status == "fail" for c in verdict.checks):
        return None
    got = f"{verdict.status} ({verdict.kind}): {verdict.message.en}"
    return f"the starter should fail at a check, got {got}\n{checks_report(verdict)}"


def plan(course: Course, ids: list[str] | None = None, cases: Path | None = None) -> list[Task]:
    """Every reference solution and starter (`ids`: only those exercises'), and with `cases` (the
    course's tests/cases) each of their red-team cases; with either, their drills."""
    chosen = [e for e in course.exercises if ids is None or e.id in ids]
    tasks = [Task(e, w) for e in chosen for w in ("solution", "starter")]
    if cases is not None:
        tasks += [Task(e, path) for e in chosen for path in _cases_of(cases, e.id)]
    # A drill is a mutant the course shows (lessons/exercises/<id>/drills/): judged as a case, in
    # the author's loop (ids, or the red team asked for).
    if cases is not None or ids:
        tasks += [
            Task(e, e.folder / "drills" / f"{n}.py") for e in chosen if e.folder for n in _drill_files(course, e.id)
        ]
    return tasks


def _drill_files(course: Course, exercise_id: str) -> list[str]:
    """The file stems of an exercise's drills (a `verify` without ids judges them too)."""
    exercise = course.exercise(exercise_id)
    folder = exercise.folder / "drills" if exercise and exercise.folder else None
    return sorted(p.stem for p in folder.glob("fail_*.py")) if folder and folder.is_dir() else []


def verify(course: Course, tasks: list[Task], home: Path, jobs: int = 2, accelerator: bool = False) -> Iterator[Row]:
    """Run `tasks`, each in a fresh worker, yielding each row as its run ends (not in plan order).
    On an accelerator one run at a time: one worker owns the device (Sandbox._on_device)."""
    from tutor.sandbox.runner import Sandbox  # imported here: `--help` and `list` need no sandbox

    started = time.monotonic()
    sandbox = Sandbox(home, accelerator=accelerator, fork_server=True, course=course.root)  # dozens of runs: fork them
    scratch = Path(tempfile.mkdtemp(prefix="jaxstate-verify-"))

    def run(index: int, task: Task) -> Row:
        exercise, which = task.exercise, task.which
        if isinstance(which, Path):  # a red-team case
            source = which.read_text(encoding="utf-8")
            verdict = sandbox.run_exercise(exercise, source, str(which)).result()
            problem = case_problem(exercise, which, source, verdict)
            ok = problem is None
        else:
            if which == "solution":
                path = course.solution_path(exercise.id)
            else:
                path = scratch / f"{exercise.id}.starter.py"
                path.write_text(exercise.starter, encoding="utf-8")
            verdict = sandbox.run_exercise(exercise, path.read_text(encoding="utf-8"), str(path)).result()
            problem = None if which == "solution" else starter_problem(verdict)
            ok = verdict.passed if which == "solution" else problem is None
        return Row(index, task, verdict, ok, problem, time.monotonic() - started)

    pool = ThreadPoolExecutor(max_workers=1 if accelerator else jobs)
    try:
        pending: set[Future[Row]] = {pool.submit(run, i, t) for i, t in enumerate(tasks)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.result().index):
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # a reader that stopped early: the rest are not run
        sandbox.close()
        shutil.rmtree(scratch, ignore_errors=True)
