"""The benchmark runs and reports every figure (no timing is asserted: machines are noisy)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs the benchmark: workers, JAX, the TUI

ROOT = Path(__file__).resolve().parent.parent

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
    "session_rss_mb",
    "doctor_plain_s",
    "doctor_probe_s",
    "doctor_overhead",
    "doctor_cli_wall_s",
    "doctor_overhead_wall",
}


def test_bench_smoke(tmp_path, cli_env):
    scratch = tmp_path / "tmp"  # the benchmark's temporary folders, and its workers', go here
    scratch.mkdir()
    env = dict(cli_env(tmp_path), TMPDIR=str(scratch))
    proc = subprocess.run(
        [sys.executable, "-m", "tutor.bench", "--json", "--repeat", "1"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sorted(p.name for p in scratch.iterdir()) == [], "the benchmark left temporary folders behind"
    figures = json.loads(proc.stdout)
    assert KEYS <= set(figures)
    assert all(isinstance(figures[k], (int, float)) and figures[k] >= 0 for k in KEYS)
    assert figures["small_cold_s"] > 0 and figures["tui_rss_mb"] > 0
