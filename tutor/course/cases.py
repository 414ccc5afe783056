"""A course's red team: the case files under tests/cases/<exercise-id>/, and the one rule that
names them. Nothing else parses a case's name.

    pass_<name>.py              a correct variant: must pass every check
    fail_<check-id>__<name>.py  a mutant: must not pass, and check <check-id> must fail

A mutant may also pin what the failure says, in comment lines of its own:
    # says: <text>       the failing check's English message contains <text> (the real cause is named)
    # never-says: <text> ...and does not contain <text> (e.g. advice about something else)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CASES = Path("tests") / "cases"  # where a course keeps its red team, beside lessons/ and solutions/
PASS, FAIL, SEP = "pass_", "fail_", "__"
NAMING = "case files are named pass_<name>.py or fail_<check-id>__<name>.py"


@dataclass(frozen=True)
class Case:
    """One case file, as its name says: `check` is None for a correct variant (it must pass), else
    the id of the check the mutant must fail at."""

    path: Path
    check: str | None

    @property
    def passes(self) -> bool:
        return self.check is None


def read_name(path: Path) -> Case | None:
    """The case `path`'s name declares (None: the name follows neither form)."""
    if path.name.startswith(PASS):
        return Case(path, None)
    if path.name.startswith(FAIL):
        return Case(path, path.stem[len(FAIL) :].split(SEP)[0])
    return None


def is_mutant(path: Path) -> bool:
    """A fail_* case (one that must fail)."""
    case = read_name(path)
    return case is not None and not case.passes


def file_name(name: str, fails_at: str | None = None) -> str:
    """A case's file name: a correct variant's, or (`fails_at` a check id) a mutant's."""
    return f"{PASS}{name}.py" if fails_at is None else f"{FAIL}{fails_at}{SEP}{name}.py"


def cases_of(cases: Path, exercise_id: str) -> list[Path]:
    """The red-team cases of one exercise, in name order."""
    return sorted((cases / exercise_id).glob("*.py"))


def counts(folder: Path) -> tuple[int, int]:
    """How many correct variants and how many mutants one exercise's folder holds."""
    read = [read_name(p) for p in sorted(folder.glob("*.py"))]
    return sum(c is not None and c.passes for c in read), sum(c is not None and not c.passes for c in read)


def correct_variants(folder: Path) -> list[Path]:
    """One exercise's pass_* cases, in name order."""
    return [p for p in cases_of(folder.parent, folder.name) if (c := read_name(p)) is not None and c.passes]


def pins(source: str, key: str) -> list[str]:
    """The texts a case pins with `# key: text` lines."""
    prefix = f"# {key}:"
    return [line[len(prefix) :].strip() for line in source.splitlines() if line.startswith(prefix)]
