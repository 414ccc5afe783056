"""A course is code (issue 50, item 4): a course folder that is not the one shipped with the tutor
is said once, per folder, to run its checks on this machine, and how they are confined. The
folders already told are remembered in the home (`courses-said`, one resolved path a line), so
the sentence comes once, not at every command; a home that cannot keep it hears it again."""

from __future__ import annotations

import sys
from pathlib import Path

from tutor.cli.texts import say

SAID_NAME = "courses-said"


def _said(home: Path) -> set[str]:
    try:
        return set((home / SAID_NAME).read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeError):
        return set()


def _confinement(lang: str) -> str:
    """What any check's run may do (tutor.child.sight, tutor.child.fence), and what holds it on this host."""
    from tutor import host

    abi = host.landlock_abi()
    files = "course_confined_landlock" if abi >= 1 else "course_confined_hook"
    sockets = "course_confined_seccomp" if host.seccomp_filters() else "course_confined_no_seccomp"
    sep = say("course_confined_sep", lang)
    parts = ("course_confined_rules", files, sockets, "course_confined_grade")
    return sep.join(say(key, lang, abi=abi) for key in parts)


def note_course(root: Path, home: Path, lang: str) -> bool:
    """Say, once per folder, what trusting the course at `root` means; True if it was said now."""
    from tutor.paths import shipped_course_root

    try:
        where = str(root.resolve())
        if where == str(shipped_course_root().resolve()):
            return False
    except OSError:
        return False
    said = _said(home)
    if where in said:
        return False
    print(say("course_is_code", lang, root=where, confined=_confinement(lang)), file=sys.stderr)
    try:
        from tutor.files.atomic import replace_atomically
        from tutor.files.private import make_folder

        text = "".join(f"{p}\n" for p in sorted(said | {where}))
        make_folder(home)
        replace_atomically(home / SAID_NAME, text.encode("utf-8"), home / f".{SAID_NAME}.tmp")
    except OSError:
        pass  # said again next time: better than never
    return True
