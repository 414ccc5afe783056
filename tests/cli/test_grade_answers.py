"""`grade` scores first tries again from the answers an export holds, and binds an export to its
course. Each learner's progress is made by the change functions the quiz screen records answers
with (the same file a learner's TUI writes), the export by the real CLI; then a learner's editor
changes what it claims. A claim the answers do not give is flagged and shown as scored, never as
claimed; an export of another course is refused, of another version of it flagged."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.progress import ProgressStore, changes

ROOT = Path(__file__).resolve().parents[2]
COURSE = read_course(ROOT)[0]


def _tutor(cli_env, home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env=cli_env(home),
        timeout=timeout,
        cwd=ROOT,
    )


def _wrong(question) -> str:
    return next(letter for letter in "ABCD" if letter != question.answer)


def _take_quiz(home: Path, wrong: int) -> None:
    """Every quiz question answered once, as written (a lettered question's first asking), the
    first `wrong` of them wrongly; then the quiz's round counted."""
    store = ProgressStore(home)
    for i, q in enumerate(COURSE.quiz):
        given = _wrong(q) if i < wrong else q.answer
        store.apply(changes.answer, q.id, given, given == q.answer, True)
    store.apply(changes.quiz_result, len(COURSE.quiz) - wrong)


def _edit(path: Path, edit) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")


def _grade(cli_env, tmp_path: Path, folder: Path, *course: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    out = tmp_path / "table.json"
    p = _tutor(cli_env, tmp_path / "instructor", *course, "grade", str(folder), "--json", str(out))
    assert p.returncode == 0, p.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    # the rows of what the export holds or claims (the table has a row for every exercise of the course)
    return p, [r for r in rows if r["status"] != "missing" or r["claimed"]]


def test_a_quiz_claim_the_answers_do_not_give_is_flagged_and_shown_as_scored(tmp_path, cli_env):
    folder = tmp_path / "in"
    folder.mkdir()
    for name, wrong in (("honest", 3), ("boaster", 3), ("editor", 3)):
        home = tmp_path / name
        _take_quiz(home, wrong)
        store = ProgressStore(home)
        store.apply(changes.attempt, "pure-scale", False)  # a row to carry the scores
        p = _tutor(cli_env, home, "export", "--name", name, "--out", str(folder / f"{name}.json"))
        assert p.returncode == 0, p.stderr
    honest = json.loads((folder / "honest.json").read_text(encoding="utf-8"))
    assert honest["progress"]["quiz"]["first_score"] == 5
    assert honest["course"]["id"] == "jax-state" and honest["course"]["content_hash"].startswith("sha256:")
    firsts = [a for a in honest["answers"] if a["part"] == "quiz" and a["try"] == 1]
    assert [a["question"] for a in firsts] == [q.id for q in COURSE.quiz] and all(a["at"] for a in firsts)
    # the boaster writes "999 of 8" into the export; the editor marks a wrong first try right in
    # progress.json's first score (the answers still say what was answered)
    _edit(folder / "boaster.json", lambda d: d["progress"]["quiz"].update(first_score=999))
    _edit(folder / "editor.json", lambda d: d["progress"]["quiz"].update(first_score=6))
    p, rows = _grade(cli_env, tmp_path, folder)
    by = {r["learner"]: r for r in rows}
    assert {k: (r["quiz_first_try"], r["flag"]) for k, r in by.items()} == {
        "honest": ("5/8", ""),
        "boaster": ("5/8", "forged or stale"),
        "editor": ("5/8", "forged or stale"),
    }
    assert "first try claimed 999/8, but the answers give 5/8" in by["boaster"]["note"]
    assert "first try claimed 6/8, but the answers give 5/8" in by["editor"]["note"]
    assert "999" not in by["boaster"]["quiz_first_try"]
    assert "2 exports claim first-try scores their answers do not give" in p.stderr


def test_a_forged_checkpoint_first_try_is_flagged_an_honest_one_scores_as_claimed(tmp_path, cli_env):
    """A course of one's own (new-course): its checkpoint's one question answered wrong first,
    then right on a retry; one learner's progress then says the first try was right."""
    course = tmp_path / "course"
    assert _tutor(cli_env, tmp_path / "author", "new-course", str(course)).returncode == 0
    (q,) = read_course(course)[0].checkpoint("1")
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("honest", "forger"):
        home = tmp_path / name
        store = ProgressStore(home)
        store.apply(changes.answer, q.id, _wrong(q), False, False)
        store.apply(changes.question_drawn, q.id, 0)
        store.apply(changes.answer, q.id, q.answer, True, False)
        store.apply(changes.attempt, "double", False)
        if name == "forger":  # what an editor can do to progress.json
            _edit(home / "progress.json", lambda d: d["questions"][q.id].update(first_correct=True))
        p = _tutor(cli_env, home, "--course", str(course), "export", "--name", name, "--out", str(folder / name))
        assert p.returncode == 0, p.stderr
    assert json.loads((folder / "forger").read_text(encoding="utf-8"))["progress"]["checkpoints"][0]["first_score"] == 1
    p, rows = _grade(cli_env, tmp_path, folder, "--course", str(course))
    by = {r["learner"]: r for r in rows}
    assert {k: (r["checkpoints_first_try"], r["flag"]) for k, r in by.items()} == {
        "honest": ("1 0/1", ""),
        "forger": ("1 0/1", "forged or stale"),
    }
    assert "checkpoint 1: first try claimed 1/1, but the answers give 0/1" in by["forger"]["note"]
    assert by["honest"]["quiz_first_try"] == ""  # that course has no quiz


def test_an_export_of_another_course_is_refused_and_of_another_version_flagged(tmp_path, cli_env):
    folder = tmp_path / "in"
    folder.mkdir()
    home = tmp_path / "alice"
    ProgressStore(home).apply(changes.attempt, "pure-scale", False)
    assert _tutor(cli_env, home, "export", "--name", "alice", "--out", str(folder / "alice.json")).returncode == 0
    # the instructor's copy of the course, one lesson's text changed: another version of it
    edited = tmp_path / "edited"
    shutil.copytree(ROOT / "lessons", edited / "lessons")
    shutil.copytree(ROOT / "solutions", edited / "solutions")
    lesson = edited / "lessons" / "6.1-purity.yaml"
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("pure", "pure ", 1), encoding="utf-8")
    _, rows = _grade(cli_env, tmp_path, folder, "--course", str(edited))
    (row,) = rows
    assert (row["status"], row["flag"]) == ("missing", "other course version")
    assert "another version of the course 'jax-state'" in row["note"]
    # another author's course: refused whole, saying whose the export is
    other = tmp_path / "other"
    assert _tutor(cli_env, tmp_path / "author", "new-course", str(other)).returncode == 0
    p, rows = _grade(cli_env, tmp_path, folder, "--course", str(other))
    (row,) = rows
    assert (row["learner"], row["exercise"], row["status"]) == ("alice", "", "refused")
    assert "an export of the course 'jax-state' (JAX state tutor" in row["note"]
    assert "1 of another course, refused" in p.stderr
    # the same course, the same version: nothing flagged; notes beside the course are no new version
    _, rows = _grade(cli_env, tmp_path, folder)
    assert [(r["status"], r["flag"]) for r in rows] == [("missing", "")]
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("pure ", "pure", 1), encoding="utf-8")
    (edited / "lessons" / "NOTES.md").write_text("for the teaching assistants\n", encoding="utf-8")
    _, rows = _grade(cli_env, tmp_path, folder, "--course", str(edited))
    assert [(r["status"], r["flag"]) for r in rows] == [("missing", "")]


