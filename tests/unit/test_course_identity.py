"""A course's identity (lessons/course.yaml) and version (its content hash): what an export
carries and `grade` compares. The same course is the same version wherever it lies and however
its line ends were checked out; a changed question, check or starter is another version; notes
and caches beside it are not."""

from __future__ import annotations

import shutil
from pathlib import Path

from tutor.course import read_course
from tutor.course.fingerprint import content_hash

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "course"


def _copy(tmp_path: Path, name: str) -> Path:
    shutil.copytree(FIXTURE, tmp_path / name)
    return tmp_path / name


def test_the_same_course_anywhere_with_any_line_ends_is_one_version(tmp_path):
    a, b = _copy(tmp_path, "a"), _copy(tmp_path / "elsewhere", "b")
    assert content_hash(a) == content_hash(b) == read_course(b)[0].identity.content_hash
    for path in (b / "lessons").rglob("*"):
        if path.is_file():
            path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    (b / "lessons" / "NOTES.md").write_text("for the assistants\n", encoding="utf-8")
    (b / "lessons" / "exercises" / "counter" / "__pycache__").mkdir()
    (b / "lessons" / "exercises" / "counter" / "__pycache__" / "checks.cpython-311.pyc").write_bytes(b"\0")
    (b / "lessons" / ".quiz.yaml.swp").write_bytes(b"\0")
    (b / "solutions" / "counter.py").write_text("# the instructor's own\n", encoding="utf-8")
    assert content_hash(b) == content_hash(a)


def test_a_changed_question_check_or_starter_is_another_version(tmp_path):
    base = content_hash(_copy(tmp_path, "base"))
    for i, relative in enumerate(("quiz.yaml", "exercises/counter/checks.py", "exercises/counter/starter.py")):
        course = _copy(tmp_path, f"c{i}")
        path = course / "lessons" / relative
        path.write_text(path.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
        assert content_hash(course) != base, relative


def test_a_course_names_itself_else_its_folder_does(tmp_path):
    named = read_course(FIXTURE)[0]
    assert (named.id, named.title.en, named.has_doctor) == ("jax-state-fixture", "JAX state tutor", True)
    bare = _copy(tmp_path, "My Course")
    (bare / "lessons" / "course.yaml").unlink()
    course, problems = read_course(bare)
    assert not problems
    assert (course.id, course.title.en, course.title.zh, course.has_doctor) == (
        "my-course",
        "My Course",
        "My Course",
        False,
    )


def test_a_course_yaml_that_is_wrong_is_named_with_its_line(tmp_path):
    course = _copy(tmp_path, "c")
    (course / "lessons" / "course.yaml").write_text(
        'course:\n  id: "Not An Id"\n  title: {en: A title}\n  doctor: "yes"\n  colour: blue\n', encoding="utf-8"
    )
    (course / "lessons" / "checkpoints" / "course.yaml").write_text(
        "course:\n  id: again\n  title: {en: Again, zh: 再来}\n", encoding="utf-8"
    )
    problems = [str(p) for p in read_course(course)[1]]
    said = "\n".join(problems)
    assert "lessons/course.yaml:2: course id 'Not An Id' may use only" in said
    assert "course title is missing its 'zh' translation" in said
    assert "lessons/course.yaml:4: course doctor must be true or false" in said
    assert "unknown key 'colour' in course" in said
    assert "lessons/checkpoints/course.yaml:1: the course's name belongs in lessons/course.yaml, once" in said
