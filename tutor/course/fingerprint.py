"""What a course read is made of, as one digest: where the course is, every file under lessons/
(its path and its bytes), the names under solutions/ (the loader asks only whether each solution
exists), and the code that reads it and defines its model. Two reads with the same fingerprint
give the same course, so one read serves every later one (tutor.course.kept, read_course)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# The reader and the model's code: a kept course from another version of them is not this one.
_READER = sorted(_PACKAGE.glob("*.py")) + [_PACKAGE.parent / "i18n.py", _PACKAGE.parent / "protocol.py"]


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
