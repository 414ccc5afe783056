"""Where things live: the course files and the learner's home."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
COURSE_VAR = "JAXSTATE_TUTOR_COURSE"  # a course of one's own; `--course DIR` sets it for one command


def course_root() -> Path:
    """Folder holding lessons/ and solutions/: JAXSTATE_TUTOR_COURSE, else the shipped course."""
    override = os.environ.get(COURSE_VAR)
    if override:
        return Path(override)
    return shipped_course_root()


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


def default_home() -> Path:
    """The learner's state folder: JAXSTATE_TUTOR_HOME, else the platform's user data dir."""
    env = os.environ.get("JAXSTATE_TUTOR_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("jaxstate-tutor", appauthor=False))
