"""Adding an exercise is adding a folder and a solution: no change under tutor/. A course
written here from nothing is loaded, checked by a real worker, and its checks' own mistakes
point at checks.py."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # real workers

LESSON = """\
lesson:
  id: "1.0"
  order: 1
  title: {en: Intro, zh: 导论}
  blocks:
    - text: {en: Doubling, zh: 加倍}
"""
EXERCISE = """\
exercise:
  id: double
  lesson: "1.0"
  title: {en: Double it, zh: 加倍}
  prompt: {en: "Write `double(x)`.", zh: "写出 `double(x)`。"}
  hints:
    - {en: Multiply by two., zh: 乘以二。}
  checks:
    - id: defines
      name: {en: defines double, zh: 定义了 double}
    - id: doubles
      name: {en: doubles its input, zh: 把输入加倍}
      advice: {en: Return 2 * x., zh: 返回 2 * x。}
    - id: broken
      name: {en: a check with a bug of its own, zh: 自身有错误的检查}
"""
CHECKS = """\
import jax.numpy as jnp
import numpy as np

from tutor.child.library import check, close, expect_no_hidden_state, is_defined


@check("defines")
def check_defines(double):
    is_defined(double=double)


@check("doubles", depends=["defines"])
def check_doubles(learner, double):
    close(double(jnp.arange(3.0)), np.array([0.0, 2.0, 4.0]), what="double([0, 1, 2])")
    expect_no_hidden_state(learner, double, jnp.arange(3.0), label="double([0, 1, 2])")


@check("broken", depends=["doubles"])
def check_broken(double):
    return undefined_name  # noqa: F821 - the check's own bug: an error, never the learner's fail
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_new_exercise_folder_is_checked_with_no_change_under_tutor(tmp_path, cli_env):
    course = tmp_path / "course"
    write(
        course,
        {
            "lessons/1.0.yaml": LESSON,
            "lessons/exercises/double/exercise.yaml": EXERCISE,
            "lessons/exercises/double/checks.py": CHECKS,
            "lessons/exercises/double/starter.py": "def double(x):\n    return x  # TODO: twice x\n",
            "solutions/double.py": "def double(x):\n    return 2 * x\n",
        },
    )
    env = cli_env(tmp_path / "home") | {"JAXSTATE_TUTOR_COURSE": str(course)}

    def tutor(*args):
        return subprocess.run(
            [sys.executable, "-m", "tutor", *args], capture_output=True, text=True, env=env, timeout=300
        )

    assert tutor("validate", str(course)).returncode == 0
    starter = json.loads(tutor("check", "double", "--json").stdout)
    by_id = {c["id"]: c for c in starter["checks"]}
    assert starter["status"] == "fail" and by_id["defines"]["status"] == "pass"
    assert by_id["doubles"]["status"] == "fail" and "Return 2 * x." in by_id["doubles"]["message"]
    assert by_id["broken"]["status"] == "skipped"
    solution = json.loads(tutor("check", "double", "--file", str(course / "solutions/double.py"), "--json").stdout)
    by_id = {c["id"]: c for c in solution["checks"]}
    assert by_id["doubles"]["status"] == "pass"
    # the check's own bug is the tutor's error, not the learner's failure
    broken = by_id["broken"]
    assert broken["status"] == "error" and "undefined_name" in broken["message"]
    assert "(checks.py line 20)" in broken["message"]  # where the check's own bug is
    assert solution["status"] != "pass"
