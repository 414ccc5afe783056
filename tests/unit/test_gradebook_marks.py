"""The gradebook's marks on rows as `grade` makes them, without a worker: which hand-ins share a
group, which is the reference, and that one learner's two exports are not a copy of each other."""

from __future__ import annotations

from pathlib import Path

from tutor.classroom import gradebook
from tutor.classroom.grading import Row
from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]
COURSE = read_course(ROOT, lint=False)[0]
EXERCISE = "moving-average"
OWN = (ROOT / "tests/cases/moving-average/pass_namedtuple_state.py").read_text(encoding="utf-8")
REFERENCE = (ROOT / "solutions/moving-average.py").read_text(encoding="utf-8")


def _row(learner: str, export: str, source: str) -> Row:
    return Row(learner=learner, export=export, exercise=EXERCISE, status="pass", source=source)


def test_a_copy_is_grouped_and_the_reference_named():
    rows = [_row("ann", "a.json", OWN), _row("ben", "b.json", OWN), _row("cat", "c.json", REFERENCE)]
    counts = gradebook.mark_similar(rows, COURSE, "en")
    assert [r.similar_group for r in rows] == [f"{EXERCISE}#1", f"{EXERCISE}#1", ""]
    assert rows[0].similar_to == "ben (b.json): identical, byte for byte"
    assert [r.reference for r in rows] == ["", "", "the reference solution, byte for byte"]
    assert counts == {"copies": 2, "reference": 1}


def test_a_renamed_copy_is_near_identical_and_says_how_near():
    renamed = OWN.replace("state", "s").replace("# ", "# mine: ")
    assert renamed != OWN
    rows = [_row("ann", "a.json", OWN), _row("ben", "b.json", renamed)]
    gradebook.mark_similar(rows, COURSE, "zh")
    assert rows[1].similar_to.startswith("ann (a.json): 几乎相同（相似度 ")


def test_one_learners_two_exports_are_not_a_copy_of_each_other():
    rows = [_row("ann", "a1.json", OWN), _row("ann", "a2.json", OWN)]
    assert gradebook.mark_similar(rows, COURSE, "en") == {"copies": 0, "reference": 0}
    assert rows[0].similar_group == rows[1].similar_group == ""


def test_late_is_said_of_what_was_handed_in_after_the_due_time():
    due = gradebook.parse_time("2026-12-06T18:00:00Z")
    assert due is not None
    on_time = _row("ann", "a.json", OWN)
    on_time.exported_at = "2026-12-06T17:59:59Z"
    late = _row("ben", "b.json", OWN)
    late.exported_at, late.first_passed_at = "2026-12-06T20:30:00Z", "2026-12-06T18:00:40Z"
    submitted = _row("cat", "c.json", OWN)
    submitted.exported_at, submitted.submitted_at = "2026-12-06T17:00:00Z", "2026-12-08T18:00:00Z"
    nothing = Row(learner="ben", export="b.json", exercise="counter-jit", status="missing")
    nothing.exported_at = late.exported_at
    gradebook.mark_late([on_time, late, submitted, nothing], due, "en")
    assert on_time.late == "" and nothing.late == ""
    assert late.late == "exported 2.5 h after the due time; first passed 40 s after the due time"
    assert submitted.late == "submitted 2 d after the due time"  # the exchange's time, not the learner's clock
