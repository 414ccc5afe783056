"""What a course's text is, as one digest: every file under lessons/ (its path and its bytes) and the
names under solutions/ (the loader asks only whether each solution exists). Two reads of a course
with the same fingerprint give the same course, so it is read once per process and content."""

from __future__ import annotations

import hashlib
from pathlib import Path


def fingerprint(root: Path) -> bytes | None:
    """The digest of what read_course reads under `root`; None if a file cannot be read (then the
    loader reads it itself and says why)."""
    digest = hashlib.blake2b(digest_size=16)
    try:
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
