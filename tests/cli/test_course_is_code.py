"""A course is code (issue 50, item 4): a course folder not shipped with the tutor is said, once per
folder, to run its checks on this machine and how they are confined; and its checks.py, import-time
code included, runs inside the confinement of any check (the fence, and under `grade` bwrap)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAID = "is a course of its own"


def _tutor(home: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    base = dict(os.environ)
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), base.get("PYTHONPATH")]))
    base["JAXSTATE_TUTOR_LANG"] = "en"
    base.pop("JAXSTATE_TUTOR_COURSE", None)
    return subprocess.run(
        [sys.executable, "-m", "tutor", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=600,
        cwd=ROOT,
    )


def _course(where: Path, preamble: str = "") -> Path:
    made = _tutor(where / "author", "new-course", str(where / "course"))
    assert made.returncode == 0, made.stderr
    checks = where / "course" / "lessons" / "exercises" / "double" / "checks.py"
    checks.write_text(preamble + checks.read_text(encoding="utf-8"), encoding="utf-8")
    return where / "course"


def test_a_course_of_ones_own_is_said_to_be_code_once_per_folder(tmp_path):
    course = _course(tmp_path)
    home = tmp_path / "home"
    first = _tutor(home, "--course", str(course), "list")
    again = _tutor(home, "--course", str(course), "list")
    shipped = _tutor(home, "list")
    assert first.returncode == again.returncode == shipped.returncode == 0, first.stderr
    assert first.stderr.count(SAID) == 1 and str(course.resolve()) in first.stderr
    # what the confinement allows, said with it as tutor.child.sight has it: never "what you can read"
    assert "may read only their own run folder" in first.stderr and "never its solutions/" in first.stderr
    assert "no home of yours" in first.stderr and "can read what you can read" not in first.stderr
    zh = _tutor(tmp_path / "home-zh", "--course", str(course), "list", env={"JAXSTATE_TUTOR_LANG": "zh"})
    assert "只能读取自己的运行文件夹" in zh.stderr and "绝不包括它的 solutions/" in zh.stderr, zh.stderr
    assert SAID not in again.stderr
    assert SAID not in shipped.stderr
    other = shutil.copytree(course, tmp_path / "fork-of-it")  # another folder: its own sentence
    assert SAID in _tutor(home, "--course", str(other), "list").stderr
    # by the variable as by the option
    third = shutil.copytree(course, tmp_path / "third")
    assert SAID in _tutor(home, "list", env={"JAXSTATE_TUTOR_COURSE": str(third)}).stderr


@pytest.mark.slow
def test_checks_import_time_code_writes_nothing_outside_its_run(tmp_path):
    target = tmp_path / "written-by-checks.py"
    course = _course(
        tmp_path,
        f"try:\n    open({str(target)!r}, 'w').write('at import')\nexcept OSError:\n    pass\n",
    )
    ran = _tutor(
        tmp_path / "home", "--course", str(course), "check", "double", "--file", str(course / "solutions/double.py")
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr  # the fence refused the write; the checks still judged
    assert not target.exists()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bwrap is not installed here")
def test_under_grade_bwrap_checks_import_time_code_sees_no_home(tmp_path):
    """The course's checks.py refuses to judge if it can see a file of the instructor's home: under
    bwrap it cannot, so an honest hand-in passes; its import ran inside the wall."""
    instructor = tmp_path / "instructor"
    instructor.mkdir()
    (instructor / "private.txt").write_text("grades\n", encoding="utf-8")
    course = _course(
        tmp_path,
        f"import os\nif os.path.exists({str(instructor / 'private.txt')!r}):\n"
        "    raise RuntimeError('the course saw a file of the home')\n",
    )
    learner = tmp_path / "alice"
    (learner / "workspace").mkdir(parents=True)
    shutil.copy(course / "solutions" / "double.py", learner / "workspace" / "double.py")
    collected = tmp_path / "collected"
    collected.mkdir()
    made = _tutor(learner, "--course", str(course), "export", "--name", "alice", "--out", str(collected / "alice.json"))
    assert made.returncode == 0, made.stderr
    out = tmp_path / "table.json"
    for isolation, status in (("bwrap", "pass"),):
        ran = _tutor(
            instructor / ".tutor",
            "--course",
            str(course),
            "grade",
            str(collected),
            "--json",
            str(out),
            "--isolation",
            isolation,
            env={"HOME": str(instructor)},
        )
        assert ran.returncode == 0, ran.stderr
        rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
        (row,) = [r for r in rows if r["status"] != "missing"]  # the one handed in, of a row per exercise
        assert (row["status"], row["isolation"]) == (status, isolation), row
