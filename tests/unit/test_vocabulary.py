"""tutor.protocol's vocabularies are Literals, so mypy refuses a word that is not one of them,
wherever it is written: the check a source scan of the kinds used to make (issue 54). Each case
is a few lines of code as a module of the tutor would write them, checked by mypy with the
project's configuration; the first is right and must pass, so the others fail for their word."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api")
ROOT = Path(__file__).resolve().parents[2]

RIGHT = """
    from tutor.i18n import Bilingual
    from tutor.protocol import RunError
    from tutor.sandbox.events import Verdict

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
    "a lesson status not listed": 'changes.lesson({}, "6.1", "finished")',
    "a grade status not listed": 'Judged("late", 0, 0)',
}
IMPORTS = """
    from tutor.classroom.grading import Judged
    from tutor.i18n import Bilingual
    from tutor.progress import changes
    from tutor.progress.snapshot import ExerciseRecord
    from tutor.protocol import RunError
    from tutor.sandbox.events import Verdict
    verdict: Verdict
"""


def _mypy(tmp_path: Path, source: str) -> tuple[str, int]:
    module = tmp_path / "case.py"
    module.write_text(textwrap.dedent(source) if source.startswith("\n    ") else source)
    out, err, status = mypy_api.run(
        ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache"), str(module)]
    )
    return out + err, status


def test_the_right_words_pass(tmp_path):
    out, status = _mypy(tmp_path, RIGHT)
    assert status == 0, out


def test_each_word_not_listed_is_refused(tmp_path):
    """One mypy run for all of them (each on its own line): each line must have its own error."""
    head = textwrap.dedent(IMPORTS)
    first = head.count("\n") + 1
    out, status = _mypy(tmp_path, head + "\n".join(WRONG.values()) + "\n")
    assert status == 1, out
    for n, what in enumerate(WRONG, start=first):
        said = [l for l in out.splitlines() if l.startswith(f"{tmp_path / 'case.py'}:{n}: error")]
        assert any("Literal[" in l for l in said), (what, out)
