"""The export: one JSON file holding a learner's progress and, for each exercise, the file that
passed (or the latest file otherwise), and the strict reading of one on the instructor's side.

    {"format": "jaxstate-tutor-export", "format_version": 2, "tutor_version": "...",
     "learner": "alice", "exported_at": "2026-12-06T03:00:00Z",
     "course": {"id": "jax-state", "title": {"en": "...", "zh": "..."}, "content_hash": "sha256:..."},
     "progress": {... as `progress --json` prints it ...},
     "answers": [{"question": "cp61-global-count", "part": "6.1", "try": 1, "variant": 2,
                  "values": {"n": "3"}, "answer": "3", "at": "2026-12-06T02:00:00Z"}],
     "files": {"counter-jit": {"kind": "passed|latest", "sha256": "...", "source": "..."}}}

Format 2 added `course` (which course, which version of it) and `answers` (every checkpoint and
quiz answer kept, so `grade` scores first tries again instead of believing them); a format 1
export still reads, and its grade says it cannot check either.

JSON rather than a zip: one text file a person can open, no decompression to bound, and the
files are a few kB each. Nothing in it is trusted: `grade` re-runs every file.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from tutor.errors import TutorError, worded
from tutor.files.atomic import NotARegularFile, read_regular
from tutor.files.workspace import MAX_FILE_BYTES, LearnerFileError, Workspace, read_learner_file
from tutor.i18n import Bilingual
from tutor.progress import passing
from tutor.protocol import EXERCISE_STATUSES, ExerciseStatus, word_in

if TYPE_CHECKING:
    from tutor.course.model import Course

FORMAT = "jaxstate-tutor-export"
FORMAT_VERSION = 2
# An export of every exercise at the largest file the tutor reads, with progress, fits well under it.
MAX_EXPORT_BYTES = 64 << 20
KINDS = ("passed", "latest")  # the file of the latest pass, or the workspace file as it is now


def sha256(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


@dataclass
class Collected:
    """What `export` put in, and what it could not (exercise id -> the learner's file error)."""

    document: dict[str, Any]
    latest_for_passed: list[str] = field(default_factory=list)  # passed, but only the latest file was there
    left_out: dict[str, Bilingual] = field(default_factory=dict)


def course_record(course: Course) -> dict[str, Any]:
    """Which course an export belongs to, and which version of it (tutor.course.model.Identity)."""
    return {
        "id": course.id,
        "title": {"en": course.title.en, "zh": course.title.zh},
        "content_hash": course.identity.content_hash if course.identity else "",
    }


def answers_given(course: Course, progress: dict[str, Any]) -> list[dict[str, Any]]:
    """Every checkpoint and quiz answer progress kept (`questions[id].given`), in the course's
    order, each with the part it belongs to (a lesson id, or "quiz"), its try, the variant it was
    asked in and, for a template, that variant's values. A first answer that was never kept
    (progress from before answers were) is listed as `"lost": true`."""
    questions = progress.get("questions")
    questions = questions if isinstance(questions, dict) else {}
    out = []
    parts = [(c.lesson, c.questions) for c in course.checkpoints] + [("quiz", course.quiz)]
    for part, asked in parts:
        for q in asked:
            record = questions.get(q.id)
            given = record.get("given") if isinstance(record, dict) else None
            for n, g in enumerate(given if isinstance(given, list) else [], start=1):
                if not isinstance(g, dict):
                    continue
                variant = g.get("variant", 0)
                entry = {"question": q.id, "part": part, "try": n, "variant": variant}
                if q.template and isinstance(variant, int) and 0 <= variant < len(q.template.variants):
                    entry["values"] = dict(q.template.variants[variant])
                entry |= {"answer": g.get("answer", ""), "at": g.get("at")}
                if g.get("lost"):
                    entry["lost"] = True
                out.append(entry)
    return out


def collect(
    home: Path, course: Course, progress: dict[str, Any], learner: str, tutor_version: str, now: str
) -> Collected:
    """The export document of the learner at `home`: `progress` (the `progress --json` document)
    and, for each exercise of the course, its kept passing file, else its workspace file."""
    files: dict[str, dict[str, str]] = {}
    out = Collected(document={})
    workspace = Workspace(home)
    claimed = progress.get("exercises", {})
    for exercise in course.exercises:
        source, kind = passing.read_kept(home, exercise.id), "passed"
        if source is None:
            if not workspace.exists(exercise.id):
                continue
            kind = "latest"
            try:
                source = read_learner_file(workspace.path(exercise.id))
            except LearnerFileError as exc:
                out.left_out[exercise.id] = exc.message
                continue
            if claimed.get(exercise.id, {}).get("status") == "passed":
                out.latest_for_passed.append(exercise.id)
        files[exercise.id] = {"kind": kind, "sha256": sha256(source), "source": source}
    out.document = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tutor_version": tutor_version,
        "learner": learner,
        "exported_at": now,
        "course": course_record(course),
        "progress": progress,
        "answers": answers_given(course, progress),
        "files": files,
    }
    return out


class ExportError(TutorError):
    """A file that cannot be read as an export: `key` and `fields` word it (tutor.classroom.texts)."""

    def __init__(self, key: str, **fields: Any):
        from tutor.classroom.texts import MSG

        super().__init__(worded(MSG, key, fields))
        self.key = key
        self.fields = fields


