"""The learner's code: <home>/workspace/<exercise-id>.py, created from the starter on first use.

Learner code is only ever written atomically (a temp file beside it, fsync, rename): a full
disk or a killed tutor leaves the old file or the new one, never a truncated one.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import time
from contextlib import suppress
from pathlib import Path
from typing import Protocol

from tutor.errors import TutorError
from tutor.files.atomic import replace_atomically
from tutor.files.private import FILE_MODE, make_folder
from tutor.i18n import Bilingual

MAX_FILE_BYTES = 1_000_000  # a solution is a few kB; anything this big is a mistake


class HasStarter(Protocol):
    """An exercise as the workspace reads it (tutor.course.model.Exercise): its id and its starter."""

    @property
    def id(self) -> str: ...
    @property
    def starter(self) -> str: ...


class LearnerFileError(TutorError):
    """The learner's file cannot be used; the message says why, in both languages."""

    def __init__(self, en: str, zh: str):
        super().__init__(Bilingual(en=en, zh=zh))


class WorkspaceError(LearnerFileError):
    """The learner's file or the workspace folder cannot be written; nothing was lost."""


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def folder_problem(folder: Path) -> Bilingual | None:
    """Why `folder` (a home, or a folder in it) cannot hold files, where a part of its path is
    not a folder: a file, or a symbolic link to nothing. The OS says only "File exists", "Not a
    directory" or "No such file or directory", naming neither the part nor the cause. None otherwise."""
    for part in (folder, *folder.parents):
        try:
            dangling = part.is_symlink() and not part.exists()
            exists = part.exists()
        except PermissionError:  # a folder above it this user may not enter (Path.exists raises then)
            continue
        if dangling:
            target = os.readlink(part)
            return Bilingual(
                en=f"{part} is a symbolic link to {target}, which does not exist (is --home right?)",
                zh=f"{part} 是指向 {target} 的符号链接，而目标不存在（--home 写对了吗？）",
            )
        if exists:
            if part.is_dir():
                return _unreachable(folder)
            return Bilingual(
                en=f"{part} is a file, not a folder (is --home a file?)",
                zh=f"{part} 是文件而不是文件夹（--home 是不是指向了文件？）",
            )
    return _unreachable(folder)


def _unreachable(folder: Path) -> Bilingual | None:
    """The first folder on the way to `folder` that this user may not enter (a home under another
    user's private folder), or None."""
    for part in reversed((folder, *folder.parents)):
        try:
            os.stat(part)
        except PermissionError:
            return Bilingual(
                en=f"{part.parent} cannot be entered by this user (permission denied), so {folder} cannot be used",
                zh=f"当前用户无权进入 {part.parent}（权限不足），所以无法使用 {folder}",
            )
        except OSError:
            return None
    return None


def write_error(path: Path, exc: OSError) -> WorkspaceError:
    """A plain, bilingual message for a failed write of `path` (full disk, read-only home, ...)."""
    why = _why(exc)
    problem = folder_problem(path.parent) if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EEXIST) else None
    if problem is not None:
        return WorkspaceError(f"cannot write {path}: {problem.en}", f"无法写入 {path}：{problem.zh}")
    if path.is_symlink() and not path.exists():
        target = os.readlink(path)
        return WorkspaceError(
            f"cannot write {path}: it is a symbolic link to {target}, which cannot be written ({why})",
            f"无法写入 {path}：它是指向 {target} 的符号链接，而目标无法写入（{why}）",
        )
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return WorkspaceError(
            f"cannot write {path}: {why}; the file on disk is unchanged. Free some space and save again",
            f"无法写入 {path}：{why}；磁盘上的文件没有改动。请腾出空间后再保存",
        )
    if exc.errno == errno.ENOTDIR:
        return WorkspaceError(
            f"cannot write {path}: a part of that path is a file, not a folder (is --home a file?)",
            f"无法写入 {path}：路径中有一段是文件而不是文件夹（--home 是不是指向了文件？）",
        )
    return WorkspaceError(f"cannot write {path}: {why}", f"无法写入 {path}：{why}")


def write_atomically(path: Path, text: str) -> Path:
    """Replace the file's content with `text` all at once; returns the file really written.

    A symbolic link is followed (the learner's own file elsewhere stays where it is, linked, and
    keeps its mode); a file of the home is its owner's alone (0600). Raises WorkspaceError, and
    then the old content is untouched."""
    target = Path(os.path.realpath(path))
    try:
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode = FILE_MODE
        if not os.path.islink(path):
            mode &= 0o700
        replace_atomically(target, text.encode("utf-8"), target.with_name(f".{target.name}.{os.getpid()}.tmp"), mode)
    except OSError as exc:
        raise write_error(path, exc) from None
    return target


