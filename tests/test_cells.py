"""Every demo cell and quiz evidence cell does what it declares, on the installed JAX."""

from __future__ import annotations

import pytest

from conftest import shipped_course


def _cells():
    course = shipped_course()
    return [pytest.param(cell, id=cell.id) for cell in course.cells()]


@pytest.mark.parametrize("cell", _cells())
def test_cell_outcome(cell, sandbox):
    verdict = sandbox.run_cell(cell).result()
    detail = ""
    if verdict.cell:
        detail = f"raised={verdict.cell.raised} {verdict.cell.message[:300]}\n{verdict.cell.traceback[-1500:]}"
    assert verdict.status == "pass", (
        f"{cell.source}: {verdict.kind}: {verdict.message['en']}\n{detail}\nstdout:\n{verdict.stdout[-1500:]}\n"
        f"stderr:\n{verdict.stderr[-1500:]}")
