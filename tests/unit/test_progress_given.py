"""progress.json keeps the answers given (each with the variant it was asked in and when), so a
grader can judge a first try again; and a file written by the tutor before that (92686d9, kept in
tests/fixtures/progress/) opens with nothing lost, its single answers taken as first tries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tutor.progress import ProgressStore, changes
from tutor.progress.changes import MAX_GIVEN
from tutor.progress.records import encode
from tutor.progress.reports import progress_document
from tutor.progress.state import LearnerState

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "progress" / "92686d9.json"


def _contains(big, small) -> bool:
    """Every key and value of `small` is in `big`, at any depth (new keys beside them allowed)."""
    if isinstance(small, dict):
        return isinstance(big, dict) and all(k in big and _contains(big[k], v) for k, v in small.items())
    return big == small


def test_a_progress_file_of_92686d9_opens_and_saves_without_loss(tmp_path, course):
    shutil.copy(OLD, tmp_path / "progress.json")
    old = json.loads(OLD.read_text(encoding="utf-8"))
    assert old.pop("schema") == 1  # read as schema 2 (the review added), everything else as it was
    store = ProgressStore(tmp_path)
    assert _contains(encode(store.load()), old) and not store.warnings
    store.apply(changes.lesson, "6.2", "started")  # a save writes everything back
    saved = json.loads((tmp_path / "progress.json").read_text(encoding="utf-8"))
    assert _contains(saved, old) and saved["schema"] == 2
    assert not list(tmp_path.glob("progress.json.*"))  # nothing was taken for damage and moved aside
    state = LearnerState(ProgressStore(tmp_path), course).refresh()
    doc = progress_document(state)
    # the exercise facts a gradebook shows were all in the old file, and the export carries them
    assert doc["exercises"]["counter-jit"]["first_passed_at"] == old["exercises"]["counter-jit"]["first_passed_at"]
    assert doc["exercises"]["counter-jit"]["hints_shown"] == 2
    assert doc["exercises"]["pure-scale"]["solution_viewed"] is True
    assert doc["exercises"]["pure-scale"]["first_passed_at"] is None
    # one try: that answer is the first, in the first variant drawn (the template's third)
    assert doc["questions"]["cp61-global-count"]["given"] == [
        {"answer": "3", "variant": 2, "at": old["questions"]["cp61-global-count"]["answered_at"]}
    ]
    assert [g["answer"] for g in doc["questions"]["1"]["given"]] == [old["quiz"]["answers"]["1"]]
    # two tries: the first answer was never kept, and is said to be lost rather than guessed
    first, latest = doc["questions"]["cp61-see-the-loss"]["given"]
    assert first.get("lost") is True and latest["answer"] == "B"


def test_every_answer_is_kept_with_its_variant_the_first_never_dropped(tmp_path):
    store = ProgressStore(tmp_path)
    store.apply(changes.question_drawn, "q", 1)
    store.apply(changes.answer, "q", "4", False, False)
    for i in range(MAX_GIVEN + 5):
        store.apply(changes.question_drawn, "q", i % 3)
        store.apply(changes.answer, "q", str(i), True, True)
    given = store.load().questions["q"].given
    assert len(given) == MAX_GIVEN
    assert (given[0].answer, given[0].variant) == ("4", 1)  # the first try, as asked
    last = MAX_GIVEN + 4
    assert (given[-1].answer, given[-1].variant) == (str(last), last % 3)
    assert all(g.at for g in given)
    assert store.load().quiz.answers["q"] == str(last)


def test_a_hand_broken_given_list_is_named_and_the_rest_kept(tmp_path):
    (tmp_path / "progress.json").write_text(
        json.dumps({"questions": {"q": {"answer": "A", "tries": 1, "given": [{"answer": 7}]}}}), encoding="utf-8"
    )
    store = ProgressStore(tmp_path)
    data = store.load()
    assert data.questions["q"].answer == "A" and data.questions["q"].given == ()
    assert any("given" in w.en for w in store.warnings)


def test_a_progress_file_of_92686d9_brings_its_wrong_answers_back_for_review(tmp_path, course):
    """A file from before reviews (schema 1): the question whose latest answer is wrong comes back the
    day after it was given, the ones right since do not; the schedule is written as schema 2."""
    from datetime import date

    shutil.copy(OLD, tmp_path / "progress.json")
    state = LearnerState(ProgressStore(tmp_path), course, clock=lambda: date(2026, 12, 6)).refresh()
    assert state.review_items() == {"cp61-global-count": state.review_items()["cp61-global-count"]}
    assert state.review_items()["cp61-global-count"].due == "2026-12-07"
    assert state.reviews_due() == []  # the day it was answered: not yet
    state.clock = lambda: date(2026, 12, 7)
    assert [q.id for q in state.reviews_due()] == ["cp61-global-count"]
    state.save_now(changes.lesson, "6.2", "started")
    saved = json.loads((tmp_path / "progress.json").read_text(encoding="utf-8"))
    assert saved["review"] == {
        "on": True,
        "items": {"cp61-global-count": {"step": 0, "due": "2026-12-07"}},
        "drills": {},
    }
