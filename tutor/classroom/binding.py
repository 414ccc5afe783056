"""Whether an export belongs to the instructor's course: the same course id (else it is refused:
its exercise ids would be judged by checks written for other exercises), and the same version of
it (else it is graded on the instructor's version, and flagged: the checks or questions the
learner met may not be these)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.classroom.archive import Export, course_record

if TYPE_CHECKING:
    from tutor.course.model import Course


@dataclass(frozen=True)
class Binding:
    """`verdict`: "same" | "other-version" | "other-course" | "unsaid" (a format 1 export, or no
    course in it); `theirs` / `ours`: the course records compared (tutor.classroom.archive)."""

    verdict: str
    theirs: dict[str, Any] | None
    ours: dict[str, Any]

    @property
    def refused(self) -> bool:
        return self.verdict == "other-course"

    @property
    def flagged(self) -> bool:
        return self.verdict in ("other-version", "unsaid")


def bind(export: Export, course: Course) -> Binding:
    ours = course_record(course)
    theirs = export.course
    if not isinstance(theirs, dict) or not isinstance(theirs.get("id"), str):
        return Binding("unsaid", None, ours)
    if theirs["id"] != ours["id"]:
        return Binding("other-course", theirs, ours)
    if theirs.get("content_hash") != ours["content_hash"]:
        return Binding("other-version", theirs, ours)
    return Binding("same", theirs, ours)


def short(content_hash: object) -> str:
    """A content hash as a person compares two: its first 12 hex digits."""
    text = content_hash if isinstance(content_hash, str) else ""
    return text.removeprefix("sha256:")[:12] or "?"
