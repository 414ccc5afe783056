"""A plain wheel install works anywhere: lessons and solutions come from inside the wheel."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds a wheel, installs it in a venv, checks with a worker
ROOT = Path(__file__).resolve().parents[2]


def test_wheel_installs_and_checks_outside_the_repo(tmp_path, installed_wheel):
    py, venv = installed_wheel.python, installed_wheel.venv
    env = installed_wheel.env(tmp_path / "home")
    where = subprocess.run(
        [
            str(py),
            "-c",
            "import tutor, tutor.settings; print(tutor.__file__); print(tutor.settings.course_of())",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tmp_path,
    ).stdout.split()
    assert all(str(venv) in w for w in where), where

    tutor = venv / "bin" / "jaxstate-tutor"
    listed = subprocess.run(
        [str(tutor), "list", "--json"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert listed.returncode == 0, listed.stderr
    doc = json.loads(listed.stdout)
    assert len(doc["exercises"]) == len(list((ROOT / "solutions").glob("*.py")))

    # Every course file inside the wheel loads (no JAX needed), and one solution read from the
    # wheel passes its checks there; `verify` of all of them runs elsewhere in CI.
    validated = subprocess.run(
        [str(tutor), "validate"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert validated.returncode == 0, validated.stdout + validated.stderr
    solution = subprocess.run(
        [str(tutor), "solution", "counter-jit"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )
    assert solution.returncode == 0 and "def update_counter" in solution.stdout, solution.stderr
    mine = tmp_path / "mine.py"
    mine.write_text(solution.stdout)
    checked = subprocess.run(
        [str(tutor), "check", "counter-jit", "--file", str(mine), "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert checked.returncode == 0 and json.loads(checked.stdout)["status"] == "pass", checked.stdout + checked.stderr

    # The wheel's package holds the course's solutions (tutor/_course/solutions): a file that runs the
    # installed reference solution instead of solving the exercise cannot read it (issue 50; on
    # 92686d9 it passed, and `solution_viewed` stayed false).
    installed = Path(where[1]) / "solutions" / "counter-jit.py"
    assert installed.is_file(), installed
    thief = tmp_path / "thief.py"
    thief.write_text(f"exec(open({str(installed)!r}).read())\n")
    stolen = subprocess.run(
        [str(tutor), "check", "counter-jit", "--file", str(thief), "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    verdict = json.loads(stolen.stdout)
    assert verdict["status"] != "pass", verdict
    assert "may read only its own folder, the course and Python" in verdict["message"], verdict["message"]
