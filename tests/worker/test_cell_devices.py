"""A cell may ask for several of JAX's virtual CPU devices (`cpu_devices:`, issue 52 item 11: state
replicated across devices, shown on one CPU): its worker starts with that many, spawned for it,
while every other cell keeps the one-device spare. The key is checked as the course loads."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.course.model import Cell

COUNT = "import jax\nprint('devices:', jax.device_count(), jax.default_backend())\n"


@pytest.mark.slow
def test_a_cell_that_asks_for_four_cpu_devices_sees_four_and_the_next_cell_one(sandbox):
    many = sandbox.run_cell(Cell(id="four", code=COUNT, cpu_devices=4)).result()
    assert many.status == "pass", many.stderr[-1500:]
    assert "devices: 4 cpu" in many.stdout, many.stdout
    one = sandbox.run_cell(Cell(id="one", code=COUNT)).result()
    assert one.status == "pass", one.stderr[-1500:]
    assert "devices: 1 cpu" in one.stdout, one.stdout


@pytest.mark.slow
def test_with_an_accelerator_the_cell_still_gets_its_cpu_devices(tmp_path):
    from tutor.sandbox.runner import Sandbox

    box = Sandbox(tmp_path / "home", accelerator=True)  # cells run on the CPU even so
    try:
        verdict = box.run_cell(Cell(id="four", code=COUNT, cpu_devices=4)).result()
    finally:
        box.close()
    assert verdict.status == "pass", verdict.stderr[-1500:]
    assert "devices: 4 cpu" in verdict.stdout, verdict.stdout


def _load(tmp_path: Path, value: str) -> tuple[list[int], list[str]]:
    lesson = f"""\
    lesson:
      id: "1.0"
      order: 1
      title: {{en: T, zh: 题}}
      blocks:
        - cell:
            id: c1
            cpu_devices: {value}
            code: |
              print(1)
    """
    path = tmp_path / "lessons" / "1.0.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(lesson), encoding="utf-8")
    (tmp_path / "solutions").mkdir(exist_ok=True)
    course, problems = read_course(tmp_path)
    return [c.cpu_devices for c in course.cells()], [p.message for p in problems]


@pytest.mark.parametrize("value, devices", [("4", 4), ("1", 1), ("8", 8)])
def test_a_whole_number_of_devices_loads(tmp_path, value, devices):
    assert _load(tmp_path, value) == ([devices], [])


@pytest.mark.parametrize("value", ["0", "9", "2.5", '"4"', "true"])
def test_anything_else_is_a_problem_naming_the_range(tmp_path, value):
    _, problems = _load(tmp_path, value)
    assert any("cpu_devices must be a whole number from 1 to 8" in p for p in problems), problems
