"""The learner's code: <home>/workspace/<exercise-id>.py, created from the starter on first use."""

from __future__ import annotations

import time
from pathlib import Path

MAX_FILE_BYTES = 1_000_000  # a solution is a few kB; anything this big is a mistake


class LearnerFileError(Exception):
    """The learner's file cannot be used; the message says why, in both languages."""

    def __init__(self, en: str, zh: str):
        super().__init__(en)
        self.message = {"en": en, "zh": zh}


class Workspace:
    def __init__(self, home: Path):
        self.dir = home / "workspace"

    def path(self, exercise_id: str) -> Path:
        return self.dir / f"{exercise_id}.py"

    def ensure(self, exercise) -> Path:
        """The learner's file for this exercise, written from the starter if it does not exist."""
        path = self.path(exercise.id)
        if not path.exists():
            self.dir.mkdir(parents=True, exist_ok=True)
            path.write_text(exercise.starter, encoding="utf-8")
        return path

    def reset(self, exercise) -> Path | None:
        """Put the starter back; the old file is kept under workspace/.backup/. Returns the backup."""
        path = self.path(exercise.id)
        backup = None
        if path.exists():
            backup_dir = self.dir / ".backup"
            backup_dir.mkdir(parents=True, exist_ok=True)
            backup = backup_dir / f"{exercise.id}-{time.strftime('%Y%m%dT%H%M%S')}-{time.time_ns() % 10**6}.py"
            path.replace(backup)
        self.ensure(exercise)
        return backup


def read_learner_file(path: Path) -> str:
    """The file's text, or LearnerFileError for missing, huge, binary or non-UTF-8 files."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise LearnerFileError(f"file not found: {path}", f"找不到文件：{path}") from None
    except OSError as exc:
        raise LearnerFileError(f"cannot read {path}: {exc.strerror}", f"无法读取 {path}：{exc.strerror}") from None
    if path.is_dir():
        raise LearnerFileError(f"{path} is a directory, not a Python file", f"{path} 是目录，不是 Python 文件")
    if size > MAX_FILE_BYTES:
        raise LearnerFileError(f"{path} is {size // 1000} kB; a solution file must be under {MAX_FILE_BYTES // 1000} kB",
                               f"{path} 有 {size // 1000} kB；答案文件必须小于 {MAX_FILE_BYTES // 1000} kB")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LearnerFileError(f"cannot read {path}: {exc.strerror}", f"无法读取 {path}：{exc.strerror}") from None
    if b"\x00" in data:
        raise LearnerFileError(f"{path} looks binary (it contains NUL bytes), not like Python source",
                               f"{path} 像是二进制文件（含 NUL 字节），不是 Python 源码")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LearnerFileError(f"{path} is not UTF-8 text (bad byte at offset {exc.start}); save it as UTF-8",
                               f"{path} 不是 UTF-8 文本（偏移 {exc.start} 处字节无效）；请以 UTF-8 保存") from None
