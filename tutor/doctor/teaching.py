"""Where the course teaches the fix of each finding: a lesson and, when one shows it, a demo
cell. tests/worker/test_doctor.py asserts that every id exists in the course."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.protocol import Finding


@dataclass(frozen=True)
class Teaching:
    """A lesson id and, when one shows the fix, a demo cell id (None: no lesson is about it)."""

    lesson: str | None
    cell: str | None


# (kind, code) -> the lesson and cell that teach the fix.
TEACHES: dict[tuple[str, str], Teaching] = {
    ("retrace", "weak-type"): Teaching("6.8", "l68-typed-start"),
    ("retrace", "shape"): Teaching("6.7", "l67-jit-structure"),
    ("retrace", "structure"): Teaching("6.7", "l67-jit-structure"),
    ("retrace", "static"): Teaching("6.6", "l66-dynamic-lr"),
    ("retrace", "new-function"): Teaching("6.3", "l63-jit-counter"),
    ("retrace", "rewrapped"): Teaching("6.3", "l63-jit-counter"),
    ("retrace", "unexplained"): Teaching("6.6", "l66-dynamic-lr"),
    ("key-reuse", "reused"): Teaching("6.5", "l65-prng-state"),
    ("key-reuse", "loop-constant"): Teaching("6.5", "l65-prng-state"),
    ("key-reuse", "same-seed"): Teaching("6.5", "l65-key-streams"),
    ("key-reuse", "remade"): Teaching("6.5", "l65-prng-state"),
    ("key-reuse", "handed-back"): Teaching("6.5", "l65-prng-state"),
    ("side-effect", "global"): Teaching("6.3", "l63-functional-counter"),
    ("side-effect", "mutation"): Teaching("6.2", "l62-attr-fix"),
    ("side-effect", "print"): Teaching("6.1", "l61-debug-print"),
    ("side-effect", "rebound"): Teaching("6.3", "l63-functional-counter"),
    ("side-effect", "iterator"): Teaching("6.1", "l61-every-call"),
    ("side-effect", "stale"): Teaching("6.1", "l61-cache-key"),
    ("donation", "unusable"): Teaching("6.6", "l66-donate-unusable"),
    ("donation", "deleted"): Teaching("6.6", "l66-donate"),
    ("donation", "aliased"): Teaching("6.6", "l66-donate"),
    ("host-sync", "per-step"): Teaching("6.5", "l65-pure-counter"),
    ("key-reuse", "constant"): Teaching("6.5", "l65-key-streams"),
    ("crash", "immutable"): Teaching("6.2", "l62-at-set"),
    ("crash", "concretization"): Teaching("6.5", "l65-scan-length-fix"),
    ("crash", "tracer-bool"): Teaching("6.7", "l67-cond-where"),
    ("crash", "leaked-tracer"): Teaching("6.7", "l67-leaked-tracer"),
    ("crash", "key-reuse-error"): Teaching("6.5", "l65-key-reuse-checker"),
    ("nan", "first"): Teaching(None, None),  # no lesson is about NaN; the finding stands alone
}

NOWHERE = Teaching(None, None)


def teaching(f: Finding) -> Teaching:
    """The lesson and cell that teach the fix of `f`."""
    return TEACHES.get((f.kind, f.code), NOWHERE)
