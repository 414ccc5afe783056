"""Where things live: the course files and the learner's home."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def shipped_course_root() -> Path:
    """The course this package ships (the one the doctor's findings link to): inside the wheel,
    else the source checkout."""
    bundled = PACKAGE_DIR / "_course"
    if (bundled / "lessons").is_dir():
        return bundled
    return PACKAGE_DIR.parent


def typed_folder(text: str) -> Path:
    """A folder the user typed (--home, --course). ValueError for an empty word: Path("") is the
    current folder, so `--home ''` wrote progress wherever the command was run."""
    if not text.strip():
        raise ValueError("an empty word names no folder")
    return Path(text)
