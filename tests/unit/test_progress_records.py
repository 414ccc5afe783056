"""progress.json's records (tutor.progress.records): one owner of the file's shape, read by the
protocol codec's tolerant mode. A key this tutor does not know survives every change; a value of
the wrong type is repaired, named, and costs nothing beside itself; a file of 92686d9 opens and
is written back as the tutor has always written it."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from tutor.progress import ProgressStore, changes, review
from tutor.progress.records import Given, Progress, decode, encode
from tutor.progress.state import LearnerState

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "progress"
DAY = date(2026, 12, 6)


def _file(home: Path, doc: dict) -> Path:
    path = home / "progress.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _on_disk(home: Path) -> dict:
    return json.loads((home / "progress.json").read_text(encoding="utf-8"))


# One unknown key in every kind of record the file holds.
WITH_UNKNOWN = {
    "schema": 2,
    "sync": {"by": "a tool"},
    "exercises": {"e": {"status": "attempted", "attempts": 1, "note": "mine"}},
    "lessons": {"6.1": {"status": "started", "read_for": 3}},
    "predictions": {"c": {"answer": "", "mood": "curious"}},
    "questions": {
        "q": {
            "answer": "A",
            "correct": False,
            "tries": 1,
            "answered_at": "2026-12-05T10:00:00Z",
            "given": [{"answer": "A", "variant": 0, "at": "2026-12-05T10:00:00Z", "keys": "ab"}],
            "flag": True,
        }
    },
    "drills": {"d/x": {"line": 2, "belief": "b", "tries": 1, "correct": False, "seen": 1}},
    "quiz": {"answers": {"q": "A"}, "best_score": None, "attempts": 0, "streak": 3},
    "review": {
        "on": True,
        "items": {"q": {"step": 0, "due": "2026-12-06", "why": "wrong"}},
        "drills": {"d/x": {"step": 0, "due": "2026-12-06", "hint": 1}},
        "colour": "green",
    },
}
EVERY_CHANGE = [
    (changes.attempt, "e", True),
    (changes.hint, "e", 1),
    (changes.solution_viewed, "e"),
    (changes.lesson, "6.1", "done"),
    (changes.position, "lesson:6.1"),
    (changes.prediction, "c", "B"),
    (changes.reveal, "c", "B", True),
    (changes.question_drawn, "q", 1),
    (changes.answer, "q", "B", False, True, DAY),  # wrong again: its review item starts over
    (changes.quiz_result, 3),
    (changes.drill, "d/x", 3, "b", False, DAY),  # wrong again: its review item starts over
    (review.turn, False),
]


def _kept(big: object, small: object) -> bool:
    """Every key of `small` (a document) is in `big`, at its place (values are compared apart)."""
    if isinstance(small, dict):
        return isinstance(big, dict) and all(k in big and _kept(big[k], v) for k, v in small.items())
    if isinstance(small, list):
        return isinstance(big, list) and len(big) >= len(small) and all(map(_kept, big, small))
    return True  # a known field's value may change; only the keys and unknown values are checked here


def _unknown_values(doc: dict) -> list[object]:
    d = doc
    return [
        d["sync"],
        d["exercises"]["e"]["note"],
        d["lessons"]["6.1"]["read_for"],
        d["predictions"]["c"]["mood"],
        d["questions"]["q"]["flag"],
        d["questions"]["q"]["given"][0]["keys"],
        d["drills"]["d/x"]["seen"],
        d["quiz"]["streak"],
        d["review"]["colour"],
        d["review"]["items"]["q"]["why"],
        d["review"]["drills"]["d/x"]["hint"],
    ]


def test_an_unknown_key_survives_every_change_on_disk_and_in_memory(tmp_path):
    """Every change, made by the store under its lock and by the owner in memory then saved,
    writes back each key it does not know, in every kind of record (on 944540f a question or a
    drill answered wrong again lost its review item's unknown keys)."""
    _file(tmp_path, WITH_UNKNOWN)
    store = ProgressStore(tmp_path)
    for change, *args in EVERY_CHANGE:
        store.apply(change, *args)
    saved = _on_disk(tmp_path)
    assert _kept(saved, WITH_UNKNOWN) and _unknown_values(saved) == _unknown_values(WITH_UNKNOWN)
    assert store.warnings == [] and not list(tmp_path.glob("progress.json.*-*"))

    home = tmp_path / "owner"
    home.mkdir()
    _file(home, WITH_UNKNOWN)
    state = LearnerState(ProgressStore(home), None, clock=lambda: DAY).refresh()
    for change, *args in EVERY_CHANGE:
        state.change(change, *args)
    state.save_pending()
    assert _unknown_values(_on_disk(home)) == _unknown_values(WITH_UNKNOWN)
    assert state.review_items()["q"].due == "2026-12-07" and state.review_drills()["d/x"].due == "2026-12-07"


def test_a_change_leaves_the_progress_it_was_given_as_it_was(tmp_path):
    """Records are frozen and a change makes new ones (`replace`), so a snapshot the UI still
    shows is never changed under it."""
    before, problems = decode(WITH_UNKNOWN)
    assert problems == []
    document = encode(before)
    after = before
    for change, *args in EVERY_CHANGE:
        after = change(after, *args)
    assert encode(before) == document and after != before
    assert after.exercises["e"].status == "passed" and before.exercises["e"].status == "attempted"


BROKEN = {
    "schema": 2,
    "exercises": {"e": {"status": "attempted", "attempts": "many", "hints_shown": 2, "note": "mine"}},
    "questions": {
        "q": {
            "answer": "B",
            "tries": 3,
            "variants": [1, "two", 2],
            "given": [
                {"answer": "A", "variant": 1, "at": None},
                {"answer": 7, "variant": 0, "at": None},
                {"answer": "B", "variant": 2, "at": None},
            ],
        }
    },
    "review": {"items": {"q": {"step": 0, "due": "2026-12-07"}, "r": {"step": -1, "due": "2026-12-07"}}},
    "position": 5,
}


def test_a_wrong_typed_field_is_repaired_with_a_warning_and_nothing_else_is_lost(tmp_path):
    """Each bad value is named and goes alone: its field takes its default, a bad answer in
    `given`, a bad variant or a bad review item is dropped by itself (on 944540f each of the three
    emptied its whole list), and the original is kept aside."""
    original = _file(tmp_path, BROKEN).read_bytes()
    store = ProgressStore(tmp_path)
    progress = store.load()
    ex = progress.exercises["e"]
    assert (ex.attempts, ex.hints_shown, ex.status, ex.unknown) == (0, 2, "attempted", {"note": "mine"})
    q = progress.questions["q"]
    assert q.variants == (1, 2) and q.answer == "B" and q.tries == 3
    assert q.given == (Given("A", 1, None), Given("B", 2, None))
    assert list(progress.review.items) == ["q"] and progress.position is None
    [warning] = store.warnings  # one, naming the first problems; decode names each
    assert "exercises['e'].attempts had an invalid value" in warning.en
    named = [p.en for p in decode(BROKEN)[1]]
    assert named == [
        "exercises['e'].attempts had an invalid value",
        "questions['q'].variants[1] had an invalid value",
        "questions['q'].given[1].answer had an invalid value",
        "review.items['r'].step had an invalid value",
        "position had an invalid value",
    ]
    [backup] = tmp_path.glob("progress.json.corrupt-*")
    assert backup.read_bytes() == original
    again = ProgressStore(tmp_path)
    assert again.load() == progress and again.warnings == []  # the repair was written back whole


def test_a_status_that_is_a_list_or_an_object_is_repaired_not_a_crash(tmp_path):
    """A word field (a status) holding a list or an object is a bad value like any other: its
    field takes its default and is named. On e7a425f the load raised TypeError (the word was looked
    up in a set of words, and a list cannot be hashed), so the tutor could not start."""
    _file(
        tmp_path,
        {"schema": 2, "exercises": {"e": {"status": ["passed"], "attempts": 2}}, "lessons": {"l": {"status": {}}}},
    )
    store = ProgressStore(tmp_path)
    progress = store.load()
    assert (progress.exercises["e"].status, progress.exercises["e"].attempts) == ("new", 2)
    assert progress.lessons["l"].status == "started"
    [warning] = store.warnings
    assert "exercises['e'].status had an invalid value" in warning.en
    assert "lessons['l'].status had an invalid value" in warning.en


@pytest.mark.parametrize("changed", [False, True])
def test_a_92686d9_file_opens_and_round_trips_as_the_tutor_wrote_it(tmp_path, changed):
    """A file 92686d9 wrote (schema 1) is written back byte for byte as the tutor before typed
    records wrote it back (92686d9.saved.json: cb0df34's bytes for it), and again unchanged."""
    shutil.copy(FIXTURES / "92686d9.json", tmp_path / "progress.json")
    store = ProgressStore(tmp_path)
    progress = store.load()
    assert store.warnings == [] and decode(encode(progress)) == (progress, [])
    store.update(lambda p: p)
    written = (tmp_path / "progress.json").read_bytes()
    assert written == (FIXTURES / "92686d9.saved.json").read_bytes()
    if changed:  # a change, then the change back, leaves every byte as it was
        store.apply(changes.position, "lesson:6.2")
        store.apply(changes.position, "exercise:counter-jit")
    store.update(lambda p: p)
    assert (tmp_path / "progress.json").read_bytes() == written
    assert store.load() == progress and isinstance(progress, Progress)
