"""tutor.protocol's vocabularies are Literals, so mypy refuses a word that is not one of them,
wherever it is written: the check a source scan of the kinds used to make (issue 54). Each case
is a few lines of code as a module of the tutor would write them, checked by mypy with the
project's configuration; the right ones must pass, so the others fail for their word."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy")
ROOT = Path(__file__).resolve().parents[2]

RIGHT = """
    def made(v: Verdict) -> RunError:
        if v.kind == "cancelled" and v.status != "timeout":
            return RunError("oom", Bilingual(en="", zh=""))
        return RunError(v.kind, v.message)
"""
WRONG = {
    "a kind not listed, on the worker's side": 'RunError("brand-new", Bilingual(en="", zh=""))',
    "a verdict status not listed": 'Verdict("passed", "checks", Bilingual(en="", zh=""), [], "", "", 0.0, {})',
    "a kind compared that no verdict has": 'print(verdict.kind == "canceled")',
    "an exercise status not listed": 'ExerciseRecord(status="done")',
    "a lesson status not listed": 'changes.lesson(Progress(), "6.1", "finished")',
    "a grade status not listed": 'Judged("late", 0, 0)',
}
IMPORTS = """
    from tutor.classroom.grading import Judged
    from tutor.i18n import Bilingual
    from tutor.progress import changes
    from tutor.progress.records import ExerciseRecord, Progress
    from tutor.protocol import RunError
    from tutor.sandbox.events import Verdict
    verdict: Verdict
"""


def _mypy(tmp_path: Path, source: str) -> tuple[str, int]:
    """mypy with the project's configuration on one module, with no cache (one shared with the
    developer's own runs went stale: it said an error that a fresh run did not), in a process of
    its own: in this one, mypy's build ends with gc.unfreeze() and leaves its own collector
    thresholds, and every later app in the test process walked the whole heap as it started."""
    module = tmp_path / "case.py"
    module.write_text(source)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            os.devnull,
            str(module),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    return done.stdout + done.stderr, done.returncode


def test_mypy_refuses_each_word_not_listed_and_only_those(tmp_path):
    """One mypy run (a cold one takes seconds): the right words first, then each wrong one on its
    own line, which must have its own error, and nothing else may."""
    head = textwrap.dedent(IMPORTS) + textwrap.dedent(RIGHT)
    first = head.count("\n") + 1
    out, status = _mypy(tmp_path, head + "\n".join(WRONG.values()) + "\n")
    errors = [l for l in out.splitlines() if ": error:" in l]
    lines = {int(l.split(":")[1]) for l in errors}
    assert lines == set(range(first, first + len(WRONG))), out  # none on the right words
    for n, what in enumerate(WRONG, start=first):
        said = [l for l in errors if l.startswith(f"{tmp_path / 'case.py'}:{n}: error")]
        assert any("Literal[" in l for l in said), (what, out)
    assert status == 1
