"""The owner of progress and of the path (tutor.progress.state.LearnerState): reads from memory,
changes seen at once, saves that can fail and say so, and the path rules asked through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.progress import ProgressError, ProgressStore, changes
from tutor.progress.path import Step, course_path
from tutor.progress.reports import list_document, progress_document
from tutor.progress.state import LearnerState

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def state_of(home: Path) -> LearnerState:
    return LearnerState(ProgressStore(home), COURSE).refresh()


def on_disk(home: Path) -> dict:
    return json.loads((home / "progress.json").read_text(encoding="utf-8"))


def test_a_change_is_seen_at_once_and_saved_by_its_save(tmp_path):
    state = state_of(tmp_path)
    ex = COURSE.exercises[0].id
    save = state.change(changes.hint, ex, 2)
    assert state.exercise(ex).hints_shown == 2  # before any disk write
    assert not (tmp_path / "progress.json").exists()
    save()
    assert on_disk(tmp_path)["exercises"][ex]["hints_shown"] == 2
    assert state_of(tmp_path).exercise(ex).hints_shown == 2  # another tutor sees it after reading


def test_reads_come_from_memory_until_refreshed(tmp_path):
    state, other = state_of(tmp_path), state_of(tmp_path)
    ex = COURSE.exercises[0].id
    other.save_now(changes.attempt, ex, True)
    assert state.exercise_status(ex) == "new"  # no disk read behind a question
    assert state.refresh().exercise_status(ex) == "passed"


def test_a_refresh_keeps_changes_still_waiting_to_save(tmp_path):
    state = state_of(tmp_path)
    first, second = COURSE.lessons[0].id, COURSE.lessons[1].id
    save = state.change(changes.lesson, first, "done")
    state_of(tmp_path).save_now(changes.lesson, second, "started")  # another tutor, meanwhile
    state.refresh()
    assert (state.lesson_status(first), state.lesson_status(second)) == ("done", "started")
    save()
    assert state.lessons_seen() == {first: "done", second: "started"}


def test_a_failed_save_raises_and_the_snapshot_goes_back_to_the_file(tmp_path):
    state = state_of(tmp_path)
    ex = COURSE.exercises[0].id
    state.save_now(changes.attempt, ex, False)
    (tmp_path / "progress.json").chmod(0o444)
    save = state.change(changes.attempt, ex, True)
    assert state.exercise_status(ex) == "passed"
    with pytest.raises(ProgressError, match="read-only"):
        save()
    assert state.exercise(ex).attempts == 1 and state.exercise_status(ex) == "attempted"
    assert state.wait_saved(0)  # nothing left pending


def test_the_path_rules_are_asked_through_the_owner(tmp_path):
    state = state_of(tmp_path)
    path = course_path(COURSE)
    assert state.next_step() == path[0]  # a new learner starts at the first lesson
    state.save_now(changes.lesson, path[0].id, "done")
    assert state.is_done(path[0]) and state.next_step(path[0]) == path[1]
    first_ex = next(s for s in path if s.kind == "exercise")
    state.save_now(changes.position, first_ex.key)
    assert state.next_step() == first_ex  # continue resumes where the learner left off
    assert state.next_step(kinds=("exercise",)) == first_ex
    assert state.practice(first_ex and COURSE.exercise(first_ex.id).lesson) is not None


def test_summary_and_documents_agree(tmp_path):
    state = state_of(tmp_path)
    ex, lesson = COURSE.exercises[0], COURSE.lessons[0]
    state.save_now(changes.attempt, ex.id, True)
    state.save_now(changes.hint, ex.id, 1)
    state.save_now(changes.lesson, lesson.id, "done")
    state.save_now(changes.answer, COURSE.quiz[0].id, "A", False, True)
    state.save_now(changes.quiz_result, 3)
    summary = state.summary()
    assert (summary.exercises_passed, summary.lessons_done, summary.quiz_best, summary.quiz_answered) == (1, 1, 3, 1)
    assert (summary.quiz_first, summary.quiz_now) == (None, 0)  # first try known once all were answered
    assert summary.steps_done == 1 + 1 + 3
    doc = progress_document(state)
    record = doc["exercises"][ex.id]
    assert set(doc["exercises"]) == {ex.id} and record["first_passed_at"] == record["last_attempt_at"]
    assert {k: record[k] for k in ("status", "attempts", "hints_shown", "solution_viewed")} == {
        "status": "passed",
        "attempts": 1,
        "hints_shown": 1,
        "solution_viewed": False,
    }
    assert doc["lessons"] == {lesson.id: {"status": "done"}}
    assert doc["quiz"] == {
        "answers": {COURSE.quiz[0].id: "A"},
        "best_score": 3,
        "attempts": 1,
        "first_score": None,
        "score": 0,
    }
    assert doc["questions"][COURSE.quiz[0].id]["first_correct"] is False
    listed = list_document(state, "en")
    assert set(listed) == {"course", "lessons", "exercises", "quiz", "checkpoints"}
    assert listed["quiz"] == {
        "questions": len(COURSE.quiz),
        "answered": 1,
        "best_score": 3,
        "first_score": None,
        "score": 0,
    }
    assert [e["id"] for e in listed["exercises"]] == [s.id for s in course_path(COURSE) if s.kind == "exercise"]
    assert next(e for e in listed["exercises"] if e["id"] == ex.id)["status"] == "passed"


def test_an_unknown_step_kind_is_never_done(tmp_path):
    assert not state_of(tmp_path).is_done(Step("progress"))


def test_changes_reach_the_file_in_the_order_they_were_made(tmp_path):
    state = state_of(tmp_path)
    path = course_path(COURSE)
    first, second = state.change(changes.position, path[0].key), state.change(changes.position, path[1].key)
    second()  # its thread ran first: it writes the earlier change too, then its own
    assert on_disk(tmp_path)["position"] == path[1].key
    first()  # already written: writes nothing, so the later position stays
    assert on_disk(tmp_path)["position"] == path[1].key and state.wait_saved(0)
    assert state.refresh().position() == path[1].key


def test_save_pending_writes_the_changes_whose_saves_have_not_run(tmp_path):
    state = state_of(tmp_path)
    first, second = COURSE.lessons[0].id, COURSE.lessons[1].id
    save_first = state.change(changes.lesson, first, "done")
    state.change(changes.lesson, second, "started")
    state.save_pending()
    assert {k: v["status"] for k, v in on_disk(tmp_path)["lessons"].items()} == {first: "done", second: "started"}
    assert state.wait_saved(0)
    save_first()  # its own save, when it finally runs: written already, nothing to do
    assert state.wait_saved(0)


def test_a_session_closed_on_the_event_loop_saves_what_a_thread_worker_has_not_started(tmp_path):
    """The TUI hands each save to a Textual thread worker, which starts only when the event loop runs
    again; on_unmount and the signal handlers close the session from that loop. The close must not
    wait for a save that cannot start (it waited out its 3 s and left the change unsaved)."""
    import asyncio

    from tutor.ui.session import Session

    session = Session(tmp_path, course=COURSE, sandbox=object())
    lesson = COURSE.lessons[0].id

    async def main() -> dict:
        save = session.state.change(changes.lesson, lesson, "done")
        asyncio.get_running_loop().call_soon(save)  # as run_worker would: not before this callback returns
        session.close()
        return on_disk(tmp_path)  # as the process would leave it: the exit comes next

    assert asyncio.run(main())["lessons"][lesson]["status"] == "done"
