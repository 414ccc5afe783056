"""Local JSON progress store: one file per home, locked updates, atomic writes, damage-tolerant reads."""

from __future__ import annotations

import errno
import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

from tutor import host
from tutor.errors import TutorError
from tutor.files.atomic import NotARegularFile, fsync_dir, read_regular, replace_atomically
from tutor.files.private import make_folder, open_private, tighten_home
from tutor.files.workspace import folder_problem
from tutor.i18n import Bilingual
from tutor.progress.reading import parse
from tutor.progress.records import SCHEMA, Progress, decode, encode

FILENAME = "progress.json"
LOCKNAME = "progress.lock"
# Far above any real progress file (a few KB); a bigger one is not read whole into memory.
MAX_PROGRESS_BYTES = 64 << 20
# The most the tutor writes, well under what it reads (an older tutor wrote indented files up to
# 3.5 times their compact size; those still read, and are written back compact).
MAX_WRITE_BYTES = 16 << 20
# Indented for a person who opens it, up to this size; larger files are written compact.
INDENT_BELOW_BYTES = 1 << 20
# Fixed temp name: only the lock holder writes it, so a writer killed mid-write leaves at most
# one stale temp file, which the next writer simply replaces.
TMPNAME = FILENAME + ".tmp"
# A tutor holds the lock for milliseconds; longer means a stuck process. Wait this long, saying
# so, then give up on saving rather than hang the command.
LOCK_WAIT_S = 10.0


class ProgressError(TutorError):
    """Progress could not be saved; the message says why, in plain words, in both languages.

    str(error) is the English text; `error.message` is a Bilingual for pick()."""

    def __init__(self, en: str, zh: str):
        super().__init__(Bilingual(en=en, zh=zh))