class Workspace:
    def __init__(self, home: Path):
        self.dir = home / "workspace"

    def path(self, exercise_id: str) -> Path:
        return self.dir / f"{exercise_id}.py"

    def exists(self, exercise_id: str) -> bool:
        """Whether the learner's file is there (a dangling symbolic link counts: it is the learner's)."""
        path = self.path(exercise_id)
        return path.exists() or path.is_symlink()

    def ensure(self, exercise: HasStarter) -> Path:
        """The learner's file for this exercise, written from the starter if it does not exist.

        Raises WorkspaceError when the home or the file cannot be written."""
        path = self.path(exercise.id)
        if not path.exists():
            try:
                make_folder(self.dir)
            except OSError as exc:
                raise write_error(path, exc) from None
            write_atomically(path, exercise.starter)
        return path

    def reset(self, exercise: HasStarter) -> Path | None:
        """Put the starter back; the old file is kept under workspace/.backup/. Returns the backup.

        The starter replaces the old code in one step, so a failure leaves the old code in place."""
        path = self.path(exercise.id)
        if not self.exists(exercise.id):
            self.ensure(exercise)
            return None
        backup = None
        current = Path(os.path.realpath(path))
        if current.is_file():
            backup_dir = self.dir / ".backup"
            backup = backup_dir / f"{exercise.id}-{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**6}.py"
            try:
                make_folder(backup_dir)
                try:
                    os.link(current, backup)  # a second name for the same bytes: needs no free space
                except OSError:
                    shutil.copy2(current, backup)
            except OSError as exc:
                with suppress(OSError):
                    backup.unlink()
                raise write_error(backup, exc) from None
        try:
            write_atomically(path, exercise.starter)
        except WorkspaceError:
            if backup is not None:
                with suppress(OSError):
                    backup.unlink()  # the old code is still in place: no copy of it is needed
            raise
        return backup


def _not_a_file(path: Path, what_en: str, what_zh: str) -> LearnerFileError:
    return LearnerFileError(f"{path} is {what_en}, not a Python file", f"{path} 是{what_zh}，不是 Python 文件")


def read_learner_file(path: Path) -> str:
    """The file's text, or LearnerFileError for missing, huge, binary, non-UTF-8 or special files.

    Only regular files are read, and never more than MAX_FILE_BYTES + 1 bytes: /dev/zero reports
    size 0 and never ends, and opening a FIFO with no writer would block forever (O_NONBLOCK)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        if os.path.islink(path):
            target = os.readlink(path)
            raise LearnerFileError(
                f"{path} is a symbolic link to {target}, which does not exist",
                f"{path} 是指向 {target} 的符号链接，但目标不存在",
            ) from None
        raise LearnerFileError(f"file not found: {path}", f"找不到文件：{path}") from None
    except IsADirectoryError:
        raise _not_a_file(path, "a directory", "目录") from None
    except OSError as exc:
        raise LearnerFileError(f"cannot read {path}: {_why(exc)}", f"无法读取 {path}：{_why(exc)}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _not_a_file(path, "a directory", "目录")
        if not stat.S_ISREG(st.st_mode):
            kind = (
                ("a pipe (FIFO)", "管道（FIFO）")
                if stat.S_ISFIFO(st.st_mode)
                else ("a device", "设备文件")
                if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                else ("a special file", "特殊文件")
            )
            raise _not_a_file(path, *kind)
        if st.st_size > MAX_FILE_BYTES:
            raise _too_big(path, st.st_size)
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:  # the size can change after fstat: the cap holds anyway
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise LearnerFileError(f"cannot read {path}: {_why(exc)}", f"无法读取 {path}：{_why(exc)}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(path, len(data))
    if b"\x00" in data:
        raise LearnerFileError(
            f"{path} looks binary (it contains NUL bytes), not like Python source",
            f"{path} 像是二进制文件（含 NUL 字节），不是 Python 源码",
        )
    try:
        # utf-8-sig: a byte-order mark (Windows editors) is not part of the code, as Python itself reads it.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LearnerFileError(
            f"{path} is not UTF-8 text (bad byte at offset {exc.start}); save it as UTF-8",
            f"{path} 不是 UTF-8 文本（偏移 {exc.start} 处字节无效）；请以 UTF-8 保存",
        ) from None


def _too_big(path: Path, size: int) -> LearnerFileError:
    return LearnerFileError(
        f"{path} is {size // 1000} kB; a solution file must be under {MAX_FILE_BYTES // 1000} kB",
        f"{path} 有 {size // 1000} kB；答案文件必须小于 {MAX_FILE_BYTES // 1000} kB",
    )
