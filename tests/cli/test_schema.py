"""The course's JSON Schema (`jaxstate-tutor schema`, docs/course.schema.json) is made from the one
declaration the loader reads (tutor/course/schema.py): the committed file is current, it is a valid
draft 2020-12 schema, every YAML file of the shipped course and of `new-course`'s course is valid
under it, and what the loader refuses as a key the schema refuses too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tutor.cli.main import main
from tutor.course import read_course
from tutor.course.scaffold import new_course
from tutor.course.schema import FORMAT, json_schema

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "course.schema.json"


@pytest.fixture(scope="module")
def validator():
    # Imported here, not at collection: with rfc3987-syntax installed (Jupyter's test extras bring
    # it) importing jsonschema compiles 39 grammars, about 1.5 s in every test process.
    jsonschema = pytest.importorskip("jsonschema")  # in the test extras: CI has it
    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_committed_schema_is_current(capsys):
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json_schema()
    assert json.loads(COMMITTED.read_text(encoding="utf-8")) == printed, (
        "docs/course.schema.json is stale: jaxstate-tutor schema > docs/course.schema.json"
    )


def course_files(root: Path) -> list[Path]:
    return sorted((root / "lessons").rglob("*.yaml"))


def test_every_shipped_course_file_is_valid(validator):
    from jsonschema.exceptions import best_match

    files = course_files(ROOT)
    assert len(files) > 30
    for path in files:
        error = best_match(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8"))))
        assert error is None, f"{path.relative_to(ROOT)}: {list(error.absolute_path)}: {error.message[:300]}"


def test_a_new_courses_files_are_valid(tmp_path, validator):
    new_course(tmp_path / "c")
    for path in course_files(tmp_path / "c"):
        assert validator.is_valid(yaml.safe_load(path.read_text(encoding="utf-8"))), path


EXERCISE = ROOT / "lessons/exercises/counter-jit/exercise.yaml"


def _exercise() -> dict:
    return yaml.safe_load(EXERCISE.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["exercise"].update(hint=[]),  # a typo of hints: unknown
        lambda d: d["exercise"].pop("prompt"),  # required
        lambda d: d["exercise"]["title"].pop("zh"),  # every language
        lambda d: d["exercise"]["checks"][0].update(kind="values"),  # a key that moved to checks.py
        lambda d: d["exercise"].update(order=0),  # positive
        lambda d: d["exercise"].update(id="Counter_JIT"),  # the id pattern
    ],
    ids=["unknown-key", "missing-key", "missing-language", "moved-key", "order-zero", "bad-id"],
)
def test_the_schema_refuses_what_the_loader_refuses(tmp_path, validator, change):
    data = _exercise()
    change(data)
    assert not validator.is_valid(data)
    # the loader, on the same file in a course of its own, reports a problem too
    root = tmp_path / "course"
    folder = root / "lessons/exercises/counter-jit"
    folder.mkdir(parents=True)
    for name in ("starter.py", "checks.py"):
        (folder / name).write_text((EXERCISE.parent / name).read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "exercise.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    (root / "solutions").mkdir()
    (root / "solutions/counter-jit.py").write_text("")
    _, problems = read_course(root)
    assert any("exercise.yaml" in p.file for p in problems), problems


def test_a_question_is_lettered_or_a_template(validator):
    quiz = {"quiz": {"questions": [{"id": "q", "prompt": {"en": "?", "zh": "？"}, "template": {}}]}}
    assert not validator.is_valid(quiz)  # a template needs variants, code, reveal and explain
    lettered = {"en": "x", "zh": "x"}
    letters = {k: lettered for k in "ABCD"}
    ok = {"id": "q", "prompt": lettered, "options": letters, "answer": "B", "explain": letters}
    assert validator.is_valid({"quiz": {"questions": [ok]}})
    assert not validator.is_valid({"quiz": {"questions": [ok | {"template": {}}]}})  # both: not lettered


def test_every_mapping_is_reachable_from_a_file():
    """A mapping declared but never used would be a schema the loader does not read."""
    reached, todo = set(), [n for n in FORMAT if n.endswith("-file")]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        todo += [k.holds for k in FORMAT[name].keys.values() if k.holds in FORMAT]
        if name == "template-question" or any(k.holds == "question" for k in FORMAT[name].keys.values()):
            todo += ["question", "template-question"]
    assert reached == set(FORMAT)