def utc_now() -> str:
    """Current UTC time as ISO-8601 with a trailing 'Z'."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class ProgressStore:
    """Progress kept in <home>/progress.json, safe against concurrent tutors, crashes and damaged files."""

    def __init__(self, home: Path, on_wait: Callable[[Bilingual], None] | None = None):
        """Remember where progress lives; nothing is touched on disk yet.

        `on_wait` is told (once per wait) when another process holds the lock, so a command
        that waits for it can say what it is waiting for."""
        self.home = Path(home)
        self.path = self.home / FILENAME
        self.lock_path = self.home / LOCKNAME
        self.warnings: list[Bilingual] = []  # pick(w, lang) for the learner's language
        self.on_wait = on_wait
        self._made_private = False
        self.private_note: Bilingual | None = None

    def make_private(self) -> Bilingual | None:
        """Once per store, before the home is first used: a home an older tutor (or a umask) left
        open to other users is made its owner's alone. Returns the one-line note that says so
        (the CLI prints it on stderr, the TUI shows it), None when nothing needed changing."""
        if not self._made_private:
            self._made_private = True
            self.private_note = tighten_home(self.home)
        return self.private_note

    # ---- public API -------------------------------------------------------------------------

    def load(self) -> Progress:
        """The progress as the file has it (repaired); never raises for missing or bad files.

        A sound file is read without the lock (writes are atomic renames, so a reader always
        sees a whole file): the UI must not wait while another writer fsyncs. Only a file
        that needs repair (or a warning) takes the locked path."""
        self.make_private()
        clean = self._read_clean()
        if clean is not None:
            return clean
        try:
            with self._locked():
                return self._read(repair=True)[0]
        except ProgressError:  # cannot lock (e.g. read-only home): read as-is, repair nothing
            return self._read(repair=False)[0]

    def update(self, fn: Callable[[Progress], Progress]) -> Progress:
        """Apply fn to the file's fresh progress under the lock, save atomically, return the new progress."""
        with self._locked():
            data, refusal = self._read(repair=True)
            if refusal:
                raise ProgressError(refusal.en, refusal.zh)
            data = fn(data)
            self._write(data)
            return data

    def apply(self, change: Callable[..., Progress], *args: object) -> Progress:
        """Apply one change (a tutor.progress.changes function) and save it at once."""
        return self.update(lambda data: change(data, *args))

    def reset(self) -> Path | None:
        """Move the progress file aside as progress.json.bak-<UTC stamp> and start empty; return the backup."""
        with self._locked():
            refusal = self._read(repair=True)[1]
            if refusal:
                raise ProgressError(refusal.en, refusal.zh)
            if not self.path.exists():
                return None
            try:
                backup = self._move_aside("bak")
            except OSError as exc:
                raise ProgressError(
                    f"Could not reset progress: cannot move {self.path} aside ({exc.strerror}).",
                    f"无法重置进度：不能把 {self.path} 移到一旁（{exc.strerror}）。",
                ) from None
            return backup

    # ---- internals --------------------------------------------------------------------------

    def _warn(self, message: Bilingual) -> None:
        """Add a warning once (repeated loads must not pile up copies)."""
        if message not in self.warnings:
            self.warnings.append(message)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold an exclusive flock on progress.lock; the kernel drops it if we are killed."""
        self.make_private()
        try:
            make_folder(self.home)
            # O_RDONLY is enough for flock and still works when the lock file exists in a read-only home.
            # O_NONBLOCK: a FIFO planted as progress.lock must not hang the tutor in open().
            fd = open_private(self.lock_path, os.O_RDONLY | os.O_NONBLOCK)
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise NotARegularFile(errno.EINVAL, f"{LOCKNAME} is not a regular file", str(self.lock_path))
        except OSError as exc:
            _refuse_a_file_for_home(self.home, self.path)
            _refuse_a_folder(self.lock_path, self.path)
            raise ProgressError(
                f"Cannot save progress to {self.path}: {self.home} is not usable ({exc.strerror or exc}).",
                f"无法把进度保存到 {self.path}：{self.home} 不可用（{exc.strerror or exc}）。",
            ) from None
        try:
            self._wait_for_lock(fd)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the lock

    def _wait_for_lock(self, fd: int) -> None:
        """Take the flock; if another process holds it, say who, and wait while the lock keeps
        changing hands (other tutors at work), but at most LOCK_WAIT_S for one holder (a stuck one)."""
        if host.try_lock(fd):
            return
        holder = host.lock_holder(fd)
        if self.on_wait is not None:
            who = _who(holder)
            self.on_wait(
                Bilingual(
                    en=f"waiting for {self.lock_path}: {who.en} holds it (at most {LOCK_WAIT_S:g} s)",
                    zh=f"正在等待 {self.lock_path}：{who.zh}占用着它（最多等 {LOCK_WAIT_S:g} 秒）",
                )
            )
        now = time.monotonic()
        deadline, next_look, pause = now + LOCK_WAIT_S, now + 0.25, 0.001
        while not host.try_lock(fd):
            now = time.monotonic()
            if now >= next_look:
                next_look = now + 0.25
                current = host.lock_holder(fd)
                if current != holder:  # it changed hands: nobody is stuck, keep waiting
                    holder, deadline = current, now + LOCK_WAIT_S
            if now > deadline:
                who = _who(holder)
                raise ProgressError(
                    f"Progress not saved: {who.en} has held {self.lock_path} for over {LOCK_WAIT_S:g} s. "
                    "If no other jaxstate-tutor is running, that process is stuck; ending it frees the lock.",
                    f"进度未保存：{who.zh}占用 {self.lock_path} 已超过 {LOCK_WAIT_S:g} 秒。"
                    "如果没有别的 jaxstate-tutor 在运行，说明那个进程卡住了；结束它即可释放锁。",
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def _read_clean(self) -> Progress | None:
        """The data if the file is absent or sound; None if it needs the careful path."""
        try:
            raw = read_regular(self.path, MAX_PROGRESS_BYTES)
        except FileNotFoundError:
            return Progress()
        except OSError:
            return None
        doc, repairs = parse(raw)
        if repairs:
            return None
        data, problems = decode(doc)
        return None if problems or data.schema > SCHEMA else data

    def _read(self, repair: bool) -> tuple[Progress, Bilingual | None]:
        """Return (data, reason writing must be refused or None); repair moves damaged files aside."""
        try:
            raw = read_regular(self.path, MAX_PROGRESS_BYTES)
        except FileNotFoundError:
            return Progress(), None
        except OSError as exc:
            # Unreadable is not the same as absent: writing now would destroy progress we cannot see.
            msg = Bilingual(
                en=f"Cannot read {self.path} ({exc.strerror}); progress will not be saved until it is readable.",
                zh=f"无法读取 {self.path}（{exc.strerror}）；在它可读之前，进度不会被保存。",
            )
            self._warn(msg)
            return Progress(), msg
        doc, repairs = parse(raw)
        data, problems = decode(doc)
        problems[:0] = repairs
        if data.schema > SCHEMA:
            # Newer tutor's file: show what we understand, but never write over it.
            msg = Bilingual(
                en=f"{self.path} was written by a newer version of the tutor (schema {data.schema}, "
                f"this version understands {SCHEMA}); upgrade the tutor to save progress.",
                zh=f"{self.path} 由更新版本的 tutor 写入（schema {data.schema}，本版本只认识 {SCHEMA}）；"
                "升级 tutor 后才能保存进度。",
            )
            self._warn(msg)
            return data, msg
        if not problems:
            return data, None
        more = "; ..." if len(problems) > 5 else ""
        what = "; ".join(p.en for p in problems[:5]) + more
        what_zh = "；".join(p.zh for p in problems[:5]) + more
        if not repair:
            msg = Bilingual(
                en=f"{self.path} is damaged ({what}); showing what could be recovered, nothing will be saved.",
                zh=f"{self.path} 已损坏（{what_zh}）；显示能恢复的部分，不会保存任何内容。",
            )
            self._warn(msg)
            return data, msg
        try:
            salvage = _encode(data, self.path)
        except ProgressError as exc:  # the salvage could not be written back: keep the file where it is
            msg = Bilingual(
                en=f"{self.path} is damaged ({what}). {exc.message.en}",
                zh=f"{self.path} 已损坏（{what_zh}）。{exc.message.zh}",
            )
            self._warn(msg)
            return data, msg
        try:
            backup = self._move_aside("corrupt")
        except OSError as exc:
            msg = Bilingual(
                en=f"{self.path} is damaged ({what}) and could not be moved aside ({exc.strerror}); "
                "nothing will be saved.",
                zh=f"{self.path} 已损坏（{what_zh}），且无法移到一旁（{exc.strerror}）；不会保存任何内容。",
            )
            self._warn(msg)
            return data, msg
        self._warn(
            Bilingual(
                en=f"{self.path} was damaged ({what}); the original was kept as {backup} "
                "and the progress that could be recovered is used.",
                zh=f"{self.path} 已损坏（{what_zh}）；原文件保存为 {backup}，现在使用能恢复的进度。",
            )
        )
        # Put the salvaged data back so the next update builds on it instead of on nothing.
        with suppress(ProgressError):
            self._write(data, salvage)
        return data, None

    def _move_aside(self, kind: str) -> Path:
        """Rename the progress file to progress.json.<kind>-<UTC stamp>[-n]; never overwrites a backup."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = self.home / f"{FILENAME}.{kind}-{stamp}"
        n = 1
        while target.exists():  # safe: only the lock holder creates backups
            n += 1
            target = self.home / f"{FILENAME}.{kind}-{stamp}-{n}"
        os.replace(self.path, target)
        fsync_dir(self.home)
        return target

    def _write(self, data: Progress, encoded: bytes | None = None) -> None:
        """Atomically replace the progress file: temp file, fsync, rename, fsync dir. Caller holds the lock."""
        encoded = _encode(data, self.path) if encoded is None else encoded
        tmp = self.home / TMPNAME
        # Respect a file the user made read-only; check the mode bits too because root ignores them.
        if self.path.exists() and (not os.access(self.path, os.W_OK) or not self.path.stat().st_mode & 0o222):
            raise ProgressError(
                f"Could not save progress to {self.path}: the file is read-only.",
                f"无法把进度保存到 {self.path}：文件是只读的。",
            )
        try:
            replace_atomically(self.path, encoded, tmp)
        except OSError as exc:
            _refuse_a_folder(tmp, self.path)
            raise ProgressError(
                f"Could not save progress to {self.path}: {exc.strerror or exc}.",
                f"无法把进度保存到 {self.path}：{exc.strerror or exc}。",
            ) from None


