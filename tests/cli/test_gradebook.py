"""A gradebook an instructor can put into Canvas or Moodle (issue 51): three learners through the
real CLI, each with their own home, and `grade --roster` on what they hand in, with real workers.

- ann writes her own moving-average and hands it in from a JupyterHub account (JUPYTERHUB_USER),
  typing another name into --name, which the account overrides;
- ben hands in ann's file byte for byte;
- cat views the solution, takes a hint, and hands in the reference solution;
- dan is on the roster and hands in nothing.

The table must say: ann and ben share one work, cat's is the reference and she viewed it, dan is
missing, every exercise has its row, points and totals add up, and the exports made after the due
time are late. On 92686d9 there is no --roster, no points and no such columns.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "moving-average"
ANNS = ROOT / "tests/cases/moving-average/pass_namedtuple_state.py"  # written on its own: not the reference


def _tutor(home: Path, *args: str, hub_user: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for key in ("JUPYTERHUB_USER", "JUPYTERHUB_API_TOKEN", "JAXSTATE_TUTOR_COURSE"):
        env.pop(key, None)
    env |= {
        "JAXSTATE_TUTOR_HOME": str(home),
        "JAXSTATE_TUTOR_LANG": "en",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
    }
    if hub_user:
        env["JUPYTERHUB_USER"] = hub_user
    return subprocess.run(
        [sys.executable, "-m", "tutor", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=ROOT,
    )


def _hand_in(home: Path, source: str) -> None:
    (home / "workspace").mkdir(parents=True, exist_ok=True)
    (home / "workspace" / f"{EXERCISE}.py").write_text(source, encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    base = tmp_path_factory.mktemp("gradebook")
    folder = base / "collected"
    folder.mkdir()
    ran = {}

    ann = base / "ann"
    _hand_in(ann, ANNS.read_text(encoding="utf-8"))
    ran["ann-check"] = _tutor(ann, "check", EXERCISE)
    ran["ann-export"] = _tutor(
        ann, "export", "--name", "ben", "--out", str(folder / "ann.json"), hub_user="ann"
    )  # her account names her, whatever she types
    time.sleep(1.1)  # export times are to the second: the due time falls between ann's and the others'
    due = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    time.sleep(1.1)

    ben = base / "ben"
    (ben / "workspace").mkdir(parents=True)  # ann's file, byte for byte
    (ben / "workspace" / f"{EXERCISE}.py").write_bytes((ann / "workspace" / f"{EXERCISE}.py").read_bytes())
    ran["ben-check"] = _tutor(ben, "check", EXERCISE)
    ran["ben-export"] = _tutor(ben, "export", "--name", "ben", "--out", str(folder / "ben.json"))

    cat = base / "cat"
    ran["cat-solution"] = _tutor(cat, "solution", EXERCISE, "--yes")
    ran["cat-hint"] = _tutor(cat, "hint", EXERCISE)
    _hand_in(cat, (ROOT / "solutions" / f"{EXERCISE}.py").read_text(encoding="utf-8"))
    ran["cat-check"] = _tutor(cat, "check", EXERCISE)
    ran["cat-export"] = _tutor(cat, "export", "--name", "cat", "--out", str(folder / "cat.json"))

    roster = base / "roster.csv"
    roster.write_text(
        "name,id,email,section\nAnn Lee,ann,ann@school.edu,A\nBen Ito,ben,ben@school.edu,A\n"
        "Cat Roy,cat,cat@school.edu,B\nDan Wu,dan,dan@school.edu,B\n",
        encoding="utf-8",
    )
    out = {"csv": base / "class.csv", "json": base / "class.json", "wide": base / "gradebook.csv"}
    ran["grade"] = _tutor(
        base / "instructor",
        "grade",
        str(folder),
        "--roster",
        str(roster),
        "--due",
        due,
        "--csv",
        str(out["csv"]),
        "--json",
        str(out["json"]),
        "--wide",
        str(out["wide"]),
    )
    return ran, out


def _rows(out) -> dict[tuple[str, str], dict]:
    doc = json.loads(out["json"].read_text(encoding="utf-8"))
    return {(r["learner"], r["exercise"]): r for r in doc["rows"]}


@pytest.mark.slow
def test_every_command_of_the_class_ran(graded):
    ran, _ = graded
    codes = {k: p.returncode for k, p in ran.items()}
    assert set(codes.values()) == {0}, {k: p.stderr[-800:] for k, p in ran.items() if p.returncode}
    assert "under JupyterHub the export is in your account's name, ann" in ran["ann-export"].stderr


@pytest.mark.slow
def test_the_copy_the_reference_and_the_viewed_solution_are_shown(graded):
    _, out = graded
    rows = _rows(out)
    ann, ben, cat = (rows[(n, EXERCISE)] for n in ("Ann Lee", "Ben Ito", "Cat Roy"))
    assert [r["status"] for r in (ann, ben, cat)] == ["pass", "pass", "pass"]
    assert ann["export"] == "ann.json" and ann["learner_id"] == "ann"  # her account, not the --name she typed
    # ann and ben: one group, each naming the other
    assert ann["similar_group"] == ben["similar_group"] == f"{EXERCISE}#1"
    assert ann["similar_to"] == "Ben Ito (ben.json): identical, byte for byte"
    assert ben["similar_to"] == "Ann Lee (ann.json): identical, byte for byte"
    assert ann["reference"] == ben["reference"] == ""
    # cat: the reference itself, the solution viewed, one hint
    assert cat["reference"] == "the reference solution, byte for byte"
    assert cat["similar_group"] == "" and cat["similar_to"] == ""
    assert (cat["solution_viewed"], ann["solution_viewed"], ben["solution_viewed"]) == ("yes", "no", "no")
    hints = len(read_course(ROOT, lint=False)[0].exercise(EXERCISE).hints)
    assert (cat["hints"], ann["hints"]) == (f"1/{hints}", f"0/{hints}")
    doc = json.loads(out["json"].read_text(encoding="utf-8"))
    assert doc["format_version"] == 3
    assert {k: doc["summary"][k] for k in ("copies", "reference", "viewed", "missing_learners")} == {
        "copies": 2,
        "reference": 1,
        "viewed": 1,
        "missing_learners": 1,
    }


@pytest.mark.slow
def test_every_exercise_has_its_row_and_points_add_up(graded):
    _, out = graded
    rows = _rows(out)
    course = read_course(ROOT, lint=False)[0]
    ids = [e.id for e in course.exercises]
    for name in ("Ann Lee", "Ben Ito", "Cat Roy", "Dan Wu"):
        assert [r["exercise"] for (n, _), r in rows.items() if n == name] == ids
        total = sum(float(rows[(name, i)]["points"]) for i in ids)
        assert {rows[(name, i)]["total"] for i in ids} == {f"{total:g}"}
        assert rows[(name, ids[0])]["total_possible"] == f"{len(ids):g}"  # 1 point an exercise by default
    assert rows[("Ann Lee", EXERCISE)]["points"] == "1" and rows[("Ann Lee", EXERCISE)]["total"] == "1"
    other = rows[("Ann Lee", "counter-jit")]
    assert (other["status"], other["points"], other["note"]) == ("missing", "0", "not handed in")
    dan = rows[("Dan Wu", EXERCISE)]
    assert (dan["status"], dan["roster"], dan["export"], dan["total"]) == ("missing", "no export", "", "0")
    assert dan["note"] == "no export from this learner"


@pytest.mark.slow
def test_the_exports_after_the_due_time_are_late(graded):
    _, out = graded
    rows = _rows(out)
    assert rows[("Ann Lee", EXERCISE)]["late"] == ""
    for name in ("Ben Ito", "Cat Roy"):
        late = rows[(name, EXERCISE)]["late"]
        assert re.match(r"exported \d+(\.\d+)? (s|min|h) after the due time", late), late  # a loaded box is slow
        assert "first passed" in late  # they passed after it too
        assert rows[(name, EXERCISE)]["exported_at"] and rows[(name, EXERCISE)]["first_passed_at"]


@pytest.mark.slow
def test_the_wide_gradebook_is_what_canvas_imports(graded):
    ran, out = graded
    lines = list(csv.reader(io.StringIO(out["wide"].read_text(encoding="utf-8"))))
    course = read_course(ROOT, lint=False)[0]
    ids = [e.id for e in course.exercises]
    assert lines[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *ids, "Total"]
    assert lines[1][0] == "    Points Possible" and lines[1][5:] == ["1"] * len(ids) + [f"{len(ids)}"]
    by_name = {line[0]: dict(zip(lines[0], line, strict=True)) for line in lines[2:]}
    assert list(by_name) == ["Ann Lee", "Ben Ito", "Cat Roy", "Dan Wu"]  # the roster's order
    assert by_name["Ann Lee"]["SIS User ID"] == "ann" and by_name["Ann Lee"]["SIS Login ID"] == "ann@school.edu"
    assert by_name["Cat Roy"]["Section"] == "B"
    assert [by_name[n][EXERCISE] for n in by_name] == ["1", "1", "1", "0"]
    assert [by_name[n]["Total"] for n in by_name] == ["1", "1", "1", "0"]
    assert by_name["Dan Wu"]["counter-jit"] == "0"
    assert "Roster: 1 learners handed in nothing, 0 exports are of no one" in ran["grade"].stderr
    assert "2 hand-ins that share their work with another's, 1 that are the reference" in ran["grade"].stderr
