"""The class list `grade --roster FILE` reads: a CSV with a header row naming its columns, one
learner a row. `name` is required; `id`, `email` and `section` are optional. An export is the
learner's whose name, id or email is the name it carries (case and spaces aside): under
JupyterHub an export carries the account's name, so a roster of logins matches by `id`.

    name,id,email,section
    Alice Liu,alice,alice@example.edu,A
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from tutor.errors import TutorError, worded
from tutor.files.atomic import NotARegularFile, read_regular

MAX_ROSTER_BYTES = 8 << 20
# The header words each column is known by: ours, then Canvas's and Moodle's.
HEADERS = {
    "name": ("name", "student", "full name", "learner"),
    "id": ("id", "sis user id", "student id", "username", "login", "user"),
    "email": ("email", "email address", "sis login id"),
    "section": ("section", "group"),
}


@dataclass(frozen=True)
class Learner:
    name: str
    id: str = ""
    email: str = ""
    section: str = ""

    def keys(self) -> set[str]:
        """What an export's learner name may be, to be this learner's."""
        return {_key(v) for v in (self.name, self.id, self.email) if v.strip()}


class RosterError(TutorError):
    """A roster that cannot be used: `key` and `fields` word it (tutor.classroom.texts)."""

    def __init__(self, key: str, **fields: object):
        from tutor.classroom.texts import MSG

        super().__init__(worded(MSG, key, fields))
        self.key, self.fields = key, fields


def _key(value: str) -> str:
    return " ".join(value.split()).casefold()


def read_roster(path: Path) -> list[Learner]:
    """The roster's learners in its order. RosterError names what makes it unusable: no such file,
    no `name` column, two rows that are one learner. Blank rows are skipped."""
    try:
        raw = read_regular(path, MAX_ROSTER_BYTES)
    except (NotARegularFile, OSError) as exc:
        raise RosterError("roster_unreadable", path=path, why=getattr(exc, "strerror", None) or str(exc)) from None
    try:
        text = raw.decode("utf-8-sig")  # a spreadsheet's UTF-8 begins with a BOM
    except UnicodeDecodeError as exc:
        raise RosterError("roster_unreadable", path=path, why=f"not UTF-8 at byte {exc.start}") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise RosterError("roster_no_name", path=path, header="")
    header = [_key(h) for h in rows[0]]
    where = {col: next((i for i, h in enumerate(header) if h in words), None) for col, words in HEADERS.items()}
    if where["name"] is None:
        raise RosterError("roster_no_name", path=path, header=",".join(rows[0]))
    learners: list[Learner] = []
    seen: dict[str, int] = {}
    for n, row in enumerate(rows[1:], start=2):
        values = {col: (row[i].strip() if i is not None and i < len(row) else "") for col, i in where.items()}
        if not any(values.values()):
            continue
        if not values["name"]:
            raise RosterError("roster_row_no_name", path=path, line=n)
        learner = Learner(**values)
        for k in learner.keys():
            if k in seen:
                raise RosterError("roster_twice", path=path, line=n, first=seen[k], who=k)
            seen[k] = n
        learners.append(learner)
    return learners


def find(learners: list[Learner], name: str) -> Learner | None:
    """The roster's learner an export naming `name` belongs to, if any."""
    k = _key(name)
    return next((l for l in learners if k in l.keys()), None)
