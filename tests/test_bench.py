"""The benchmark runs and reports every figure (no timing is asserted: machines are noisy)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, cli_env

KEYS = {"small_cold_s", "small_warm_s", "small_inprocess_s", "heavy_first_s", "heavy_cached_s",
        "tui_first_frame_s", "tui_rss_mb", "stream_on_s", "stream_off_s", "ui_max_stall_s", "session_rss_mb"}


def test_bench_smoke(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tutor.bench", "--json", "--repeat", "1"], capture_output=True,
                          text=True, env=cli_env(tmp_path), cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    figures = json.loads(proc.stdout)
    assert KEYS <= set(figures)
    assert all(isinstance(figures[k], (int, float)) and figures[k] >= 0 for k in KEYS)
    assert figures["small_cold_s"] > 0 and figures["tui_rss_mb"] > 0
