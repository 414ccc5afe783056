"""Every demo cell and quiz evidence cell does what it declares, on the installed JAX; a cell's
`predict:` answer is what the same run shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]


def _cells():
    course = read_course(ROOT)[0]  # what loads: test_course.py reports the problems
    return [pytest.param(cell, id=cell.id) for cell in course.cells()]


@pytest.mark.parametrize("cell", _cells())
def test_cell_outcome(cell, sandbox):
    verdict = sandbox.run_cell(cell).result()
    detail = ""
    if verdict.cell:
        detail = f"raised={verdict.cell.raised} {verdict.cell.message[:300]}\n{verdict.cell.traceback[-1500:]}"
    assert verdict.status == "pass", (
        f"{cell.source}: {verdict.kind}: {verdict.message.en}\n{detail}\nstdout:\n{verdict.stdout[-1500:]}\n"
        f"stderr:\n{verdict.stderr[-1500:]}"
    )
    if cell.predict is not None:
        # The prediction's answer is revealed by the run itself: never trust the author.
        p = cell.predict
        shown = p.shown(verdict.stdout)
        assert shown is not None, (
            f"{cell.source}: predict.reveal {p.reveal!r} finds nothing in:\n{verdict.stdout[-1500:]}"
        )
        assert p.is_right(p.answer, shown), (
            f"{cell.source}: predict answer {p.describe(p.answer, 'en')!r} but the run shows {shown!r}"
        )
        wrong = [k for k in p.options if k != p.answer and p.is_right(k, shown)]
        assert not wrong, f"{cell.source}: options {wrong} also match what the run shows ({shown!r})"


def _templates():
    course = read_course(ROOT)[0]
    return [pytest.param(q, id=q.id) for q in course.questions() if q.template]


@pytest.mark.parametrize("question", _templates())
def test_template_variants_answer_themselves(question, sandbox):
    """Each variant of a template question runs and prints a number: the answer the learner is
    graded against comes from this run, never from the author. And a retry asks something new:
    the variants do not all share one answer."""
    answers = set()
    for variant in range(question.variants()):
        cell = question.template.cell(question.id, variant)
        verdict = sandbox.run_cell(cell).result()
        where = f"{question.source}: variant {variant + 1}"
        assert verdict.status == "pass", (
            f"{where}: {verdict.kind}: {verdict.message.en}\nstdout:\n{verdict.stdout[-1500:]}\n"
            f"stderr:\n{verdict.stderr[-1500:]}"
        )
        shown = question.template.shown(verdict.stdout)
        assert shown is not None, (
            f"{where}: reveal {question.template.reveal!r} finds no number in:\n{verdict.stdout[-1500:]}"
        )
        answers.add(float(shown))
    assert len(answers) > 1, f"{question.source}: every variant has the answer {answers.pop()}"
