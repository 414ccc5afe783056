"""Every --json output against its golden file (tests/cli/golden/*.json), as exercism's test runners
check their versioned results.json: the keys, their nesting and the type of each value, from a
real command on a small course (`new-course`'s). Values that vary (durations, messages, ids used
as keys) are reduced to their types, so a key removed, renamed or retyped fails here, and the
contract (docs/CONTRACTS.md) and its schema_version must move with it.

After a deliberate change: JAXSTATE_UPDATE_GOLDEN=1 pytest tests/cli/test_golden_json.py, then
read the diff of the golden files as you would a contract's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.course import load_course
from tutor.progress import ProgressStore, changes
from tutor.progress.state import LearnerState
from tutor.settings import COURSE_VAR
from tutor.terminal.render import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
ID = "<id>"  # a map whose keys are ids (exercises, lessons, series): one shape for every value

# Where a document's keys are ids rather than names.
MAPS = {
    "check": {("metrics",)},
    "progress": {
        ("exercises",),
        ("lessons",),
        ("questions",),
        ("predictions",),
        ("quiz", "answers"),
        ("review", "items"),
        ("drills",),
    },
}


def shape(value, maps=frozenset(), path=()):
    """The value with each scalar replaced by its type's name and each list by its items' shapes."""
    if isinstance(value, dict):
        if path in maps:
            shapes = {json.dumps(shape(v, maps, (*path, ID)), sort_keys=True) for v in value.values()}
            return {ID: [json.loads(s) for s in sorted(shapes)]} if shapes else {}
        return {k: shape(v, maps, (*path, k)) for k, v in value.items()}
    if isinstance(value, list):
        shapes = {json.dumps(shape(v, maps, (*path, 0)), sort_keys=True) for v in value}
        return [json.loads(s) for s in sorted(shapes)]  # each distinct item shape once
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "str"
    assert value is None, type(value)
    return "null"


def test_shape_reduces_values_and_keeps_keys():
    doc = {
        "a": 1.5,
        "b": [{"x": "s", "y": None}, {"x": "t", "y": None}, {"x": "u"}],
        "m": {"k1": [True], "k2": [False]},
    }
    assert shape(doc, {("m",)}) == {
        "a": "number",
        "b": [{"x": "str", "y": "null"}, {"x": "str"}],
        "m": {ID: [["bool"]]},
    }


def against_golden(name: str, out: str) -> None:
    doc = json.loads(out)
    assert doc["schema_version"] == SCHEMA_VERSION
    assert next(iter(doc)) == "schema_version"  # first, where a reader looks before anything else
    got = shape(doc, MAPS.get(name, frozenset()))
    path = GOLDEN / f"{name}.json"
    if os.environ.get("JAXSTATE_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert got == json.loads(path.read_text(encoding="utf-8")), f"{name} --json changed shape: {json.dumps(got)}"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A course of one exercise (`new-course`), a home, and the command line on both."""
    where = tmp_path_factory.mktemp("golden")
    env = dict(os.environ)
    env.pop(COURSE_VAR, None)
    env |= {
        "JAXSTATE_TUTOR_HOME": str(where / "home"),
        "JAXSTATE_TUTOR_LANG": "en",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
    }
    course = where / "course"

    def tutor(*args: str, check: bool = True, shipped: bool = False) -> str:
        """The command line on the small course (`shipped`: on the tutor's own course)."""
        done = subprocess.run(
            [sys.executable, "-m", "tutor", *([] if shipped else ["--course", str(course)]), *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=where,
            timeout=600,
        )
        assert not check or done.returncode in (0, 1), done.stderr
        return done.stdout

    tutor("new-course", str(course))
    tutor("hint", "double")
    tutor("solution", "double", "--yes")
    # what only the TUI records, recorded through the same owner: a lesson read, a guess, an answer
    state = LearnerState(ProgressStore(where / "home"), load_course(course)).refresh()
    for change, *args in [
        (changes.lesson, "1", "done"),
        (changes.prediction, "first-cell", "[0 2 4]"),
        (changes.reveal, "first-cell", "[0 2 4]", True),
        (changes.answer, "cp1-arange-doubled", "A", True, False),
    ]:
        state.change(change, *args)()
    return tutor, course, where


def test_list_json(small):
    tutor, _, _ = small
    against_golden("list", tutor("list", "--json"))


def test_progress_json(small):
    tutor, _, _ = small
    against_golden("progress", tutor("progress", "--json"))


@pytest.mark.slow  # a worker
def test_check_json(small):
    tutor, course, _ = small
    against_golden("check", tutor("check", "double", "--json"))  # the starter: a failed check with its message


@pytest.mark.slow  # workers
def test_verify_json(small):
    tutor, _, _ = small
    against_golden("verify", tutor("verify", "double", "--json"))


@pytest.mark.slow  # workers
def test_verify_json_lines(small):
    """A JSON line per run as it ends, then the same document as --json, as the last line."""
    tutor, _, _ = small
    *lines, last = tutor("verify", "double", "--json-lines").splitlines()
    against_golden("verify", last)
    assert lines
    for line in lines:
        against_golden("verify-line", line)


@pytest.mark.slow  # a worker
def test_doctor_json(small):
    tutor, _, where = small
    script = where / "retraces.py"
    script.write_text(
        "import jax, jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n    return x * 2\n\n\n"
        "for n in range(4):\n    f(jnp.zeros(n + 1))\nprint('done')\n"
    )
    # The shipped course teaches the doctor's findings, so each names its lesson and cell; a course
    # that does not (the small one) gives null there (docs/CONTRACTS.md).
    against_golden("doctor", tutor("doctor", str(script), "--json", shipped=True))
    doc = json.loads(tutor("doctor", str(script), "--json"))
    assert doc["findings"] and all(f["lesson"] is None and f["cell"] is None for f in doc["findings"])


def test_grade_json(small, tmp_path):
    """The grade table's document (its own `format_version`, not schema_version): an export of the
    small course's learner, graded against a roster that also names one who handed in nothing."""
    tutor, course, where = small
    folder = tmp_path / "in"
    folder.mkdir()
    tutor("export", "--name", "ann", "--out", str(folder / "ann.json"))
    roster = tmp_path / "roster.csv"
    roster.write_text("name,id,email\nann,ann,ann@school.edu\nben,ben,\n", encoding="utf-8")
    out = tmp_path / "grade.json"
    tutor("grade", str(folder), "--roster", str(roster), "--due", "2000-01-01T00:00:00Z", "--json", str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert next(iter(doc)) == "format" and doc["format_version"] == 3
    got = shape(doc)
    path = GOLDEN / "grade.json"
    if os.environ.get("JAXSTATE_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert got == json.loads(path.read_text(encoding="utf-8")), f"grade --json changed shape: {json.dumps(got)}"
