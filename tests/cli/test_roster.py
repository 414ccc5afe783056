"""`grade --roster` and the gradebook's arithmetic, on hand-written exports that hold no file (so
no worker runs): who handed in nothing, whose export is of no one on the roster, who handed in
twice (neither kept), a roster or a due time that cannot be used (bad usage, before anything
runs), and points a course declares for an exercise and a checkpoint."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.course.scaffold import new_course

ROOT = Path(__file__).resolve().parents[2]


def _tutor(tmp_path: Path, *args: str, course: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for key in ("JUPYTERHUB_USER", "JUPYTERHUB_API_TOKEN", "JAXSTATE_TUTOR_COURSE"):
        env.pop(key, None)
    env |= {
        "JAXSTATE_TUTOR_HOME": str(tmp_path / "instructor"),
        "JAXSTATE_TUTOR_LANG": "en",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
    }
    where = ["--course", str(course)] if course else []
    return subprocess.run(
        [sys.executable, "-m", "tutor", *where, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
    )


def _export(folder: Path, file: str, learner: str, progress: dict | None = None, answers: list | None = None) -> None:
    doc = {
        "format": "jaxstate-tutor-export",
        "format_version": 1 if answers is None else 2,
        "answers": answers,
        "learner": learner,
        "exported_at": "2026-12-06T10:00:00Z",
        "progress": progress or {},
        "files": {},
    }
    folder.mkdir(exist_ok=True)
    (folder / file).write_text(json.dumps(doc), encoding="utf-8")


def _wide(path: Path) -> dict[str, dict[str, str]]:
    lines = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    return {line[0]: dict(zip(lines[0], line, strict=True)) for line in lines[1:]}


@pytest.fixture
def roster(tmp_path) -> Path:
    path = tmp_path / "roster.csv"
    # a spreadsheet's export: a BOM, Canvas's header words, a blank line
    path.write_text("\ufeffStudent,SIS User ID,Email\nAnn Lee,ann,ann@school.edu\n\nBen Ito,ben,\n", encoding="utf-8")
    return path


def test_missing_not_on_roster_and_twice_handed_in(tmp_path, roster):
    folder = tmp_path / "in"
    _export(folder, "a1.json", "ann")
    _export(folder, "a2.json", "ANN@school.edu")  # her email, another case: still ann
    _export(folder, "eve.json", "eve")
    out, wide = tmp_path / "t.json", tmp_path / "wide.csv"
    p = _tutor(tmp_path, "grade", str(folder), "--roster", str(roster), "--json", str(out), "--wide", str(wide))
    assert p.returncode == 0, p.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    by = {}
    for r in doc["rows"]:
        by.setdefault((r["learner"], r["export"]), []).append(r)
    assert set(by) == {("Ann Lee", "a1.json"), ("Ann Lee", "a2.json"), ("eve", "eve.json"), ("Ben Ito", "")}
    assert {r["roster"] for r in by[("Ann Lee", "a1.json")] + by[("Ann Lee", "a2.json")]} == {"2 exports"}
    assert "several exports (a1.json, a2.json)" in by[("Ann Lee", "a1.json")][0]["note"]
    assert {r["roster"] for r in by[("eve", "eve.json")]} == {"not on roster"}
    assert {(r["roster"], r["status"]) for r in by[("Ben Ito", "")]} == {("no export", "missing")}
    assert {r["learner_id"] for r in by[("Ann Lee", "a1.json")]} == {"ann"}
    counts = {k: doc["summary"][k] for k in ("missing_learners", "not_on_roster", "duplicates")}
    assert counts == {"missing_learners": 1, "not_on_roster": 1, "duplicates": 1}
    lines = _wide(wide)
    assert list(lines) == ["    Points Possible", "Ann Lee", "Ben Ito", "eve"]
    assert set(list(lines["Ann Lee"].values())[5:]) == {""}  # neither export kept: nothing imported
    assert lines["Ben Ito"]["Total"] == "0" and lines["eve"]["Total"] == "0"
    assert "1 learners handed in nothing, 1 exports are of no one on the roster, 1 learners handed in more" in p.stderr


def test_without_a_roster_two_exports_of_one_name_are_flagged_still(tmp_path):
    folder = tmp_path / "in"
    _export(folder, "x.json", "sam")
    _export(folder, "y.json", "Sam ")
    p = _tutor(tmp_path, "grade", str(folder))
    assert p.returncode == 0, p.stderr
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    assert {(r["export"], r["roster"]) for r in rows} == {("x.json", "2 exports"), ("y.json", "2 exports")}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (None, "cannot read the roster"),
        ("id,email\nann,a@b\n", "has no 'name' column"),
        ("name,id\nAnn,ann\nAnnie,ann\n", "line 3: 'ann' is already on line 2"),
        ("name,id\n,ann\n", "line 2: a learner without a name"),
        (b"name\n\xff\n", "not UTF-8"),
    ],
)
def test_a_roster_that_cannot_be_used_is_bad_usage_before_anything_runs(tmp_path, text, said):
    folder = tmp_path / "in"
    _export(folder, "a.json", "ann")
    path = tmp_path / "roster.csv"
    if isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text, encoding="utf-8")
    p = _tutor(tmp_path, "grade", str(folder), "--roster", str(path), "--csv", str(tmp_path / "t.csv"))
    assert p.returncode == 2 and said in p.stderr, p.stderr
    assert not (tmp_path / "t.csv").exists()


def test_a_due_time_that_is_not_one_is_bad_usage(tmp_path):
    _export(tmp_path / "in", "a.json", "ann")
    p = _tutor(tmp_path, "grade", str(tmp_path / "in"), "--due", "friday")
    assert p.returncode == 2 and "--due 'friday' is not a time" in p.stderr


def test_the_course_declares_the_points_and_the_total_adds_them(tmp_path):
    course = tmp_path / "course"
    new_course(course)
    exercise = course / "lessons/exercises/double/exercise.yaml"
    exercise.write_text(exercise.read_text(encoding="utf-8") + "  points: 3\n", encoding="utf-8")
    checkpoint = course / "lessons/checkpoints/1.yaml"
    checkpoint.write_text(checkpoint.read_text(encoding="utf-8") + "  points: 2\n", encoding="utf-8")
    progress = {"checkpoints": [{"lesson": "1", "questions": 1, "first_score": 1}]}
    # her first answer, scored again against the course: the checkpoint's points come from it
    answers = [{"question": "cp1-arange-doubled", "part": "1", "try": 1, "variant": 0, "answer": "A"}]
    _export(tmp_path / "in", "kim.json", "kim", progress, answers)
    wide, out = tmp_path / "wide.csv", tmp_path / "t.json"
    p = _tutor(tmp_path, "grade", str(tmp_path / "in"), "--wide", str(wide), "--json", str(out), course=course)
    assert p.returncode == 0, p.stderr
    lines = _wide(wide)
    assert lines["    Points Possible"]["double"] == "3" and lines["    Points Possible"]["checkpoint 1"] == "2"
    assert lines["    Points Possible"]["Total"] == "5"
    assert (lines["kim"]["double"], lines["kim"]["checkpoint 1"], lines["kim"]["Total"]) == ("0", "2", "2")
    (row,) = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert (row["points"], row["points_possible"], row["total"], row["total_possible"]) == ("0", "3", "2", "5")
