"""Where text that could not be saved is kept: in the home (the learner's own), else in a private
folder of the system's temporary directory, told to the learner either way.

The temporary directory is shared by every user of the machine. A fixed name there can be made
first by someone else (a folder they can read, or one we cannot write into), and a name that can
be guessed can be a symbolic link planted to redirect the write onto one of our files. So outside
the home the tutor only writes in a folder `mkdtemp` made for it (a random name, mode 0700), and
every file is created new (O_EXCL), never through a link (O_NOFOLLOW), readable by us alone (0600).
"""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import suppress
from pathlib import Path

from tutor.files.workspace import WorkspaceError

HOME_FOLDER = "unsaved"  # <home>/unsaved/<exercise-id>-<time>-<pid>.py
TEMP_PREFIX = "jaxstate-tutor-unsaved-"  # mkdtemp adds the random part


def write_new_private(folder: Path, name: str, data: bytes) -> Path:
    """Create `folder/name` (it must not exist, and is never followed if a link) with mode 0600,
    holding `data`, synced to disk. Raises OSError, and then no part of the file is left."""
    path = folder / name
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        os.close(fd)
        with suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)
    return path


def _in_home(home: Path, name: str, data: bytes) -> Path:
    folder = home / HOME_FOLDER
    folder.mkdir(mode=0o700, exist_ok=True)  # not parents: a home that is gone is not made here
    for n in range(100):  # two rescues in one second from one process get two names
        try:
            return write_new_private(folder, name if n == 0 else name.replace(".py", f"-{n}.py"), data)
        except FileExistsError:
            continue
    raise FileExistsError(f"{folder}: too many copies named {name}")


def _in_private_temp(name: str, data: bytes) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX))  # new, ours, 0700: nobody else can reach into it
    try:
        return write_new_private(folder, name, data)
    except OSError:
        with suppress(OSError):
            folder.rmdir()
        raise


def rescue_copy(home: Path, exercise_id: str, text: str) -> Path:
    """Keep `text` (the editor's, which could not be saved in the workspace) and return the file
    now holding it: in <home>/unsaved/, or, if the home cannot hold it (a full disk, a read-only
    home), in a private temporary folder (often another filesystem). Raises WorkspaceError naming
    both failures if neither works."""
    name = f"{exercise_id}-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.py"
    data = text.encode("utf-8")
    try:
        return _in_home(Path(home), name, data)
    except OSError as exc:
        in_home = f"{Path(home) / HOME_FOLDER}: {exc.strerror or exc}"
    try:
        return _in_private_temp(name, data)
    except OSError as exc:
        in_temp = f"{tempfile.gettempdir()}: {exc.strerror or exc}"
    raise WorkspaceError(f"cannot write {in_home}, nor {in_temp}", f"无法写入 {in_home}，也无法写入 {in_temp}")
