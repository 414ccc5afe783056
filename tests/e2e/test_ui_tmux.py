"""End to end: the real `python -m tutor` in tmux at 80x24, driven by keys like a learner would.

It answers the quiz, checks an exercise through the UI and then reads progress.json.
Screens are polled (capture-pane) against a deadline; nothing waits a fixed time.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

from tutor.course import read_course

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
DEADLINE_S = 180  # the first check may wait for a worker's JAX import on a busy machine


def test_a_learner_session_in_tmux(tmux, home):
    exercise = COURSE.exercise("counter-jit")
    if exercise is None:
        pytest.skip("exercise counter-jit is not in the course yet")
    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    # The learner's solution, already in the workspace file (as if written in their own editor).
    shutil.copy(COURSE.solution_path("counter-jit"), workspace / "counter-jit.py")

    tmux.start([sys.executable, "-m", "tutor", "--home", str(home), "--lang", "en"])
    tmux.wait_for("Continue:", timeout=30)

    expected_score = None
    if COURSE.quiz:
        tmux.keys("z")
        tmux.wait_for(f"Question 1 of {len(COURSE.quiz)}")
        for i, _ in enumerate(COURSE.quiz, start=1):
            tmux.keys("1")  # always the first option: right for some questions, wrong for others
            tmux.wait_for("▶ A.")
            tmux.keys("Enter")
            tmux.wait_for("Right!", "Not quite")
            tmux.keys("Enter")
            tmux.wait_for(f"Question {i + 1} of", "Quiz finished")
        shown = tmux.wait_for("Quiz finished")
        expected_score = sum(q.answer == "A" for q in COURSE.quiz)
        assert f"{expected_score} of {len(COURSE.quiz)} right" in shown
        tmux.keys("Escape")
        tmux.wait_for("Continue:")

    tmux.keys("C-p")  # the command palette finds the exercise by name
    tmux.wait_for("🔎", "Search")
    tmux.keys("counter-jit")
    tmux.wait_for("counter-jit:")
    tmux.keys("Enter")
    tmux.wait_for("— counter-jit")
    tmux.keys("F5")
    shown = tmux.wait_for("PASS", "FAIL", "ERROR", "TIMEOUT", timeout=DEADLINE_S)
    assert "PASS" in shown, shown
    assert "✓ passed" in tmux.wait_for("✓ passed")  # the status line follows the saved progress

    tmux.keys("C-q")
    deadline = time.monotonic() + 60  # a ceiling: the loop ends when the app has quit
    while "JAX state tutor" in tmux.screen() or "counter-jit" in tmux.screen():
        assert time.monotonic() < deadline, "the app did not quit"
        time.sleep(0.1)

    data = json.loads((home / "progress.json").read_text(encoding="utf-8"))
    record = data["exercises"]["counter-jit"]
    assert record["status"] == "passed" and record["attempts"] == 1
    if expected_score is not None:
        assert data["quiz"]["best_score"] == expected_score and data["quiz"]["attempts"] == 1
        assert set(data["quiz"]["answers"]) == {q.id for q in COURSE.quiz}