def _refuse_a_file_for_home(home: Path, progress: Path) -> None:
    """ProgressError naming the part of the home's path that is a file or a link to nothing (the
    OS said only "File exists" or "Not a directory")."""
    problem = folder_problem(home)
    if problem is not None:
        raise ProgressError(
            f"Cannot save progress to {progress}: {problem.en}.", f"无法把进度保存到 {progress}：{problem.zh}。"
        )


def _refuse_a_folder(path: Path, progress: Path) -> None:
    """ProgressError naming `path` where it is a folder (the lock or the temporary file the tutor
    writes beside progress.json): the OS's "Is a directory" named neither, and blamed the home."""
    if path.is_dir() and not path.is_symlink():
        raise ProgressError(
            f"Could not save progress to {progress}: {path} is a folder, where the tutor keeps a file of its own. "
            "Move that folder away, then try again.",
            f"无法把进度保存到 {progress}：{path} 是一个文件夹，而导师要在那里放自己的文件。请把这个文件夹移走，然后重试。",
        )


def _encode(progress: Progress, path: Path) -> bytes:
    """The file's bytes: indented while small, compact when large, and never more than a tutor
    reads back (ProgressError: the file on disk is then left as it is)."""
    data = encode(progress)
    text = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if len(text) > INDENT_BELOW_BYTES:
        text = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"
    encoded = text.encode("utf-8")
    if len(encoded) > MAX_WRITE_BYTES:
        size, most = len(encoded) >> 20, MAX_WRITE_BYTES >> 20
        raise ProgressError(
            f"Progress not saved: it would take {size} MiB, more than the {most} MiB the tutor writes, "
            f"so {path} is left as it is. The tutor's own progress is a few KB: the rest was added by "
            "another program.",
            f"进度未保存：它需要 {size} MiB，超过 tutor 写入的上限 {most} MiB，因此 {path} 保持原样。"
            "tutor 自己的进度只有几 KB：其余的是别的程序加进去的。",
        )
    return encoded


def _who(holder: str | None) -> Bilingual:
    """Who holds the lock, as a sentence's subject."""
    return (
        Bilingual(en=f"process {holder}", zh=f"进程 {holder} ")
        if holder
        else Bilingual(en="another process", zh="另一个进程")
    )
