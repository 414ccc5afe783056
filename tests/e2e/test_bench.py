"""The benchmark runs from an installed wheel and reports every figure (no timing is asserted:
machines are noisy); what it measures is chosen from the course, never named in its code."""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]

KEYS = {
    "small_cold_s",
    "small_warm_s",
    "small_inprocess_s",
    "heavy_first_s",
    "heavy_cached_s",
    "tui_first_frame_s",
    "tui_rss_mb",
    "stream_on_s",
    "stream_off_s",
    "ui_max_stall_s",
    "ui_max_stall_cpu_s",
    "outline_tree_pss_mb",
    "session_pss_mb",
    "doctor_plain_s",
    "doctor_probe_s",
    "doctor_overhead",
    "doctor_cli_wall_s",
    "doctor_overhead_wall",
}


@pytest.mark.slow  # runs the benchmark: workers, JAX, the TUI
def test_bench_smoke_from_an_installed_wheel(tmp_path, installed_wheel, course):
    scratch = tmp_path / "tmp"  # the benchmark's temporary folders, and its workers', go here
    scratch.mkdir()
    env = dict(installed_wheel.env(tmp_path / "home"), TMPDIR=str(scratch))
    proc = subprocess.run(
        [str(installed_wheel.python), "-m", "tutor.bench", "--json", "--repeat", "1"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,  # nowhere near the checkout: its tests/ cannot be read
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sorted(p.name for p in scratch.iterdir()) == [], "the benchmark left temporary folders behind"
    figures = json.loads(proc.stdout)
    assert KEYS <= set(figures)
    assert all(isinstance(figures[k], (int, float)) and figures[k] >= 0 for k in KEYS)
    assert figures["small_cold_s"] > 0 and figures["tui_rss_mb"] > 0
    assert {figures["small_exercise"], figures["heavy_exercise"]} <= {e.id for e in course.exercises}


def _exercise(folder: Path, id_: str, solution: str, plots: bool):
    (folder / f"{id_}.py").write_text(solution)
    return SimpleNamespace(id=id_, checks=(SimpleNamespace(plots=False), SimpleNamespace(plots=plots)))


def test_the_benchmark_chooses_by_solution_size_and_plotting(tmp_path):
    from tutor.bench.measure import choose

    exercises = (
        _exercise(tmp_path, "long-plain", "x = 1\n" * 50, False),
        _exercise(tmp_path, "short-plain", "x = 1\n", False),
        _exercise(tmp_path, "tiny-trainer", "", True),  # the shortest of all, but it trains
        _exercise(tmp_path, "big-trainer", "x = 1\n" * 90, True),
        _exercise(tmp_path, "also-short", "y = 2\n", False),  # a tie: the first on the path wins
    )
    course = SimpleNamespace(exercises=exercises, solution_path=lambda id_: tmp_path / f"{id_}.py")
    small, heavy = choose(course)
    assert (small.id, heavy.id) == ("short-plain", "tiny-trainer")


def test_the_benchmark_names_no_exercise_and_reads_nothing_under_tests(course):
    """A course change cannot break it, and a wheel (which has no tests/) can run it."""
    ids = {e.id for e in course.exercises}
    found = []
    for path in sorted((ROOT / "tutor" / "bench").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if node.value in ids or node.value == "tests":
                    found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert found == []