def _printed(question, variant: int) -> str:
    """What a template variant's code prints as its answer: run here with plain Python (JAX in
    this process's environment), not through the tutor's worker that `grade` uses."""
    cell = question.template.cell(question.id, variant)
    run = subprocess.run([sys.executable, "-c", cell.code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    shown = question.template.shown(run.stdout)
    assert shown is not None, run.stdout
    return shown


@pytest.mark.slow  # a worker runs each template variant again
def test_a_template_first_try_is_judged_against_what_its_variant_prints(tmp_path, cli_env):
    """Checkpoint 6.1 (two template questions and a lettered one): the honest learner's numbers
    are what the variants print, and re-score to the 3/3 claimed; the forger gave a wrong number
    to one and marked it right in progress.json: flagged, shown as 2/3."""
    questions = COURSE.checkpoint("6.1")
    templates = [q for q in questions if q.numeric]
    assert len(templates) == 2
    right = {q.id: _printed(q, 1) for q in templates}
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("honest", "forger"):
        home = tmp_path / name
        store = ProgressStore(home)
        for q in questions:
            if q.numeric:
                store.apply(changes.question_drawn, q.id, 1)
                given = right[q.id]
                if name == "forger" and q is templates[0]:
                    given = str(float(given) + 7)
                store.apply(changes.answer, q.id, given, given == right[q.id], False)
            else:
                store.apply(changes.answer, q.id, q.answer, True, False)
        store.apply(changes.attempt, "pure-scale", False)
        if name == "forger":
            _edit(home / "progress.json", lambda d: d["questions"][templates[0].id].update(first_correct=True))
        p = _tutor(cli_env, home, "export", "--name", name, "--out", str(folder / f"{name}.json"))
        assert p.returncode == 0, p.stderr
    honest = json.loads((folder / "honest.json").read_text(encoding="utf-8"))
    asked = next(a for a in honest["answers"] if a["question"] == templates[0].id)
    assert asked["variant"] == 1 and asked["values"] == templates[0].template.variants[1]
    p, rows = _grade(cli_env, tmp_path, folder)
    by = {r["learner"]: r for r in rows}
    assert by["honest"]["checkpoints_first_try"].startswith("6.1 3/3") and by["honest"]["flag"] == ""
    assert by["forger"]["checkpoints_first_try"].startswith("6.1 2/3")
    assert by["forger"]["flag"] == "forged or stale"
    assert "checkpoint 6.1: first try claimed 3/3, but the answers give 2/3" in by["forger"]["note"]


def test_a_quiz_answered_under_the_older_tutor_grades_from_what_it_kept(tmp_path, cli_env):
    """progress.json as 92686d9 wrote it (a question's latest answer and first_correct, no
    `given`): answered once, that answer is the first and scores as claimed; answered twice
    before answers were kept, the first is not known, and the claim is flagged saying so."""
    folder = tmp_path / "in"
    folder.mkdir()
    for name, retried in (("once", False), ("twice", True)):
        questions = {}
        for i, q in enumerate(COURSE.quiz):
            wrong_first = i == 2
            again = retried and wrong_first
            given = q.answer if again or not wrong_first else _wrong(q)
            questions[q.id] = {
                "answer": given,
                "answered_at": "2026-12-01T10:00:00Z",
                "correct": given == q.answer,
                "first_correct": not wrong_first,
                "tries": 2 if again else 1,
                "variants": [1] if again else [],
            }
        old = {
            "schema": 1,
            "exercises": {"pure-scale": {"status": "attempted", "attempts": 1}},
            "lessons": {},
            "predictions": {},
            "questions": questions,
            "quiz": {"answers": {k: v["answer"] for k, v in questions.items()}, "attempts": 1, "best_score": 7},
        }
        home = tmp_path / name
        home.mkdir()
        (home / "progress.json").write_text(json.dumps(old, indent=2), encoding="utf-8")
        p = _tutor(cli_env, home, "export", "--name", name, "--out", str(folder / f"{name}.json"))
        assert p.returncode == 0, p.stderr
        assert "damaged" not in p.stderr and not list(home.glob("progress.json.*"))
    p, rows = _grade(cli_env, tmp_path, folder)
    by = {r["learner"]: r for r in rows}
    assert (by["once"]["quiz_first_try"], by["once"]["flag"]) == ("7/8", "")
    assert (by["twice"]["quiz_first_try"], by["twice"]["flag"]) == ("", "forged or stale")
    assert "answered more than once before the tutor kept answers" in by["twice"]["note"]
