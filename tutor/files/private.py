"""A tutor's home is its owner's alone: folders 0700, files 0600, whatever the umask.

The one owner of those modes. Everything the tutor makes in a home (progress, its lock and
backups, the workspace and its backups, passed files, rescued text, a seat's lock, exports), and
its own cache folders, is made through here. A umask can only take bits away from what is asked,
so asking for 0700/0600 is never looser; a chmod after making makes it exactly that (a umask of
0o277 would otherwise leave a folder the tutor cannot write).

A home made by an older tutor (0755 folders, 0644 files) is tightened on first use: `tighten_home`
says what it changed once, and nothing the next time.
"""

from __future__ import annotations

import os
import stat
from contextlib import suppress
from pathlib import Path

from tutor.i18n import Bilingual

FOLDER_MODE = 0o700
FILE_MODE = 0o600

# What a tutor writes at the top of a home; only these are tightened in a home made before (the
# home may be a folder of the user's own, holding files that are none of the tutor's business).
_HOME_FOLDERS = ("workspace", "passed", "unsaved", "learners")
_HOME_FILE_PREFIXES = ("progress.", ".serve-", "courses-said")
# Windows has no owner/group/other bits (os.chmod sets only read-only) and no geteuid: a home there
# is as private as its folder's ACL, which the user's profile folder already is; nothing to tighten.
_POSIX_MODES = hasattr(os, "fchmod") and hasattr(os, "geteuid")


def _mine(st: os.stat_result) -> bool:
    return _POSIX_MODES and st.st_uid == os.geteuid()


def make_folder(path: Path) -> None:
    """`mkdir -p path`; every folder this makes is 0700. Raises OSError (FileExistsError where
    `path` or a part of it is a file), as Path.mkdir(parents=True, exist_ok=True) does."""
    path = Path(path)
    if path.is_dir():
        return
    if path.parent != path and not os.path.lexists(path.parent):
        make_folder(path.parent)  # a parent that is a file is left to mkdir to name (ENOTDIR)
    try:
        os.mkdir(path, FOLDER_MODE)
    except FileExistsError:
        if not path.is_dir():
            raise
        return  # made by another process meanwhile: its maker set its mode
    if _POSIX_MODES:
        with suppress(OSError):
            os.chmod(path, FOLDER_MODE)


def own_mode(fd: int, mode: int = FILE_MODE) -> None:
    """Give a file the tutor just created (O_CREAT|O_EXCL) exactly `mode`, whatever the umask."""
    if _POSIX_MODES:
        with suppress(OSError):
            os.fchmod(fd, mode)


def open_private(path: Path, flags: int) -> int:
    """os.open with O_CREAT and mode 0600; a file it finds looser (made before) is tightened when it is ours."""
    fd = os.open(path, flags | os.O_CREAT, FILE_MODE)
    with suppress(OSError):
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and st.st_mode & 0o077 and _mine(st):
            os.fchmod(fd, stat.S_IMODE(st.st_mode) & 0o700)
    return fd


def tighten_home(home: Path) -> Bilingual | None:
    """Make an existing home private: the home 0700, the tutor's folders in it 0700 and its files
    0600 (symbolic links are not followed; what is not ours is left alone). Returns the one-line
    note to say when anything changed, else None (so it is said once: the next run finds nothing)."""
    home = Path(home)
    changed = 0
    try:
        top = os.lstat(home)
    except OSError:
        return None
    if not stat.S_ISDIR(top.st_mode) or not _mine(top):
        return None
    changed += _tighten(home, top)
    try:
        names = os.listdir(home)
    except OSError:
        names = []
    for name in names:
        if name in _HOME_FOLDERS or name.startswith(_HOME_FILE_PREFIXES):
            changed += _tighten_tree(home / name)
    if not changed:
        return None
    return Bilingual(
        en=f"{home} was open to other users; it is now yours alone (folders 0700, files 0600: {changed} changed).",
        zh=f"{home} 原先其他用户也能访问；现在只有你能读写（文件夹 0700，文件 0600：改了 {changed} 项）。",
    )


def _tighten(path: Path, st: os.stat_result) -> int:
    """Take the group's and others' bits away; the owner's stay (a home or file the user made
    read-only stays read-only)."""
    if not _mine(st) or not st.st_mode & 0o077:
        return 0
    try:
        os.chmod(path, stat.S_IMODE(st.st_mode) & 0o700)
    except OSError:
        return 0
    return 1


def _tighten_tree(path: Path) -> int:
    """Tighten `path` and, for a folder, everything below it, never following a link."""
    try:
        st = os.lstat(path)
    except OSError:
        return 0
    if stat.S_ISREG(st.st_mode):
        return _tighten(path, st)
    if not stat.S_ISDIR(st.st_mode):
        return 0  # a link, a FIFO, a device: not the tutor's to change
    changed = _tighten(path, st)
    try:
        names = os.listdir(path)
    except OSError:
        return changed
    for name in names:
        changed += _tighten_tree(path / name)
    return changed
