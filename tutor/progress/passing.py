"""The exact source of each exercise's latest pass: <home>/passed/<exercise-id>.py.

Kept when a check passes (the CLI's `check` and `watch`, the TUI), so that `export` hands a
grader the file that passed even after the learner edited the workspace file again. Kept apart
from progress.json: that file stays small, and its `--json` contract unchanged. Nothing here is
trusted by a grader (`grade` re-runs every file); it only says which file to re-run.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

from tutor.files.private import make_folder
from tutor.files.workspace import LearnerFileError, read_learner_file, write_atomically

FOLDER = "passed"


def kept_path(home: Path, exercise_id: str) -> Path:
    return Path(home) / FOLDER / f"{exercise_id}.py"


def keep(home: Path | None, exercise_id: str, source: str, passed: bool) -> None:
    """After a verdict: a pass keeps `source` as the exercise's passing file (replacing an older
    one). A home that cannot hold it keeps nothing; `export` then takes the workspace file and says so."""
    if not passed or home is None:
        return
    path = kept_path(home, exercise_id)
    with suppress(OSError, LearnerFileError):
        make_folder(path.parent)
        write_atomically(path, source)


def read_kept(home: Path, exercise_id: str) -> str | None:
    """The source of the exercise's latest pass, or None if none was kept (or it is unreadable)."""
    path = kept_path(home, exercise_id)
    if not path.exists():
        return None
    try:
        return read_learner_file(path)
    except LearnerFileError:
        return None
