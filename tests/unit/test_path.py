"""The learner's path and the one "what comes next" rule (tutor.progress.path), on a small course and the real one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.course.model import Checkpoint, Course, Exercise, Lesson, Question
from tutor.i18n import Bilingual
from tutor.progress import Snapshot, normalize
from tutor.progress.path import Step, course_path, is_done, next_step, step_status

ROOT = Path(__file__).resolve().parents[2]
T = Bilingual(en="t", zh="t")


def lesson(i):
    return Lesson(id=i, title=T, order=float(i), blocks=())


def exercise(ident, lesson_id, order):
    return Exercise(id=ident, lesson=lesson_id, order=order, title=T, prompt=T, starter="", hints=(), checks=())


def question(ident, lesson_id=None):
    return Question(
        id=ident,
        prompt=T,
        options={k: T for k in "ABCD"},
        answer="A",
        explanations={k: T for k in "ABCD"},
        lesson=lesson_id,
    )


# Lesson 1 has exercise a; lesson 2 a checkpoint of its own (k1, k2) and exercises b, c; lesson 3
# only text. The quiz (q1, tagged with lesson 2, and q2) is not lesson 2's checkpoint.
SMALL = Course(
    root=Path("."),
    lessons=(lesson("1"), lesson("2"), lesson("3")),
    exercises=(exercise("a", "1", 1), exercise("b", "2", 2), exercise("c", "2", 3)),
    quiz=(question("q1", "2"), question("q2")),
    checkpoints=(Checkpoint("2", (question("k1", "2"), question("k2", "2"))),),
)
L1, L2, L3 = Step("lesson", "1"), Step("lesson", "2"), Step("lesson", "3")
A, B, C = Step("exercise", "a"), Step("exercise", "b"), Step("exercise", "c")
CP2, QUIZ = Step("checkpoint", "2"), Step("quiz")


def progress(done=(), position=None, answered=(), attempted=(), wrong=()):
    """`answered`: questions answered right; `wrong`: answered wrong."""
    questions = {q: {"answer": "A", "correct": True, "first_correct": True, "tries": 1} for q in answered}
    questions |= {q: {"answer": "B", "correct": False, "first_correct": False, "tries": 1} for q in wrong}
    doc = {"lessons": {}, "exercises": {}, "quiz": {"answers": {}}, "questions": questions}
    for step in done:
        if step.kind == "lesson":
            doc["lessons"][step.id] = {"status": "done"}
        elif step.kind == "exercise":
            doc["exercises"][step.id] = {"status": "passed"}
        elif step.kind == "quiz":
            doc["quiz"]["best_score"] = 1
    for ident in attempted:
        doc["exercises"][ident] = {"status": "attempted"}
    if position:
        doc["position"] = position.key
    return Snapshot(normalize(doc)[0])


def test_the_path_is_each_lesson_then_its_checkpoint_and_exercises_then_the_quiz():
    assert course_path(SMALL) == [L1, A, L2, CP2, B, C, L3, QUIZ]


@pytest.mark.parametrize(
    "data, here, expected",
    [
        # continue (no `here`): the step last opened if unfinished, else the first unfinished after it
        (progress(), None, L1),
        (progress(position=B, attempted=["b"]), None, B),
        (progress(done=[L1, A, L2], position=B), None, B),
        (progress(done=[L1, A, L2, B], position=B), None, C),
        (progress(done=[L1, A, L2, B, C, L3, QUIZ], position=QUIZ), None, CP2),  # wraps to a skipped checkpoint
        (progress(done=[L1], position=Step("lesson", "gone")), None, A),  # a position the course no longer has
        # from a step (c / Ctrl+N / the passed prompt / watch): the first unfinished step after it
        (progress(done=[L1]), L1, A),
        (progress(done=[L1, A]), A, L2),
        (progress(done=[L1, A, L2]), L2, CP2),
        (progress(done=[L1, A, L2], answered=["k1", "k2"]), CP2, B),
        (progress(done=[L1, A, L2, B, C], answered=["k1", "k2"]), C, L3),
        (progress(done=[L1, A, L2, B, C, L3], answered=["k1", "k2"]), L3, QUIZ),
        (progress(done=[L2, B, C, L3, QUIZ], answered=["k1", "k2"]), QUIZ, L1),  # wraps to what was skipped
        (progress(done=[L1, A, L2, B, C, L3, QUIZ], answered=["k1", "k2"]), QUIZ, None),  # all done
        (progress(done=[L1, A, L2, B, C, L3, QUIZ], answered=["k1", "k2"]), None, None),
        (progress(done=[L1]), Step("exercise", "unknown"), A),  # an unknown step starts from the top
    ],
)
def test_next_step(data, here, expected):
    assert next_step(SMALL, data, here) == expected


@pytest.mark.parametrize(
    "data, here, expected",
    [
        (progress(), None, A),  # watch without an id: the first unpassed exercise
        (progress(done=[A]), A, B),  # after a pass, watch offers the next exercise, never a lesson
        (progress(done=[A, B]), B, C),
        (progress(done=[B, C]), C, A),
        (progress(done=[A, B, C]), C, None),
        (progress(done=[L1, L2], position=L2), None, B),  # resume from a lesson: the next exercise on
    ],
)
def test_next_exercise_for_watch(data, here, expected):
    assert next_step(SMALL, data, here, kinds=("exercise",)) == expected


def test_a_checkpoint_is_done_when_each_of_its_questions_is_answered_right():
    assert not is_done(SMALL, CP2, progress())
    assert step_status(SMALL, CP2, progress()) == "new"
    assert is_done(SMALL, CP2, progress(answered=["k1", "k2"]))
    # half right is partly done, not done: the outline must not mark it as finished
    half = progress(answered=["k1"], wrong=["k2"])
    assert not is_done(SMALL, CP2, half) and step_status(SMALL, CP2, half) == "started"
    # the quiz's questions are not the checkpoint's, even the one tagged with its lesson
    assert not is_done(SMALL, CP2, progress(answered=["q1", "q2"]))
    assert not is_done(SMALL, QUIZ, progress(answered=["q1", "q2"]))  # only a finished quiz counts


def test_an_old_quiz_answer_without_a_record_is_judged_by_its_letter():
    """progress.json from before answers were judged as they were given holds only quiz.answers."""
    from tutor.progress.asking import answered_right

    old = Snapshot(normalize({"quiz": {"answers": {"q1": "A", "q2": "C"}}})[0])
    assert answered_right(SMALL.quiz[0], old) and not answered_right(SMALL.quiz[1], old)


def test_step_keys_round_trip_and_junk_is_ignored():
    for step in course_path(SMALL):
        assert Step.parse(step.key) == step
    for junk in (None, 3, "", "lesson", "nonsense:1", ["exercise:a"]):
        assert Step.parse(junk) is None


# ---- the real course ---------------------------------------------------------------------------

COURSE, PROBLEMS = read_course(ROOT)


def test_every_teaching_lesson_is_followed_by_practice():
    """6.1-6.8 each end with an exercise or a checkpoint; only the readings (6.9, 6.10) do not."""
    path = course_path(COURSE)
    for lesson_ in COURSE.lessons:
        if lesson_.order > 8:
            continue
        after = path[path.index(Step("lesson", lesson_.id)) + 1]
        assert after.kind in ("exercise", "checkpoint") and after.id != "", f"{lesson_.id} has no practice"


def test_every_exercise_and_quiz_question_belongs_to_a_lesson_on_the_path():
    path = course_path(COURSE)
    assert [s.kind for s in path].count("exercise") == len(COURSE.exercises)
    assert path[-1] == QUIZ
    lesson_ids = {l.id for l in COURSE.lessons}
    assert all(q.lesson in lesson_ids for q in COURSE.quiz)


def test_list_json_orders_exercises_along_the_path(tmp_path, cli_env):
    out = subprocess.run(
        [sys.executable, "-m", "tutor", "list", "--json"],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path),
        timeout=60,
        check=True,
    )
    listed = [e["id"] for e in json.loads(out.stdout)["exercises"]]
    assert listed == [s.id for s in course_path(COURSE) if s.kind == "exercise"]
    human = subprocess.run(
        [sys.executable, "-m", "tutor", "list"],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path),
        timeout=60,
        check=True,
    ).stdout
    rows = [
        line.split("]")[1].split()[0]
        for line in human.splitlines()
        if line.startswith("    [") and "checkpoint" not in line
    ]
    assert rows == listed  # the same order, each exercise under its lesson
