"""Property: whatever bytes a course file holds, the loader reports problems with file and
line and never raises. Inputs are mutations of the real course files plus arbitrary YAML."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.course import read_course

ROOT = Path(__file__).resolve().parents[2]

SEEDS = sorted((ROOT / "lessons").rglob("*.yaml"))
SEED_TEXT = {str(p.relative_to(ROOT / "lessons")): p.read_bytes() for p in SEEDS}


def mutate(data: bytes, ops: list[tuple[int, int, bytes]]) -> bytes:
    out = bytearray(data)
    for kind, pos, chunk in ops:
        if not out:
            out.extend(chunk)
            continue
        i = pos % len(out)
        if kind == 0:
            del out[i : i + len(chunk) + 1]  # delete a span
        elif kind == 1:
            out[i:i] = chunk  # insert bytes
        else:
            out[i : i + len(chunk)] = chunk  # overwrite
    return bytes(out)


yaml_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20))
yaml_values = st.recursive(
    yaml_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def check_course(tmp: Path, name: str, content: bytes) -> None:
    (tmp / "lessons" / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp / "solutions").mkdir(exist_ok=True)
    (tmp / "lessons" / name).write_bytes(content)
    _, problems = read_course(tmp, lint=True)
    for p in problems:
        assert isinstance(p.line, int) and p.line >= 0
        assert p.file.startswith("lessons/") and p.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=st.sampled_from(sorted(SEED_TEXT)),
    ops=st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 10**6), st.binary(min_size=1, max_size=6)), min_size=1, max_size=5
    ),
)
def test_mutated_course_files(tmp_path_factory, name, ops):
    tmp = tmp_path_factory.mktemp("fuzz")
    check_course(tmp, name, mutate(SEED_TEXT[name], ops))
    shutil.rmtree(tmp)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(top=st.sampled_from(["lesson", "exercise", "quiz", "other"]), body=yaml_values)
def test_arbitrary_structures(tmp_path_factory, top, body):
    import yaml

    tmp = tmp_path_factory.mktemp("fuzz")
    text = yaml.safe_dump({top: body}, allow_unicode=True)
    check_course(tmp, "x.yaml", text.encode("utf-8"))
    shutil.rmtree(tmp)
