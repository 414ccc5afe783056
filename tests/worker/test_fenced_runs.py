"""What a check's run may change: its run folder, nothing of the learner's (tutor.child.fence,
tutor.sandbox.run_copy). A real `check` on a real home, with the learner's own workspace file."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "counter-jit"

# The instance: the worker used to run the learner's real file, so the folder above __file__
# was the home. This deletes its own file and forges a "passed" record next to it.
SELF_DESTRUCT = """import json, os
home = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    with open(os.path.join(home, "progress.json"), "w") as f:
        json.dump({"schema": 1, "exercises": {"counter-jit": {"status": "passed", "attempts": 1}}}, f)
except OSError as exc:
    print("forging refused:", exc.strerror)
os.remove(__file__)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
"""


@pytest.fixture
def course(tmp_path):
    root = tmp_path / "course"
    (root / "lessons" / "exercises").mkdir(parents=True)
    (root / "solutions").mkdir()
    shutil.copytree(ROOT / "lessons" / "exercises" / EXERCISE, root / "lessons" / "exercises" / EXERCISE)
    shutil.copy(ROOT / "solutions" / f"{EXERCISE}.py", root / "solutions")
    return root


def _check(home: Path, course: Path, cli_env) -> tuple[int, dict]:
    env = {**cli_env(home), "JAXSTATE_TUTOR_COURSE": str(course)}
    proc = subprocess.run(
        [sys.executable, "-m", "tutor", "check", EXERCISE, "--json"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        timeout=300,
    )
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.slow  # a real CLI and worker
def test_a_program_deleting_its_own_file_and_forging_progress_changes_nothing(tmp_path, course, cli_env):
    home = tmp_path / "home"
    learner = home / "workspace" / f"{EXERCISE}.py"
    learner.parent.mkdir(parents=True)
    learner.write_text(SELF_DESTRUCT)
    code, doc = _check(home, course, cli_env)
    assert code == 1 and doc["status"] == "fail", doc
    assert learner.read_text() == SELF_DESTRUCT  # the program deleted its copy, not the learner's file
    assert "deleted its own file" in doc["message"] and "your file is unchanged" in doc["message"], doc["message"]
    record = json.loads((home / "progress.json").read_text())["exercises"][EXERCISE]
    assert record["status"] == "attempted", record
    # The next check runs the same file again: nothing was lost, no starter written back.
    code, doc = _check(home, course, cli_env)
    assert doc["status"] == "fail" and learner.read_text() == SELF_DESTRUCT, doc
    assert json.loads((home / "progress.json").read_text())["exercises"][EXERCISE]["attempts"] == 2
