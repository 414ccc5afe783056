"""A class report that cannot be forged: three learners' exports made with the real CLI (each its
own --home), then `grade` re-runs every file in fresh workers. An honest pass is confirmed, a
progress.json edited to claim a pass is flagged, a wrong file fails, bad exports are named."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]
WRONG_COUNTER = "def update_counter(count, increment):\n    return count + 2, increment\n"


def _tutor(cli_env, home: Path, *args: str, cwd: Path = ROOT, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env=cli_env(home),
        timeout=timeout,
        cwd=cwd,
    )


def _forge_pass(home: Path, *exercise_ids: str) -> None:
    """What a learner can do with an editor: mark exercises passed in their own progress.json."""
    path = home / "progress.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for exercise_id in exercise_ids:
        data["exercises"].setdefault(exercise_id, {})["status"] = "passed"
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Three learners' exports and the bad inputs beside them in one folder, graded once."""

    def cli_env(home: Path) -> dict:
        env = dict(os.environ)
        env["JAXSTATE_TUTOR_HOME"] = str(home)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env["JAXSTATE_TUTOR_LANG"] = "en"
        return env

    base = tmp_path_factory.mktemp("class")
    folder = base / "collected"
    folder.mkdir()
    ran = {}

    # alice: both exercises passed honestly; counter-jit in her workspace file, which she then breaks
    alice = base / "alice"
    (alice / "workspace").mkdir(parents=True)
    counter = (ROOT / "solutions" / "counter-jit.py").read_text(encoding="utf-8")
    (alice / "workspace" / "counter-jit.py").write_text(counter, encoding="utf-8")
    ran["alice-counter"] = _tutor(cli_env, alice, "check", "counter-jit")
    ran["alice-scale"] = _tutor(cli_env, alice, "check", "pure-scale", "--file", str(ROOT / "solutions/pure-scale.py"))
    (alice / "workspace" / "counter-jit.py").write_text("def update_counter(:\n", encoding="utf-8")
    ran["alice-export"] = _tutor(cli_env, alice, "export", "--name", "alice", "--out", str(folder / "alice.json"))

    # bob: checks the starter of pure-scale (a fail), then edits progress.json to claim two passes
    bob = base / "bob"
    ran["bob-scale"] = _tutor(cli_env, bob, "check", "pure-scale")
    _forge_pass(bob, "pure-scale", "counter-jit")
    ran["bob-export"] = _tutor(cli_env, bob, "export", "--name", "bob", cwd=folder)  # the default file name

    # carol: a wrong counter-jit in her workspace file, honestly reported as attempted
    carol = base / "carol"
    (carol / "workspace").mkdir(parents=True)
    (carol / "workspace" / "counter-jit.py").write_text(WRONG_COUNTER, encoding="utf-8")
    ran["carol-counter"] = _tutor(cli_env, carol, "check", "counter-jit")
    ran["carol-export"] = _tutor(cli_env, carol, "export", "--name", "carol", "--out", str(folder / "carol.json"))

    # bad inputs: a truncated export, a file that is not one, and an export (dave's) whose files
    # are an unknown exercise id and a huge file; none of them stops the others being graded
    alice_text = (folder / "alice.json").read_text(encoding="utf-8")
    (folder / "corrupt.json").write_text(alice_text[: len(alice_text) // 2], encoding="utf-8")
    (folder / "notes.txt").write_text("bring snacks\n", encoding="utf-8")
    dave = json.loads(alice_text)
    dave["learner"] = "dave"
    dave["files"] = {
        "no-such-exercise": {"kind": "passed", "sha256": "", "source": "x = 1\n"},
        "pure-scale": {"kind": "passed", "sha256": "", "source": "# " + "x" * 1_100_000 + "\n"},
    }
    (folder / "dave.json").write_text(json.dumps(dave), encoding="utf-8")

    instructor = base / "instructor"
    out_csv, out_json = base / "table.csv", base / "table.json"
    ran["grade"] = _tutor(cli_env, instructor, "grade", str(folder), "--csv", str(out_csv), "--json", str(out_json))
    return ran, folder, out_csv, out_json


def _rows(out_json: Path) -> dict[tuple[str, str], dict]:
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    return {(r["learner"], r["exercise"]): r for r in doc["rows"]}


@pytest.mark.slow
def test_the_learners_checks_and_exports_ran_as_a_class_would(graded):
    ran, folder, _, _ = graded
    codes = {k: p.returncode for k, p in ran.items()}
    assert codes == {
        "alice-counter": 0,
        "alice-scale": 0,
        "alice-export": 0,
        "bob-scale": 1,
        "bob-export": 0,
        "carol-counter": 1,
        "carol-export": 0,
        "grade": 0,
    }, {k: p.stderr[-800:] for k, p in ran.items() if p.returncode}
    assert (folder / "jaxstate-tutor-export-bob.json").is_file()
    # alice's export holds the file that passed, not the one she broke afterwards
    alice = json.loads((folder / "alice.json").read_text(encoding="utf-8"))
    assert alice["files"]["counter-jit"]["kind"] == "passed"
    assert alice["files"]["counter-jit"]["source"] == (ROOT / "solutions/counter-jit.py").read_text(encoding="utf-8")
    assert alice["files"]["pure-scale"]["kind"] == "passed"
    assert alice["progress"]["exercises"]["counter-jit"]["status"] == "passed"
    assert "first_score" in alice["progress"]["quiz"]
    # bob's only file is his workspace starter; his progress claims what he never passed
    bob = json.loads((folder / "jaxstate-tutor-export-bob.json").read_text(encoding="utf-8"))
    assert set(bob["files"]) == {"pure-scale"} and bob["files"]["pure-scale"]["kind"] == "latest"
    assert bob["progress"]["exercises"]["pure-scale"]["status"] == "passed"


@pytest.mark.slow
def test_the_table_confirms_honest_passes_and_flags_the_forged_claim(graded):
    _, _, _, out_json = graded
    rows = _rows(out_json)
    want = {
        ("alice", "pure-scale"): ("pass", "passed", ""),
        ("alice", "counter-jit"): ("pass", "passed", ""),
        ("bob", "pure-scale"): ("fail", "passed", "forged or stale"),
        ("bob", "counter-jit"): ("missing", "passed", "forged or stale"),
        ("carol", "counter-jit"): ("fail", "attempted", ""),
        ("dave", "pure-scale"): ("refused", "passed", "forged or stale"),
        ("dave", "counter-jit"): ("missing", "passed", "forged or stale"),
        ("dave", "no-such-exercise"): ("refused", "", ""),
        ("corrupt", ""): ("unreadable", "", ""),
        ("notes", ""): ("unreadable", "", ""),
    }
    got = {k: (r["status"], r["claimed"], r["flag"]) for k, r in rows.items() if r["note"] != "not handed in"}
    assert got == want
    # every other exercise of the course has its row too: missing, worth nothing
    assert {(r["status"], r["points"]) for r in rows.values() if r["note"] == "not handed in"} == {("missing", "0")}
    assert len([k for k in rows if k[0] == "alice"]) == len(read_course(ROOT, lint=False)[0].exercises)
    assert (
        rows[("alice", "counter-jit")]["checks_passed"].split("/")[0]
        == rows[("alice", "counter-jit")]["checks_passed"].split("/")[1]
    )
    assert rows[("carol", "counter-jit")]["note"]  # why it failed, in a line
    assert "unknown exercise id 'no-such-exercise'" in rows[("dave", "no-such-exercise")]["note"]
    assert "1100003 bytes" in rows[("dave", "pure-scale")]["note"]
    assert "not valid JSON" in rows[("corrupt", "")]["note"]
    assert "not an export" in rows[("notes", "")]["note"]
    doc = json.loads(out_json.read_text(encoding="utf-8"))
    assert doc["verifiable"]["quiz_first_try"] is True and doc["verifiable"]["status"] is True
    summary = {k: doc["summary"][k] for k in ("learners", "files", "problems", "flagged", "scores_unsupported")}
    summary |= {k: doc["summary"][k] for k in ("course_version", "other_course")}
    assert summary == {
        "learners": 4,
        "files": 4,
        "problems": 2,
        "flagged": 4,
        "scores_unsupported": 0,
        "course_version": 0,
        "other_course": 0,
    }


@pytest.mark.slow
def test_the_csv_is_the_same_table(graded):
    ran, _, out_csv, out_json = graded
    table = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert table == list(json.loads(out_json.read_text(encoding="utf-8"))["rows"])
    assert list(table[0]) == json.loads(out_json.read_text(encoding="utf-8"))["columns"]
    # each bad input named on stderr, the rest graded all the same
    assert "corrupt.json: not an export: not valid JSON" in ran["grade"].stderr
    assert "4 claimed passes not confirmed" in ran["grade"].stderr


def test_grade_of_a_folder_that_does_not_exist_is_bad_usage(tmp_path, cli_env):
    p = _tutor(cli_env, tmp_path, "grade", str(tmp_path / "nowhere"), "--csv", str(tmp_path / "t.csv"))
    assert p.returncode == 2
    assert "nowhere does not exist" in p.stderr
    assert not (tmp_path / "t.csv").exists()


def test_grade_of_bad_exports_alone_names_each_and_writes_the_table(tmp_path, cli_env):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "empty.json").write_text("", encoding="utf-8")
    (folder / "list.json").write_text("[1, 2]", encoding="utf-8")
    newer = {"format": "jaxstate-tutor-export", "format_version": 99, "progress": {}, "files": {}}
    (folder / "newer.json").write_text(json.dumps(newer), encoding="utf-8")
    (folder / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    os.mkfifo(folder / "fifo.json")  # no writer: reading it must not wait for one
    (folder / "gone.json").symlink_to(tmp_path / "nowhere.json")
    p = _tutor(cli_env, tmp_path, "grade", str(folder), timeout=60)
    assert p.returncode == 0, p.stderr
    rows = {r["learner"]: r for r in csv.DictReader(io.StringIO(p.stdout))}
    assert {k: r["status"] for k, r in rows.items()} == dict.fromkeys(
        ("deep", "empty", "fifo", "gone", "list", "newer"), "unreadable"
    )
    assert "newer tutor (export format 99" in rows["newer"]["note"]
    assert "not valid JSON" in rows["deep"]["note"] and "not valid JSON" in rows["empty"]["note"]
    assert "a pipe (FIFO)" in rows["fifo"]["note"]
    assert "symbolic link to" in rows["gone"]["note"]
    assert "not an export" in rows["list"]["note"]
    assert "6 exports not read" in p.stderr


def test_first_try_claims_without_answers_are_flagged_not_shown(tmp_path, cli_env):
    """A hand-written export in format 1 (no course, no answers; only claims): the claim of a pass
    is flagged, and the first-try scores it claims are not shown as scores: nothing gives them."""
    folder = tmp_path / "in"
    folder.mkdir()
    progress = {
        "exercises": {"counter-jit": {"status": "passed"}},
        "quiz": {"first_score": 5},
        "checkpoints": [{"lesson": "6.1", "questions": 3, "first_score": 2}, {"lesson": "6.2", "first_score": None}],
    }
    export = {
        "format": "jaxstate-tutor-export",
        "format_version": 1,
        "learner": "eve",
        "progress": progress,
        "files": {},
    }
    (folder / "eve.json").write_text(json.dumps(export), encoding="utf-8")
    out = tmp_path / "t.json"
    p = _tutor(cli_env, tmp_path, "grade", str(folder), "--json", str(out), timeout=60)
    assert p.returncode == 0, p.stderr
    (row,) = [r for r in json.loads(out.read_text(encoding="utf-8"))["rows"] if r["exercise"] == "counter-jit"]
    assert (row["learner"], row["exercise"], row["status"]) == ("eve", "counter-jit", "missing")
    assert row["flag"] == "forged or stale; course not said"
    assert row["quiz_first_try"] == "" and row["checkpoints_first_try"] == ""
    assert "quiz: first try claimed 5/8, but the export has no first answer" in row["note"]
    assert "checkpoint 6.1: first try claimed 2/3" in row["note"]
    assert "holds no answers (made by an older tutor)" in row["note"]
    assert "does not say which course" in row["note"]


def test_a_link_in_the_collected_folder_is_not_followed(tmp_path, cli_env):
    """Issue 50's red team (on 944540f): a hand-in that is a symbolic link was read as the instructor
    and graded: `mallory.json -> ~/archive/carol.json` graded an export of the instructor's under
    mallory's file, and `-> /etc/shadow` was opened. Now each link's row says what it points to and
    that it was not followed (escape sequences in the target shown, not sent); a file named
    directly stays the instructor's choice."""
    folder, archive = tmp_path / "in", tmp_path / "archive"
    folder.mkdir()
    archive.mkdir()
    export = {"format": "jaxstate-tutor-export", "format_version": 1, "learner": "carol", "progress": {}, "files": {}}
    (archive / "carol.json").write_text(json.dumps(export), encoding="utf-8")
    (folder / "mallory.json").symlink_to(archive / "carol.json")
    (folder / "trent.json").symlink_to("\x1b]0;owned\x07" + str(archive / "carol.json"))
    p = _tutor(cli_env, tmp_path, "grade", str(folder), timeout=60)
    assert p.returncode == 0, p.stderr
    rows = {r["export"]: r for r in csv.DictReader(io.StringIO(p.stdout))}
    assert set(rows) == {"mallory.json", "trent.json"}, rows
    assert all(r["status"] == "unreadable" for r in rows.values()), rows
    assert f"a symbolic link to {archive / 'carol.json'}, not a file handed in" in rows["mallory.json"]["note"]
    assert "\x1b" not in p.stdout + p.stderr and "owned" in rows["trent.json"]["note"]
    assert "carol" not in {r["learner"] for r in rows.values()}
    zh = _tutor(cli_env, tmp_path, "--lang", "zh", "grade", str(folder), timeout=60)
    assert "不是交上来的文件" in zh.stderr, zh.stderr
    named = _tutor(cli_env, tmp_path, "grade", str(folder / "mallory.json"), timeout=60)
    assert "carol" in named.stdout, named.stdout  # named on the command line: followed
