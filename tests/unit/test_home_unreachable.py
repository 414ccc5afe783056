"""A home under a folder this user may not enter (another user's private folder) is named, not a
PermissionError traceback from the tutor's own diagnosis (Path.exists raises there on 3.11)."""

from __future__ import annotations

import os


def test_a_home_behind_a_folder_the_user_cannot_enter_is_named(peers, tmp_path):
    victim, intruder = peers
    locked = tmp_path / "locked"
    (locked / "inner").mkdir(parents=True)
    os.chmod(locked, 0o700)  # root's: the peer may not enter it
    os.chmod(tmp_path, 0o755)
    for part in tmp_path.parents:
        if part != part.parent and not os.access(part, os.X_OK):
            return  # pytest's own folder is root's alone here: nothing the peer could reach
    code = (
        "from pathlib import Path; from tutor.files.workspace import folder_problem; "
        f"p = folder_problem(Path({str(locked / 'inner' / 'home')!r})); print(p.en if p else None)"
    )
    done = intruder.python_code(code)
    assert done.returncode == 0, done.stderr
    assert "cannot be entered by this user" in done.stdout and str(locked) in done.stdout, done.stdout
