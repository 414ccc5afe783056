"""The course checked both ways (rustlings' `dev check`): every reference solution passes and
every starter fails, each in a fresh worker. `jaxstate-tutor verify` prints what this returns."""

from __future__ import annotations

import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def verify_course(course, home: Path, jobs: int = 2, accelerator: bool = False) -> list[dict]:
    """Run every reference solution (must pass) and every starter (must fail)."""
    from tutor.sandbox.runner import Sandbox  # imported here: `--help` and `list` need no sandbox

    sandbox = Sandbox(home, accelerator=accelerator, fork_server=True)  # 32 runs: fork them
    scratch = Path(tempfile.mkdtemp(prefix="jaxstate-verify-"))

    def one(task):
        exercise, which = task
        if which == "solution":
            path = course.solution_path(exercise.id)
        else:
            path = scratch / f"{exercise.id}.starter.py"
            path.write_text(exercise.starter, encoding="utf-8")
        verdict = sandbox.run_exercise(exercise, path.read_text(encoding="utf-8"), str(path)).result()
        ok = verdict.passed if which == "solution" else not verdict.passed
        return {
            "exercise": exercise.id,
            "file": which,
            "status": verdict.status,
            "ok": ok,
            "duration_s": round(verdict.duration_s, 3),
            "verdict": verdict,
        }

    tasks = [(e, w) for e in course.exercises for w in ("solution", "starter")]
    if accelerator:
        jobs = 1  # one worker at a time owns the device (Sandbox._on_device): a second would only wait
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, tasks))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
