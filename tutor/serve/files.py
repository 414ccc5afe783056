"""A served learner's exercise file, downloaded and uploaded through the page (`file/NAME`).

The file lives on the server, in the seat's workspace; the browser is on the learner's machine. A
download hands over the file as it is on disk; an upload replaces a file the learner already has
(an exercise they opened), keeps the old one under workspace/.backup/ and writes the new one in a
single rename, so the exercise screen sees one outside save and checks it, as after an editor's.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import time
from pathlib import Path

from tutor.errors import TutorError, worded
from tutor.files.private import make_folder

_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}\.py\Z")
MAX_BYTES = 512 * 1024  # an exercise file is a few KB; anything near this is not one


class FileRefused(TutorError):
    """Why a file cannot be read or replaced: `key` names the message (tutor.serve.texts)."""

    def __init__(self, key: str, status: int):
        from tutor.serve.texts import MSG

        super().__init__(worded(MSG, key, {}))
        self.key = key
        self.status = status


def workspace_file(home: Path, name: str) -> Path:
    """The seat's workspace file NAME: a plain file there (no link, no other folder)."""
    if not _NAME.match(name):
        raise FileRefused("file_name", 400)
    path = home / "workspace" / name
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        raise FileRefused("file_missing", 404) from None
    if not stat.S_ISREG(mode):
        raise FileRefused("file_missing", 404)
    return path


def read(home: Path, name: str) -> bytes:
    path = workspace_file(home, name)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        return f.read(MAX_BYTES + 1)


def replace(home: Path, name: str, data: bytes) -> Path:
    """Put `data` in place of the workspace file NAME; returns where the old one was kept."""
    path = workspace_file(home, name)
    if len(data) > MAX_BYTES:
        raise FileRefused("file_too_big", 413)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused("file_not_text", 400) from None
    backup_dir = path.parent / ".backup"
    make_folder(backup_dir)  # 0700 whatever the umask, as every folder of a home (issue 50: it was 0755)
    backup = backup_dir / f"{path.stem}-{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**6}-before-upload.py"
    shutil.copy2(path, backup)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".upload-", suffix=".py")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        os.replace(tmp, path)  # one rename: the screen never reads half a file
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return backup
