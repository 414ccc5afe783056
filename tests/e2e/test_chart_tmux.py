"""End to end: the loss chart is visibly live in the real `python -m tutor` at 80x24 in tmux.

The rnn exercise is checked with a correct solution that takes its time: each forward pass waits
2 ms in a host callback, so the 3000 training steps last at least 6 s on any machine (the reference
solution trains in ~0.3 s, faster than a screen can be watched, and a busy CI saw one state). The
screen is captured as fast as tmux answers while the check runs, and the chart must be seen in
several different states, each with points plotted, before the verdict line appears.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
DEADLINE_S = 180  # the first check may wait for a worker's JAX import on a busy machine
VERDICTS = ("✓ PASS", "✗ FAIL", "! ERROR", "✗ TIMEOUT")
SLOW_DOWN = """

import time as _time

import jax as _jax

_fast_forward = rnn_forward


def rnn_forward(params, xs):
    _jax.debug.callback(lambda: _time.sleep(0.002))  # once per call, even under vmap
    return _fast_forward(params, xs)
"""


def chart_lines(screen: str) -> list[str] | None:
    """The chart's lines on screen (its note and as much of the plot as fits), or None."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if "Training loss" in line and "╭" in line:
            return [l for l in lines[i + 1 :] if l.lstrip().startswith("│")]
    return None


def test_the_rnn_loss_curve_grows_while_the_check_runs(tmux, home):
    if COURSE.exercise("rnn") is None:
        pytest.skip("exercise rnn is not in the course yet")
    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    (workspace / "rnn.py").write_text(COURSE.solution_path("rnn").read_text() + SLOW_DOWN)

    tmux.start([sys.executable, "-m", "tutor", "--home", str(home), "--lang", "en"])
    tmux.wait_for("Continue:", timeout=30)
    tmux.keys("C-p")
    tmux.wait_for("🔎", "Search")
    tmux.keys("rnn")
    tmux.wait_for("rnn: An RNN")
    tmux.keys("Enter")
    tmux.wait_for("— rnn")
    tmux.keys("F5")

    states: list[tuple[str, ...]] = []  # distinct charts with points, in the order seen
    seen: list[str] = []  # when each new note line appeared, for the failure message
    start = time.monotonic()
    deadline = start + DEADLINE_S
    while True:
        shown = tmux.screen()
        if any(v in shown for v in VERDICTS):
            break
        chart = chart_lines(shown)
        if chart and "latest:" in chart[0] and tuple(chart) not in states:
            states.append(tuple(chart))
            seen.append(f"{time.monotonic() - start:6.2f} s {chart[0].strip(' │')}")
        assert time.monotonic() < deadline, f"no verdict; the screen shows:\n{shown}"
        time.sleep(0.02)  # the chart redraws at most every 0.05 s; leave the CPU to the tutor
    assert "✓ PASS" in shown, shown
    seen.append(f"{time.monotonic() - start:6.2f} s the verdict")
    assert len(states) >= 5, (
        f"the chart was seen in {len(states)} states with points before the verdict:\n"
        + "\n".join(seen)
        + "\nthe last:\n"
        + "\n".join(states[-1] if states else ())
    )
    # The curve grew: the latest step shown went up from one state to the next.
    steps = [int(s[0].split("(step ")[1].split(")")[0]) for s in states]
    assert steps == sorted(steps) and steps[-1] > steps[0], steps
