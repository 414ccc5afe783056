"""Tests for the local JSON progress store (tutor.progress.store)."""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import random
import re
import signal
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.i18n import pick
from tutor.progress import SCHEMA, ProgressError, ProgressStore, Snapshot, changes, normalize
from tutor.progress import store as store_mod
from tutor.progress.records import encode

ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
# spawn, not fork: by now other tests may have imported JAX here, and forking a process
# with JAX's threads running can deadlock the child.
SPAWN = multiprocessing.get_context("spawn")


def write_raw(home: Path, content) -> Path:
    """Put raw bytes/text/JSON document into <home>/progress.json."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / "progress.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content)
    else:
        path.write_text(json.dumps(content))
    return path


def backups(home: Path, kind: str) -> list[Path]:
    """Backup files of a kind ('corrupt' or 'bak') in home."""
    return sorted(home.glob(f"progress.json.{kind}-*"))


# ---- basic behaviour -----------------------------------------------------------------------------


def test_fresh_home_defaults_and_missing_dir_created(tmp_path):
    home = tmp_path / "a" / "b"
    s = ProgressStore(home)
    data = encode(s.load())
    assert data == {
        "schema": SCHEMA,
        "exercises": {},
        "lessons": {},
        "predictions": {},
        "questions": {},
        "quiz": {"answers": {}, "best_score": None, "attempts": 0},
        "review": {"on": True, "items": {}, "drills": {}},
        "drills": {},
    }
    assert s.warnings == []
    s.apply(changes.attempt, "x", False)
    assert json.loads((home / "progress.json").read_text())["exercises"]["x"]["attempts"] == 1


def test_record_attempt_pass_never_downgraded(tmp_path):
    s = ProgressStore(tmp_path)
    assert Snapshot(s.load()).exercise_status("counter-jit") == "new"
    d = s.apply(changes.attempt, "counter-jit", False)
    ex = d.exercises["counter-jit"]
    assert (ex.status, ex.attempts, ex.first_passed_at) == ("attempted", 1, None)
    assert ISO_Z.match(ex.last_attempt_at)
    d = s.apply(changes.attempt, "counter-jit", True)
    first = d.exercises["counter-jit"].first_passed_at
    assert ISO_Z.match(first) and Snapshot(d).exercise_status("counter-jit") == "passed"
    old = replace(d.exercises["counter-jit"], first_passed_at="2000-01-01T00:00:00Z")
    s.update(lambda p: replace(p, exercises={**p.exercises, "counter-jit": old}))
    d = s.apply(changes.attempt, "counter-jit", False)
    d = s.apply(changes.attempt, "counter-jit", True)
    ex = d.exercises["counter-jit"]
    assert ex.status == "passed" and ex.attempts == 4
    assert ex.first_passed_at == "2000-01-01T00:00:00Z"  # set only once
    assert s.load() == d


def test_hints_solution_lessons_quiz(tmp_path):
    s = ProgressStore(tmp_path)
    s.apply(changes.hint, "e", 2)
    d = s.apply(changes.hint, "e", 1)
    assert d.exercises["e"].hints_shown == 2 and Snapshot(d).exercise_status("e") == "new"
    d = s.apply(changes.solution_viewed, "e")
    assert d.exercises["e"].solution_viewed is True
    assert Snapshot(d).lesson_status("6.1") == "new"
    s.apply(changes.lesson, "6.1", "started")
    s.apply(changes.lesson, "6.1", "done")
    d = s.apply(changes.lesson, "6.1", "started")
    assert Snapshot(d).lesson_status("6.1") == "done"
    with pytest.raises(ValueError):
        s.apply(changes.lesson, "6.1", "finished")
    s.apply(changes.answer, "1", "A", False, True)
    s.apply(changes.answer, "1", "B", True, True)
    s.apply(changes.answer, "cp-1", "3", True, False)  # a checkpoint's: not among the quiz's answers
    s.apply(changes.quiz_result, 7)
    d = s.apply(changes.quiz_result, 5)
    assert encode(d)["quiz"] == {"answers": {"1": "B"}, "best_score": 7, "attempts": 2}
    # the first answer's verdict stays; the latest is what a retry changed
    one = Snapshot(d).question("1")
    assert (one.answer, one.correct, one.first_correct, one.tries) == ("B", True, False, 2)
    assert Snapshot(d).question("cp-1").first_correct is True


def test_predictions_keep_the_first_guess_and_old_files_load(tmp_path):
    write_raw(tmp_path, {"schema": 1, "lessons": {"6.1": {"status": "done"}}})  # written before predictions
    s = ProgressStore(tmp_path)
    assert s.load().predictions == {} and Snapshot(s.load()).prediction("c") is None
    s.apply(changes.reveal, "c", "1", True)  # no guess yet: nothing to judge
    assert Snapshot(s.load()).prediction("c") is None
    s.apply(changes.prediction, "c", "B")
    s.apply(changes.prediction, "c", "A")  # a second guess, made after seeing the run, does not replace the first
    data = s.apply(changes.reveal, "c", "True", False)
    entry = Snapshot(data).prediction("c")
    assert (entry.answer, entry.shown, entry.correct) == ("B", "True", False)
    assert ISO_Z.match(data.predictions["c"].predicted_at) and s.warnings == []
    assert encode(s.load())["lessons"] == {"6.1": {"status": "done"}}
    write_raw(tmp_path, {"schema": 1, "predictions": {"c": {"answer": "B", "correct": "yes"}, "d": 3}})
    data = ProgressStore(tmp_path).load()  # a damaged record is salvaged like any other
    assert encode(data)["predictions"] == {"c": {"answer": "B", "correct": None, "predicted_at": None, "shown": None}}


def test_reset_moves_file_aside(tmp_path):
    s = ProgressStore(tmp_path)
    assert s.reset() is None  # nothing to back up yet
    s.apply(changes.attempt, "x", True)
    before = s.path.read_bytes()
    backup = s.reset()
    assert backup.name.startswith("progress.json.bak-") and backup.read_bytes() == before
    assert s.load().exercises == {}
    s.apply(changes.attempt, "y", False)
    second = s.reset()
    assert second != backup and backup.exists() and second.exists()  # same-second resets do not clobber


def test_unknown_ids_and_keys_survive_round_trip(tmp_path):
    doc = {
        "schema": 1,
        "future_feature": {"x": [1, 2]},
        "exercises": {"mystery": {"status": "attempted", "attempts": 2, "notes": "keep me"}},
        "lessons": {"99.9": {"status": "done", "extra": True}},
        "quiz": {"answers": {"42": "C"}, "best_score": None, "attempts": 0, "streak": 3},
    }
    write_raw(tmp_path, doc)
    s = ProgressStore(tmp_path)
    s.apply(changes.attempt, "counter-jit", True)
    on_disk = json.loads(s.path.read_text())
    assert on_disk["future_feature"] == {"x": [1, 2]}
    assert on_disk["exercises"]["mystery"]["notes"] == "keep me"
    assert on_disk["exercises"]["mystery"]["attempts"] == 2
    assert on_disk["lessons"]["99.9"] == {"status": "done", "extra": True}
    assert on_disk["quiz"]["streak"] == 3 and on_disk["quiz"]["answers"] == {"42": "C"}
    assert s.warnings == [] and backups(tmp_path, "corrupt") == []


# ---- concurrency and crashes ---------------------------------------------------------------------


def _attempt_worker(home: str, n: int) -> None:
    s = ProgressStore(Path(home))
    for _ in range(n):
        s.apply(changes.attempt, "shared", False)


@pytest.mark.slow  # four processes racing for the lock, 800 writes
def test_four_processes_lose_no_update(tmp_path):
    procs = [SPAWN.Process(target=_attempt_worker, args=(str(tmp_path), 200)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert ProgressStore(tmp_path).load().exercises["shared"].attempts == 800


def _endless_writer(home: str, writing) -> None:
    s = ProgressStore(Path(home))
    writing.set()
    while True:
        s.apply(changes.attempt, "crashy", False)


@pytest.mark.slow  # kills a writer process again and again
def test_sigkill_mid_write_never_corrupts(tmp_path):
    rng = random.Random(1234)
    last = 0
    for _ in range(20):
        writing = SPAWN.Event()
        p = SPAWN.Process(target=_endless_writer, args=(str(tmp_path), writing))
        p.start()
        assert writing.wait(60), "the writer process never started"
        time.sleep(rng.uniform(0.005, 0.06))
        os.kill(p.pid, signal.SIGKILL)
        p.join(10)
        assert p.exitcode == -signal.SIGKILL
        path = tmp_path / "progress.json"
        if path.exists():
            doc = json.loads(path.read_text())  # always parses: an old or a new complete version
            data, problems = normalize(doc)
            assert problems == []
            attempts = data.exercises["crashy"].attempts
            assert attempts >= last
            last = attempts
        assert len(list(tmp_path.glob("progress.json.tmp*"))) <= 1
    assert last > 0, "the writer never managed to write; the test did not exercise anything"
    s = ProgressStore(tmp_path)
    s.apply(changes.attempt, "crashy", False)  # the lock is free again and the stale temp file is reused
    assert s.load().exercises["crashy"].attempts == last + 1
    assert s.warnings == [] and backups(tmp_path, "corrupt") == []
    assert list(tmp_path.glob("progress.json.tmp*")) == []


def test_stale_temp_file_is_replaced(tmp_path):
    (tmp_path / "progress.json.tmp").write_text("half a wri")
    s = ProgressStore(tmp_path)
    s.apply(changes.hint, "x", 1)
    assert not (tmp_path / "progress.json.tmp").exists()
    assert s.load().exercises["x"].hints_shown == 1


# ---- damaged files -------------------------------------------------------------------------------

BAD_FILES = {
    "truncated": '{"schema": 1, "exercises": {"a": {"status": "pas',
    "empty": "",
    "binary": bytes(range(256)) * 4,
    "list": "[1, 2, 3]",
    "exercises-number": '{"schema": 1, "exercises": 5}',
    "schema-string": '{"schema": "1", "exercises": {}}',
    "schema-bool": '{"schema": true}',
    "null": "null",
    "deep-nesting": "[" * 100000,
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_bad_file_is_moved_aside_and_store_continues(tmp_path, name):
    content = BAD_FILES[name]
    write_raw(tmp_path, content)
    original = (tmp_path / "progress.json").read_bytes()
    s = ProgressStore(tmp_path)
    data = s.load()
    assert data.exercises == {} and data.schema == SCHEMA
    [backup] = backups(tmp_path, "corrupt")
    assert backup.read_bytes() == original  # moved aside, never deleted
    assert len(s.warnings) == 1 and str(backup) in s.warnings[0].en
    d = s.apply(changes.attempt, "x", True)
    assert d.exercises["x"].status == "passed"
    assert json.loads(s.path.read_text())["exercises"]["x"]["attempts"] == 1
    s.load()
    assert len(s.warnings) == 1 and len(backups(tmp_path, "corrupt")) == 1  # repaired once, no repeat


def test_partially_bad_file_keeps_good_data(tmp_path):
    write_raw(
        tmp_path,
        {
            "schema": 1,
            "custom": 1,
            "exercises": {
                "good": {"status": "passed", "attempts": 3},
                "bad": "oops",
                "half": {"status": "attempted", "attempts": "many"},
            },
            "lessons": {"1.1": {"status": "done"}, "1.2": 7},
            "quiz": {"answers": {"1": "B", "2": 3}, "best_score": 4, "attempts": 1},
        },
    )
    s = ProgressStore(tmp_path)
    data = s.load()
    assert data.exercises["good"].attempts == 3 and data.exercises["good"].status == "passed"
    assert "bad" not in data.exercises
    assert data.exercises["half"].attempts == 0 and data.exercises["half"].status == "attempted"
    assert encode(data)["lessons"] == {"1.1": {"status": "done"}}
    assert encode(data)["quiz"] == {"answers": {"1": "B"}, "best_score": 4, "attempts": 1}
    assert data.unknown["custom"] == 1
    [backup] = backups(tmp_path, "corrupt")
    assert json.loads(backup.read_text())["exercises"]["bad"] == "oops"
    assert str(backup) in s.warnings[0].en and "'bad'" in s.warnings[0].en
    # the salvage is what the next update builds on
    d = s.apply(changes.attempt, "good", False)
    assert d.exercises["good"].attempts == 4 and d.exercises["good"].status == "passed"


def test_future_schema_is_read_but_never_written(tmp_path):
    doc = {
        "schema": SCHEMA + 1,
        "exercises": {"counter-jit": {"status": "passed", "attempts": 2, "shiny_new_field": 1}},
        "brand_new_section": {},
    }
    path = write_raw(tmp_path, doc)
    original = path.read_bytes()
    s = ProgressStore(tmp_path)
    data = s.load()
    assert Snapshot(data).exercise_status("counter-jit") == "passed"
    assert len(s.warnings) == 1 and "newer version" in s.warnings[0].en
    with pytest.raises(ProgressError, match="newer version"):
        s.apply(changes.attempt, "counter-jit", True)
    with pytest.raises(ProgressError):
        s.reset()
    assert path.read_bytes() == original
    assert backups(tmp_path, "corrupt") == [] and backups(tmp_path, "bak") == []


# ---- unwritable / unreadable locations -----------------------------------------------------------


def test_read_only_progress_file(tmp_path):
    s = ProgressStore(tmp_path)
    s.apply(changes.attempt, "x", False)
    original = s.path.read_bytes()
    s.path.chmod(0o444)
    try:
        assert s.load().exercises["x"].attempts == 1
        with pytest.raises(ProgressError) as err:
            s.apply(changes.attempt, "x", True)
        assert str(s.path) in str(err.value) and "read-only" in str(err.value)
        assert s.path.read_bytes() == original
    finally:
        s.path.chmod(0o644)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_read_only_home_directory(tmp_path):
    s = ProgressStore(tmp_path / "home")
    s.apply(changes.attempt, "x", False)
    (tmp_path / "home").chmod(0o555)
    try:
        assert s.load().exercises["x"].attempts == 1
        with pytest.raises(ProgressError) as err:
            s.apply(changes.attempt, "x", False)
        assert str(s.path) in str(err.value)
    finally:
        (tmp_path / "home").chmod(0o755)


def test_read_only_home_mount(tmp_path, read_only):
    """A really read-only home (a read-only mount, which root cannot write either): progress is
    read, and saving fails with a plain message in both languages, the file untouched."""
    s = ProgressStore(tmp_path / "home")
    s.apply(changes.attempt, "x", False)
    original = s.path.read_bytes()
    with read_only(tmp_path / "home"):
        assert s.load().exercises["x"].attempts == 1
        with pytest.raises(ProgressError) as err:
            s.apply(changes.attempt, "x", True)
        assert "read-only" in str(err.value).lower() and str(s.path) in str(err.value)
        assert "无法把进度保存到" in pick(err.value.message, "zh")
        assert s.path.read_bytes() == original


def test_every_warning_and_error_reads_in_both_languages(tmp_path):
    """Warnings read as English where a str is expected, and in Chinese for a Chinese learner."""
    write_raw(tmp_path / "a", {"schema": 1, "exercises": {"e": {"attempts": -1}}})
    damaged = ProgressStore(tmp_path / "a")
    damaged.load()
    write_raw(tmp_path / "b", {"schema": SCHEMA + 1})
    newer = ProgressStore(tmp_path / "b")
    newer.load()
    with pytest.raises(ProgressError) as err:
        newer.apply(changes.attempt, "e", True)
    for w, en, zh in [
        (damaged.warnings[0], "was damaged", "已损坏"),
        (newer.warnings[0], "newer version", "更新版本"),
        (err.value.message, "newer version", "更新版本"),
    ]:
        assert en in pick(w, "en") and zh in pick(w, "zh"), (w, pick(w, "zh"))
        assert re.search(r"[\u4e00-\u9fff]", pick(w, "zh"))
    assert "的值无效" in pick(damaged.warnings[0], "zh")  # the details too, not only the frame


def test_a_stuck_lock_holder_is_named_and_given_up_on(tmp_path, monkeypatch):
    """Another process keeps progress.lock: the store says who holds it, waits a bounded time,
    then refuses to save (plainly) instead of hanging the command."""
    import fcntl

    monkeypatch.setattr(store_mod, "LOCK_WAIT_S", 0.5)
    told = []
    s = ProgressStore(tmp_path, on_wait=told.append)
    s.apply(changes.attempt, "x", False)
    with open(tmp_path / "progress.lock") as held:  # a lock of its own open file: it blocks this process too
        fcntl.flock(held, fcntl.LOCK_EX)
        start = time.monotonic()
        with pytest.raises(ProgressError) as err:
            s.apply(changes.attempt, "x", True)
        waited = time.monotonic() - start
    # at least its bound; the ceiling only tells a refusal from a hang (the message names the 0.5 s)
    assert 0.5 <= waited < 60, waited
    assert len(told) == 1 and f"process {os.getpid()}" in told[0].en and "progress.lock" in told[0].en
    assert "进程" in pick(told[0], "zh")
    assert f"process {os.getpid()}" in str(err.value) and "for over 0.5 s" in str(err.value)
    assert s.apply(changes.attempt, "x", True).exercises["x"].attempts == 2  # the lock is free again: saved


def test_home_that_cannot_be_created(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    s = ProgressStore(blocker / "home")
    assert s.load().exercises == {}  # load still works
    with pytest.raises(ProgressError) as err:
        s.apply(changes.attempt, "x", False)
    assert str(blocker / "home") in str(err.value)
    assert "Traceback" not in str(err.value)


def test_read_only_home_without_lock_file(tmp_path, monkeypatch):
    """Simulates a read-only home (the lock file cannot be created) even when running as root."""
    s = ProgressStore(tmp_path)
    s.apply(changes.attempt, "x", False)
    (tmp_path / "progress.lock").unlink()
    real_open = store_mod.os.open

    def deny_create(path, flags, *args):
        if not Path(path).exists() and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(store_mod.os, "open", deny_create)
    assert s.load().exercises["x"].attempts == 1  # falls back to an unlocked read
    with pytest.raises(ProgressError) as err:
        s.apply(changes.attempt, "x", False)
    assert str(s.path) in str(err.value) and "Permission denied" in str(err.value)


def test_write_failure_is_a_plain_error_and_leaves_file_intact(tmp_path, monkeypatch):
    s = ProgressStore(tmp_path)
    s.apply(changes.attempt, "x", False)
    original = s.path.read_bytes()

    def boom(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(store_mod.os, "replace", boom)
    with pytest.raises(ProgressError) as err:
        s.apply(changes.attempt, "x", True)
    monkeypatch.undo()
    assert str(s.path) in str(err.value) and "Permission denied" in str(err.value)
    assert s.path.read_bytes() == original
    assert list(tmp_path.glob("progress.json.tmp*")) == []


def test_unreadable_file_is_never_overwritten(tmp_path):
    (tmp_path / "progress.json").mkdir()  # reading fails with an OSError that is not "missing"
    s = ProgressStore(tmp_path)
    assert s.load().exercises == {}
    assert len(s.warnings) == 1 and str(s.path) in s.warnings[0].en
    with pytest.raises(ProgressError):
        s.apply(changes.attempt, "x", False)
    assert (tmp_path / "progress.json").is_dir()


# ---- property: any JSON document loads without raising --------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=12,
)
docs = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "schema": st.sampled_from([1, 0, "1", None, 1.5]),
            "exercises": st.dictionaries(st.sampled_from(["a", "b"]), json_values, max_size=2),
            "quiz": json_values,
        }
    ),
)


_home_ids = itertools.count()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=docs)
def test_any_json_loads_normalized(tmp_path, doc):
    home = tmp_path / f"h{next(_home_ids)}"  # a fresh home per example (hypothesis reseeds random)
    write_raw(home, doc)
    s = ProgressStore(home)
    data = s.load()
    assert normalize(encode(data))[1] == []  # what load returns is always clean
    if data.schema > SCHEMA:
        with pytest.raises(ProgressError):
            s.apply(changes.quiz_result, 1)
        return
    d = s.apply(changes.quiz_result, 1)  # and can always be updated
    assert d.quiz.attempts >= 1
    if isinstance(doc, dict) and normalize(doc)[1] == []:
        assert backups(home, "corrupt") == []  # a clean file is never moved aside
