"""Where a course teaches the fix of each finding. The course says it: a lesson cell declares
`teaches: [kind/code, ...]` (tutor.course), and `validate` checks each name against FINDINGS. The
doctor only looks the finding up in what the caller passes (`Course.teachings()`): a course that
teaches none, or that does not say `doctor: true`, gives every finding no lesson."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tutor.protocol import Finding

# Every (kind, code) the doctor reports, a finding's name being "kind/code".
FINDINGS: tuple[tuple[str, str], ...] = (
    ("retrace", "weak-type"),
    ("retrace", "shape"),
    ("retrace", "structure"),
    ("retrace", "static"),
    ("retrace", "new-function"),
    ("retrace", "rewrapped"),
    ("retrace", "unexplained"),
    ("key-reuse", "reused"),
    ("key-reuse", "loop-constant"),
    ("key-reuse", "same-seed"),
    ("key-reuse", "remade"),
    ("key-reuse", "handed-back"),
    ("key-reuse", "handed-down"),
    ("key-reuse", "kept"),
    ("key-reuse", "constant"),  # a note: the same key on every call, on purpose
    ("side-effect", "global"),
    ("side-effect", "mutation"),
    ("side-effect", "print"),
    ("side-effect", "rebound"),
    ("side-effect", "iterator"),
    ("side-effect", "stale"),
    ("side-effect", "captured"),  # a global / closed-over value a trace read, changed after it
    ("donation", "unusable"),
    ("donation", "deleted"),
    ("donation", "aliased"),
    ("host-sync", "per-step"),
    ("nan", "first"),
    ("crash", "immutable"),
    ("crash", "concretization"),
    ("crash", "tracer-bool"),
    ("crash", "leaked-tracer"),
    ("crash", "key-reuse-error"),
)


def finding_name(kind: str, code: str) -> str:
    """How a course names a finding in `teaches:`."""
    return f"{kind}/{code}"


NAMES: frozenset[str] = frozenset(finding_name(k, c) for k, c in FINDINGS)

# A finding's name -> the (lesson id, cell id) that teaches its fix.
Taught = Mapping[str, tuple[str, str]]


@dataclass(frozen=True)
class Teaching:
    """A lesson id and, when one shows the fix, a demo cell id (None: no lesson is about it)."""

    lesson: str | None
    cell: str | None


NOWHERE = Teaching(None, None)


def teaching(f: Finding, taught: Taught | None) -> Teaching:
    """The lesson and cell that teach the fix of `f`, in what `taught` says (None: nowhere)."""
    where = (taught or {}).get(finding_name(f.kind, f.code))
    return Teaching(*where) if where else NOWHERE
