"""progress.json as other programs leave it (issue 40): an editor's save, a bad merge, a sync
tool, an older tutor's large file. None of them is ever shown as empty progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.progress import ProgressError, ProgressStore, Snapshot, changes
from tutor.progress.store import MAX_WRITE_BYTES

PASSED = {"status": "passed", "attempts": 2}
TRIED = {"status": "attempted", "attempts": 5}


def write(home: Path, data: bytes | str) -> Path:
    path = home / "progress.json"
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def corrupt_backups(home: Path) -> list[Path]:
    return sorted(home.glob("progress.json.corrupt-*"))


def statuses(store: ProgressStore) -> dict[str, str]:
    return {k: r.status for k, r in Snapshot(store.load()).exercises_seen().items()}


def test_two_exercises_objects_from_a_bad_merge_are_merged_and_the_original_kept(tmp_path):
    text = (
        f'{{"schema": 1, "exercises": {{"counter-jit": {json.dumps(PASSED)}, "prng-split": {json.dumps(TRIED)}}},\n'
        ' "lessons": {"6.1": {"status": "done"}},\n'
        f' "exercises": {{"adam": {json.dumps(PASSED)}}}}}'
    )
    write(tmp_path, text)
    store = ProgressStore(tmp_path)
    assert statuses(store) == {"counter-jit": "passed", "prng-split": "attempted", "adam": "passed"}
    [backup] = corrupt_backups(tmp_path)
    assert backup.read_text() == text  # the file as the merge left it, kept
    [warning] = store.warnings
    assert "'exercises' appeared twice" in warning.en and str(backup) in warning.en and "两次" in warning.zh
    store.apply(changes.attempt, "rnn", False)  # the next save keeps both halves
    on_disk = json.loads((tmp_path / "progress.json").read_text())
    assert set(on_disk["exercises"]) == {"counter-jit", "prng-split", "adam", "rnn"}


def test_a_record_written_twice_is_merged_field_by_field(tmp_path):
    write(tmp_path, '{"exercises": {"a": {"status": "passed", "hints_shown": 2}, "a": {"attempts": 4}}}')
    record = Snapshot(ProgressStore(tmp_path).load()).exercise("a")
    assert (record.status, record.attempts, record.hints_shown) == ("passed", 4, 2)


@pytest.mark.parametrize(
    "name, encode",
    [
        ("utf-8 BOM", lambda t: b"\xef\xbb\xbf" + t.encode()),
        ("BOM and CRLF", lambda t: b"\xef\xbb\xbf" + t.replace("\n", "\r\n").encode()),
    ],
)
def test_an_editors_save_is_read_as_it_is(tmp_path, name, encode):
    text = json.dumps({"schema": 1, "exercises": {"counter-jit": PASSED}}, indent=4) + "\n"
    write(tmp_path, encode(text))
    store = ProgressStore(tmp_path)
    assert statuses(store) == {"counter-jit": "passed"}
    assert store.warnings == [] and corrupt_backups(tmp_path) == []
    store.apply(changes.attempt, "adam", False)
    assert statuses(ProgressStore(tmp_path)) == {"counter-jit": "passed", "adam": "attempted"}


@pytest.mark.parametrize(
    "name, tail",
    [
        ("NULs after a crash", b"\x00" * 4096),
        ("a second document from a sync tool", b'\n{"schema": 1, "exercises": {}}\n'),
        ("a stray character", b"}\n"),
    ],
)
def test_what_follows_the_document_is_dropped_and_the_progress_kept(tmp_path, name, tail):
    original = json.dumps({"schema": 1, "exercises": {"counter-jit": PASSED}}).encode() + tail
    write(tmp_path, original)
    store = ProgressStore(tmp_path)
    assert statuses(store) == {"counter-jit": "passed"}
    [backup] = corrupt_backups(tmp_path)
    assert backup.read_bytes() == original
    assert len(store.warnings) == 1


def test_a_number_too_long_for_int_in_an_unknown_field_keeps_the_progress(tmp_path):
    record = json.dumps(PASSED)
    write(tmp_path, f'{{"schema": 1, "exercises": {{"counter-jit": {record}}}, "sync_stamp": {"7" * 5000}}}')
    store = ProgressStore(tmp_path)
    data = store.load()
    assert statuses(store) == {"counter-jit": "passed"} and data.unknown["sync_stamp"] is None
    assert "5000 digits" in store.warnings[0].en and len(corrupt_backups(tmp_path)) == 1


@pytest.mark.parametrize("depth", [5000, 100_000])  # past the parser's recursion on 3.11 and 3.12
def test_deep_nesting_in_an_unknown_field_keeps_the_progress(tmp_path, depth):
    deep = "[" * depth + "1" + "]" * depth
    record = json.dumps(PASSED)
    write(tmp_path, f'{{"schema": 1, "tool": {{"x": {deep}, "keep": "]["}}, "exercises": {{"a": {record}}}}}')
    store = ProgressStore(tmp_path)
    data = store.load()
    assert statuses(store) == {"a": "passed"}
    assert data.unknown["tool"]["keep"] == "]["  # brackets inside a string are not nesting
    assert "nested deeper" in store.warnings[0].en and len(corrupt_backups(tmp_path)) == 1


def _big_valid_file(megabytes: float, numbers: bool = True) -> dict:
    """Valid progress with a large field of another tool's: small numbers, which indentation
    multiplies (one per line, each indented), or long strings (quicker to read)."""
    count = int(megabytes * (1 << 20) / 2)  # "0," per number when compact
    log = [[0] * 1000] * (count // 1000) if numbers else ["x" * 4000] * (count // 2000)
    return {"schema": 1, "exercises": {"counter-jit": PASSED}, "tool_log": log}


def test_a_large_valid_file_is_written_back_smaller_than_the_reader_accepts(tmp_path):
    write(tmp_path, json.dumps(_big_valid_file(5.2), separators=(",", ":")))
    store = ProgressStore(tmp_path)
    store.apply(changes.attempt, "adam", False)  # indent=2 made this 18 MB, past the read limit
    assert (tmp_path / "progress.json").stat().st_size <= MAX_WRITE_BYTES
    assert statuses(ProgressStore(tmp_path)) == {"counter-jit": "passed", "adam": "attempted"}


def test_an_older_tutors_indented_file_past_16_mib_is_still_read(tmp_path):
    write(tmp_path, json.dumps(_big_valid_file(5.2), indent=2))
    assert (tmp_path / "progress.json").stat().st_size > 16 << 20
    store = ProgressStore(tmp_path)
    assert statuses(store) == {"counter-jit": "passed"} and store.warnings == []
    store.apply(changes.attempt, "adam", False)
    assert (tmp_path / "progress.json").stat().st_size <= MAX_WRITE_BYTES


def test_a_file_that_would_outgrow_the_limit_is_never_written(tmp_path):
    path = write(tmp_path, json.dumps(_big_valid_file(17, numbers=False), separators=(",", ":")))
    before = path.read_bytes()
    store = ProgressStore(tmp_path)
    assert statuses(store) == {"counter-jit": "passed"}
    with pytest.raises(ProgressError) as caught:
        store.apply(changes.attempt, "adam", False)
    assert "left as it is" in str(caught.value) and "保持原样" in caught.value.message.zh
    assert path.read_bytes() == before


def test_a_damaged_file_whose_salvage_is_too_large_stays_where_it_is(tmp_path):
    doc = _big_valid_file(17, numbers=False)
    doc["exercises"]["bad"] = "oops"
    path = write(tmp_path, json.dumps(doc, separators=(",", ":")))
    store = ProgressStore(tmp_path)
    assert statuses(store) == {"counter-jit": "passed"}
    assert path.exists() and corrupt_backups(tmp_path) == []  # not moved aside with nothing to put back
    assert "left as it is" in store.warnings[0].en