@dataclass(frozen=True)
class ExportedFile:
    exercise_id: str
    kind: str  # passed | latest | "" (not said)
    source: str | None  # None: not usable, `problem` says why
    sha256_matches: bool = True
    problem: tuple[str, dict[str, Any]] | None = None  # (texts key, fields)


@dataclass(frozen=True)
class Export:
    """One learner's export as read: their name, what their progress claims, their files."""

    path: Path
    learner: str
    progress: dict[str, Any]
    files: tuple[ExportedFile, ...]
    format_version: int = FORMAT_VERSION
    exported_at: str = ""  # as the learner's clock said it (UTC, ISO-8601 with a Z), "" if not said
    course: dict[str, Any] | None = None  # {"id", "title", "content_hash"}; None: a format 1 export, or not said
    answers: tuple[dict[str, Any], ...] | None = None  # None: not said (format 1): nothing to score again

    def exercise_record(self, exercise_id: str) -> dict[str, Any]:
        """What the learner's progress says of one exercise, for the gradebook: `status`,
        `attempts`, `first_passed_at` (None: not passed, or not said), `hints_shown`,
        `solution_viewed`; each a claim, as the learner's file holds it."""
        record = _dict(_dict(self.progress.get("exercises")).get(exercise_id))
        first = record.get("first_passed_at")
        hints = record.get("hints_shown")
        attempts = record.get("attempts")
        return {
            "status": self.claimed_status(exercise_id),
            "attempts": attempts if _is_count(attempts) else 0,
            "first_passed_at": first if isinstance(first, str) else None,
            "hints_shown": hints if _is_count(hints) else 0,
            "solution_viewed": record.get("solution_viewed") is True,
        }

    def claimed_status(self, exercise_id: str) -> ExerciseStatus | Literal[""]:
        """What the learner's progress says of the exercise: new | attempted | passed, "" if nothing."""
        record = _dict(self.progress.get("exercises")).get(exercise_id)
        status = record.get("status") if isinstance(record, dict) else None
        return word_in(EXERCISE_STATUSES + ("",), status, "")

    def claimed_ids(self) -> list[str]:
        return [k for k in _dict(self.progress.get("exercises")) if isinstance(k, str)]


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def read_export(path: Path) -> Export:
    """Read one export strictly; ExportError names what is wrong with the whole file. A single
    bad file inside it is not an error of the export: that file carries its problem."""
    try:
        raw = read_regular(path, MAX_EXPORT_BYTES)
    except NotARegularFile as exc:
        raise ExportError("unreadable", why=exc.strerror) from None
    except FileNotFoundError:
        where = f"a symbolic link to {os.readlink(path)}, which does not exist" if path.is_symlink() else "it is gone"
        raise ExportError("unreadable", why=where) from None
    except OSError as exc:
        try:
            size = path.stat().st_size
        except OSError:
            size = 0
        if size > MAX_EXPORT_BYTES:
            raise ExportError("too_large", size=size, most=MAX_EXPORT_BYTES) from None
        raise ExportError("unreadable", why=exc.strerror or str(exc)) from None
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ExportError("not_json", why=f"not UTF-8 at byte {exc.start}") from None
    except (ValueError, RecursionError) as exc:
        raise ExportError("not_json", why=str(exc)[:200]) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ExportError("not_export", why=f'it has no "format": "{FORMAT}"')
    version = doc.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ExportError("not_export", why='its "format_version" is not a version number')
    if version > FORMAT_VERSION:
        raise ExportError("newer_format", version=version, known=FORMAT_VERSION)
    learner = doc.get("learner")
    if not isinstance(learner, str) or not learner.strip():
        learner = path.stem  # the file's name says whose it is
    progress = doc.get("progress")
    files = doc.get("files")
    if not isinstance(progress, dict) or not isinstance(files, dict):
        raise ExportError("not_export", why='"progress" or "files" is not an object')
    exported_at = doc.get("exported_at")
    course = doc.get("course")
    answers = doc.get("answers")
    return Export(
        path=path,
        learner=learner,
        progress=progress,
        files=tuple(_file(k, v) for k, v in files.items()),
        format_version=version,
        exported_at=exported_at if isinstance(exported_at, str) else "",
        course=course if isinstance(course, dict) else None,
        answers=tuple(a for a in answers if isinstance(a, dict)) if isinstance(answers, list) else None,
    )


def _file(exercise_id: str, entry: Any) -> ExportedFile:
    """One exercise's file as the export holds it; a file the tutor would not read is not run."""
    if not isinstance(entry, dict) or not isinstance(entry.get("source"), str):
        return ExportedFile(exercise_id, "", None, problem=("file_not_text", {"why": 'no "source" text'}))
    source: str = entry["source"]
    kind: str = entry["kind"] if entry.get("kind") in KINDS else ""
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        return ExportedFile(exercise_id, kind, None, problem=("file_too_large", {"size": size, "most": MAX_FILE_BYTES}))
    if "\x00" in source:
        return ExportedFile(exercise_id, kind, None, problem=("file_not_text", {"why": "it contains NUL characters"}))
    try:
        digest = sha256(source)
    except UnicodeEncodeError:  # a lone surrogate (\ud800 in the JSON): not text a file could hold
        return ExportedFile(exercise_id, kind, None, problem=("file_not_text", {"why": "it is not valid Unicode"}))
    return ExportedFile(exercise_id, kind, source, sha256_matches=entry.get("sha256") in (None, digest))
