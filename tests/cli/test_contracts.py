"""docs/CONTRACTS.md against the code: its version is the one every --json document carries, each
closed list it writes down is exactly the code's list (tutor.protocol's vocabularies), and every
command and global option is named. That the code makes only the kinds listed is mypy's to say:
each is a Literal (tests/unit/test_vocabulary.py shows it refusing one that is not)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from tutor.cli.main import _parser
from tutor.course import load_course
from tutor.paths import shipped_course_root
from tutor.protocol import CHECK_STATUSES, DOCTOR_STATUSES, FINDING_KINDS, VERDICT_KINDS
from tutor.sandbox.events import STATUSES
from tutor.sandbox.kinds import MEANINGS
from tutor.terminal.render import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "CONTRACTS.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The text under a Markdown heading, up to the next heading of any level."""
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#)", DOC + "\n#", re.M | re.S)
    assert match, f"docs/CONTRACTS.md has no heading '{heading}'"
    return match.group(1)


def first_column(heading: str) -> list[str]:
    """The `code` of each row of the table under a heading."""
    return re.findall(r"^\| `([^`]+)` \|", section(heading), re.M)


def test_the_version_is_the_one_every_json_document_carries():
    assert f"**Contracts version: {SCHEMA_VERSION}.**" in DOC
    assert f'"schema_version": {SCHEMA_VERSION}' in DOC


@pytest.mark.parametrize(
    ("heading", "listed"),
    [
        ("Verdict statuses", STATUSES),
        ("Verdict kinds", VERDICT_KINDS),
        ("Check statuses", CHECK_STATUSES),
        ("Doctor statuses", DOCTOR_STATUSES),
        ("Doctor finding kinds", FINDING_KINDS),
    ],
)
def test_each_closed_list_is_the_codes(heading, listed):
    assert sorted(first_column(heading)) == sorted(str(x) for x in listed)


def test_each_verdict_kind_is_documented_with_its_meaning():
    assert tuple(MEANINGS) == VERDICT_KINDS
    for kind, (statuses, meaning) in MEANINGS.items():
        assert f"| `{kind}` | {statuses} | {meaning} |" in section("Verdict kinds"), kind


def test_every_exercise_id_in_the_contract_is_still_shipped():
    """The contract is that a listed id stays (a learner's files and progress, a class's reports
    name it): none renamed or removed. An exercise an author adds is not yet part of it, so a new
    exercise that `validate` passes fails nothing here until it is listed."""
    shipped = [e.id for e in load_course(shipped_course_root()).exercises]
    listed = first_column("Exercise IDs and what the learner defines")
    assert [i for i in listed if i not in shipped] == [], "renamed or removed, though docs/CONTRACTS.md lists them"
    assert listed == [i for i in shipped if i in listed], "the listed ids are in the course's order"


def test_every_command_and_global_option_is_named():
    block = section("Command line")
    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name in commands:
        assert f"jaxstate-tutor {name}" in block, name
    for action in parser._actions:
        for option in action.option_strings:
            if option.startswith("--"):
                assert option in block, option
