"""Two digests of a course. `fingerprint`: what a course read is made of, as one digest: where the course is, every file under lessons/
(its path and its bytes), the names under solutions/ (the loader asks only whether each solution
exists), and the code that reads it and defines its model. Two reads with the same fingerprint
give the same course, so one read serves every later one (tutor.course.kept, read_course).
`content_hash`: the version of the course's content alone, wherever it lies and whoever reads it
(an export carries it; `grade` compares it with the instructor's copy)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# The reader and the model's code: a kept course from another version of them is not this one.
_READER = sorted(_PACKAGE.glob("*.py")) + [
    _PACKAGE.parent / "i18n.py",
    _PACKAGE.parent / "protocol.py",
    _PACKAGE.parent / "doctor" / "teaching.py",  # the names a cell's `teaches:` may give
]


def fingerprint(root: Path, lint: bool) -> bytes | None:
    """The digest of what read_course(root, lint) reads; None if a file cannot be read (then the
    loader reads the course itself and says why)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(b"%s\0%d\0%d.%d\0" % (str(root).encode(), lint, *sys.version_info[:2]))
    try:
        for path in _READER:
            digest.update(path.read_bytes())
        for path in sorted((root / "lessons").rglob("*")):
            if path.is_file():
                digest.update(b"F%s\0%d\0" % (str(path.relative_to(root)).encode(), path.stat().st_size))
                digest.update(path.read_bytes())
        solutions = root / "solutions"
        names = sorted(p.name for p in solutions.iterdir() if p.is_file()) if solutions.is_dir() else []
        digest.update(b"S" + "\0".join(names).encode())
    except (OSError, ValueError):
        return None
    return digest.digest()


def content_hash(root: Path) -> str:
    """The version of a course, "sha256:<hex>": of the files it is made of (every YAML file under
    lessons/, and each exercise's Python files: its starter and checks), each by its path there
    and its bytes, its line ends read as LF (a Windows checkout's CRLF is the same course). The
    same lessons, exercises, checks and questions give the same hash on a learner's machine and the
    instructor's. Notes beside them (lessons/README.md), caches, hidden files and solutions (a
    learner's copy may not hold them) are left out. "" if one cannot be read."""
    digest = hashlib.sha256()
    lessons = root / "lessons"
    try:
        for path in sorted(lessons.rglob("*")):
            relative = path.relative_to(lessons)
            if not path.is_file() or any(p.startswith(".") or p == "__pycache__" for p in relative.parts):
                continue
            if not (path.suffix == ".yaml" or (path.suffix == ".py" and relative.parts[0] == "exercises")):
                continue
            data = path.read_bytes().replace(b"\r\n", b"\n")
            digest.update(b"F%s\0%d\0" % (relative.as_posix().encode(), len(data)))
            digest.update(data)
    except (OSError, ValueError):
        return ""
    return "sha256:" + digest.hexdigest()
