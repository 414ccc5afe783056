"""The course as read, kept on disk for the next process: every CLI command, every TUI start and
every worker-side reader used to parse the same YAML and checks.py again (0.25 s of CPU each, most
of a `list`). A kept course is used only under the fingerprint of exactly the text and the reader
code it was read from; anything unreadable is read again from the course, never trusted."""

from __future__ import annotations

import contextlib
import os
import pickle
from pathlib import Path

from tutor.files.atomic import replace_atomically
from tutor.files.private import make_folder

KEPT_FILES = 8  # courses kept: the shipped one and what an author or a test run is editing


def _folder() -> Path | None:
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("jaxstate-tutor", appauthor=False)) / "course"
    except Exception:  # noqa: BLE001 - no cache folder is only a slower start
        return None


def load(digest: bytes) -> object:
    """What keep() stored under `digest`, or None."""
    folder = _folder()
    if folder is None:
        return None
    try:
        return pickle.loads((folder / f"{digest.hex()}.pickle").read_bytes())
    except Exception:  # noqa: BLE001 - missing, torn by a crash, or from another reader: read anew
        return None


def keep(digest: bytes, value: object) -> None:
    """Store `value` under `digest` (whole or not at all) and drop the oldest beyond KEPT_FILES."""
    folder = _folder()
    if folder is None:
        return
    target = folder / f"{digest.hex()}.pickle"
    tmp = folder / f".{digest.hex()}.{os.getpid()}.tmp"
    try:
        make_folder(folder)  # a pickle is code to its reader: nobody else may put one here
        replace_atomically(target, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), tmp)
        kept = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in kept[KEPT_FILES:]:
            old.unlink(missing_ok=True)
    except OSError:  # a read-only, full or missing cache folder: the course is read each time
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
