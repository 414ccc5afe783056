"""`jaxstate-tutor watch` in a real terminal: after a pass it offers the next exercise on the path,
and Enter moves to it, like rustlings' watch mode (it does not exit to the shell)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

from tutor.course import read_course
from tutor.progress import Snapshot, normalize
from tutor.progress.path import Step, course_path, next_step

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
DEADLINE_S = 180


def test_watch_offers_the_next_exercise_after_a_pass(tmux, home):
    exercises = [s.id for s in course_path(COURSE) if s.kind == "exercise"]
    first = exercises[0]
    second = next_step(COURSE, Snapshot(normalize({})[0]), Step("exercise", first), kinds=("exercise",)).id
    tmux.start([sys.executable, "-m", "tutor", "--lang", "en", "watch"])  # no id: the first unpassed exercise
    tmux.wait_for(f"{first}.py", timeout=60)
    tmux.wait_for("FAIL", timeout=DEADLINE_S)  # the starter is checked at once
    shutil.copy(COURSE.solution_path(first), home / "workspace" / f"{first}.py")  # saved from an editor
    shown = tmux.wait_for("Next on the path", timeout=DEADLINE_S)
    assert f"Next on the path: {second}" in " ".join(shown.split())
    tmux.keys("Enter")

    # The next exercise's file is watched, and its starter checked under a rule naming it. Its failure
    # can be longer than the screen: read the scrollback, where wrapped lines are joined.
    def next_checked(history: str) -> bool:
        after = history[history.rfind("Next on the path") :]
        watched = after.find(f"{second}.py")
        return (
            watched >= 0 and re.search(rf"{re.escape(second)} \d\d:\d\d:\d\d[\s\S]*FAIL", after[watched:]) is not None
        )

    tmux.wait_in_history(next_checked, f"{second}.py watched, then its starter's FAIL", timeout=DEADLINE_S)
    tmux.keys("C-c")
