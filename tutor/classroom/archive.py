"""The export: one JSON file holding a learner's progress and, for each exercise, the file that
passed (or the latest file otherwise), and the strict reading of one on the instructor's side.

    {"format": "jaxstate-tutor-export", "format_version": 1, "tutor_version": "...",
     "learner": "alice", "exported_at": "2026-12-06T03:00:00Z",
     "progress": {... as `progress --json` prints it ...},
     "files": {"counter-jit": {"kind": "passed|latest", "sha256": "...", "source": "..."}}}

JSON rather than a zip: one text file a person can open, no decompression to bound, and the
files are a few kB each. Nothing in it is trusted: `grade` re-runs every file.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.files.atomic import NotARegularFile, read_regular
from tutor.files.workspace import MAX_FILE_BYTES, LearnerFileError, Workspace, read_learner_file
from tutor.i18n import Bilingual
from tutor.progress import passing

FORMAT = "jaxstate-tutor-export"
FORMAT_VERSION = 1
# An export of every exercise at the largest file the tutor reads, with progress, fits well under it.
MAX_EXPORT_BYTES = 64 << 20
KINDS = ("passed", "latest")  # the file of the latest pass, or the workspace file as it is now


def sha256(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


@dataclass
class Collected:
    """What `export` put in, and what it could not (exercise id -> the learner's file error)."""

    document: dict
    latest_for_passed: list[str] = field(default_factory=list)  # passed, but only the latest file was there
    left_out: dict[str, Bilingual] = field(default_factory=dict)


def collect(home: Path, course, progress: dict, learner: str, tutor_version: str, now: str) -> Collected:
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
        "progress": progress,
        "files": files,
    }
    return out


class ExportError(Exception):
    """A file that cannot be read as an export: `key` and `fields` word it (tutor.classroom.texts)."""

    def __init__(self, key: str, **fields: Any):
        super().__init__(key)
        self.key = key
        self.fields = fields


@dataclass(frozen=True)
class ExportedFile:
    exercise_id: str
    kind: str  # passed | latest | "" (not said)
    source: str | None  # None: not usable, `problem` says why
    sha256_matches: bool = True
    problem: tuple[str, dict] | None = None  # (texts key, fields)


@dataclass(frozen=True)
class Export:
    """One learner's export as read: their name, what their progress claims, their files."""

    path: Path
    learner: str
    progress: dict
    files: tuple[ExportedFile, ...]

    def claimed_status(self, exercise_id: str) -> str:
        """What the learner's progress says of the exercise: new | attempted | passed, "" if nothing."""
        record = _dict(self.progress.get("exercises")).get(exercise_id)
        status = record.get("status") if isinstance(record, dict) else None
        return status if status in ("new", "attempted", "passed") else ""

    def claimed_ids(self) -> list[str]:
        return [k for k in _dict(self.progress.get("exercises")) if isinstance(k, str)]


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


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
    return Export(path=path, learner=learner, progress=progress, files=tuple(_file(k, v) for k, v in files.items()))


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
