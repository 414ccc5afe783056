"""docs/CONTRACTS.md against the code: its version is the one every --json document carries, each
closed list it writes down is exactly the code's list, every command and global option is named,
and the verdict kinds the code makes are exactly tutor.sandbox.kinds.VerdictKind (read from the
source, so a new kind written anywhere fails here until it is listed and documented)."""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

import pytest

from tutor.cli.main import _parser
from tutor.course import load_course
from tutor.paths import shipped_course_root
from tutor.protocol import CHECK_STATUSES, DOCTOR_STATUSES, FINDING_KINDS
from tutor.sandbox.events import STATUSES
from tutor.sandbox.kinds import MEANINGS, VerdictKind
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
        ("Verdict kinds", tuple(VerdictKind)),
        ("Check statuses", CHECK_STATUSES),
        ("Doctor statuses", DOCTOR_STATUSES),
        ("Doctor finding kinds", FINDING_KINDS),
    ],
)
def test_each_closed_list_is_the_codes(heading, listed):
    assert sorted(first_column(heading)) == sorted(str(x) for x in listed)


def test_each_verdict_kind_is_documented_with_its_meaning():
    assert set(MEANINGS) == set(VerdictKind)
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


# ---- the kinds the code makes --------------------------------------------------------------------

# Where verdict kinds are made: the parent's decision (also the TUI's, through it), the worker's named endings.
MAKERS = ["tutor/sandbox/verdict.py", "tutor/child/harness.py", "tutor/child/worker.py"]


def _text(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def kinds_made(path: Path) -> set[str]:
    """Kind strings in `path`: Abort / RunError's first argument, Verdict's kind=, and in the
    decision the kind of each `return status, kind, message` and `return kind, message`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in ("Abort", "RunError") and node.args and (kind := _text(node.args[0])):
                found.add(kind)
            found.update(k for kw in node.keywords if kw.arg == "kind" and (k := _text(kw.value)))
        elif path.name == "verdict.py" and isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            elts = node.value.elts
            if any(isinstance(e, ast.Starred) for e in elts):  # ("error", *_guard_outcome(...)): read there
                continue
            kind = _text(elts[1]) if len(elts) == 3 else _text(elts[0]) if len(elts) == 2 else None
            if kind is not None:
                found.add(kind)
    return found


def test_the_code_makes_exactly_the_listed_kinds():
    made = {p: kinds_made(ROOT / p) for p in MAKERS}
    unlisted = {p: sorted(k for k in kinds if k not in set(VerdictKind)) for p, kinds in made.items()}
    assert not any(unlisted.values()), f"kinds made but not in VerdictKind (and docs/CONTRACTS.md): {unlisted}"
    never = set(VerdictKind) - set().union(*made.values())
    assert not never, f"VerdictKind lists kinds none of MAKERS makes (moved to another file?): {sorted(never)}"


def test_the_scan_finds_a_new_kind(tmp_path):
    """The reader above is what keeps the list honest: it must see a kind in each form."""
    source = (
        "def _outcome():\n    return 'error', 'brand-new', m\n"
        "def _early():\n    return 'also-new', m\n"
        "raise Abort('third', 'en', 'zh')\nVerdict(kind='fourth')\n"
    )
    path = tmp_path / "verdict.py"
    path.write_text(source)
    assert kinds_made(path) == {"brand-new", "also-new", "third", "fourth"}
