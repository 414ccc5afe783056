"""The learner's file as an editor holds it: read, saved atomically, watched for outside edits,
rescued when it cannot be saved. The rules the TUI's exercise screen and `jaxstate-tutor watch`
share; the text being typed stays with the editor, which hands it in. No Textual, no JAX.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tutor.files.atomic import read_regular, replace_atomically
from tutor.files.outside_edits import CHANGED, DELETED, FileWatch
from tutor.files.private import make_folder
from tutor.files.rescue import rescue_copy
from tutor.files.workspace import (
    HasStarter,
    LearnerFileError,
    Workspace,
    read_learner_file,
    write_atomically,
    write_error,
)
from tutor.i18n import Bilingual


@dataclass(frozen=True)
class OutsideEdit:
    """What another program did to the file since we last looked."""

    kind: Literal["deleted", "reloaded", "kept"]  # kept: changed, but the editor has unsaved typing
    text: str = ""  # reloaded: the file's new text, now the saved text
    # reloaded: where the text it replaced is kept (the view that saved over it kept a copy), if anywhere
    replaced_kept: Path | None = None
    # reloaded: another view saved this text to check it, so checking it here would count it twice
    checked_elsewhere: bool = False


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _holds(path: Path, text: str) -> bool:
    try:
        return read_learner_file(path) == text
    except LearnerFileError:
        return False


class EditedFile:
    """One exercise's workspace file and the text last read from or written to it."""

    def __init__(self, path: Path, text: str = "", load_problem: Bilingual | None = None, seen_now: bool = True):
        """`seen_now=False`: the file counts as never seen, so the first `poll()` reports it as changed."""
        self.path = Path(path)
        self.saved_text = text  # the file's text as we last loaded or saved it
        self.load_problem = load_problem  # why the file could not be read, in both languages
        self.save_problem: Bilingual | None = None  # why the last save failed (the editor keeps the text)
        # Where the last save kept the newer version it wrote over (saved by another view meanwhile).
        self.kept_other: Path | None = None
        self._watch = FileWatch(self.path, seen_now)
        self._view = secrets.token_hex(6)  # names this view in its claims (two views may share a process)

    @classmethod
    def open(cls, workspace: Workspace, exercise: HasStarter) -> EditedFile:
        """The exercise's file, created from the starter if missing. A file that cannot be read
        opens empty (so leaving never overwrites it); a home that cannot hold it opens with the
        starter (saving it will say why it cannot be written). Either way load_problem says why."""
        try:
            path = workspace.ensure(exercise)
        except LearnerFileError as exc:  # e.g. a read-only home
            return cls(workspace.path(exercise.id), exercise.starter, exc.message)
        edited = cls(path)
        edited.saved_text = edited.read() or ""
        return edited

    # ---- reading -------------------------------------------------------------------------

    def read(self) -> str | None:
        """The file's text as it is now (what a check judges), or None with the reason in load_problem."""
        try:
            text = read_learner_file(self.path)
        except LearnerFileError as exc:
            self.load_problem = exc.message
            return None
        self.load_problem = None
        return text

    def loaded(self, text: str) -> None:
        """The editor now shows `text`, as the file has it: not unsaved, and not news when polled."""
        self.saved_text = text
        self._watch.seen()

    def reload(self) -> str | None:
        """After another editor had the file (F9): its text if it differs from the saved one, else None."""
        text = self.read()
        self._watch.seen()
        if text is None or text == self.saved_text:
            return None
        self.saved_text = text
        return text

    # ---- saving --------------------------------------------------------------------------

    def save(self, text: str | None) -> bool:
        """Write the editor's `text` if it differs from the file's (or the file is gone), all or
        nothing: a full disk leaves the old file whole. False, with save_problem, if that failed.

        A file that another view (a second TUI, another editor) saved since we last read it is
        never lost: its version is kept under workspace/.backup/ first (kept_other says where),
        and if that cannot be done the file is not written."""
        if text is None or (text == self.saved_text and self.path.exists()):
            return True
        self.kept_other = None
        try:
            try:
                make_folder(self.path.parent)
            except OSError as exc:
                raise write_error(self.path, exc) from None
            self.kept_other = self._keep_newer_version(text)
            write_atomically(self.path, text)
        except LearnerFileError as exc:
            self.save_problem = exc.message
            return False
        self.save_problem = None
        self.loaded(text)
        return True

    def _keep_newer_version(self, text: str) -> Path | None:
        """Before `text` replaces the file: if the file now holds a version we never loaded (saved
        by another view since), keep it and return where. Raises LearnerFileError if it cannot be kept."""
        try:
            on_disk = read_learner_file(self.path)
        except LearnerFileError:
            return None  # gone or unreadable: no text of anyone's to keep (load_problem says why)
        if on_disk in (self.saved_text, text):
            return None
        return self.keep_replaced(on_disk)

    def _replaced_path(self, text: str) -> Path:
        # Named by the text's hash, so that the view whose text it was finds the copy (and says
        # where), and two views keeping the same text make one file.
        return self.path.parent / ".backup" / f"{self.path.stem}-replaced-{_digest(text)[:16]}.py"

    def keep_replaced(self, text: str) -> Path:
        """Keep `text`, a version of the file about to be written over, under workspace/.backup/;
        returns the copy. Raises LearnerFileError if it cannot be written."""
        path = self._replaced_path(text)
        if not _holds(path, text):
            try:
                make_folder(path.parent)
            except OSError as exc:
                raise write_error(path, exc) from None
            write_atomically(path, text)
        return path

    def rescue(self, text: str) -> Path:
        """Keep text that could not be saved: in <home>/unsaved/, else in a private temporary
        folder; returns the copy, or raises LearnerFileError if that fails too."""
        return rescue_copy(self.path.parent.parent, self.path.stem, text)  # <home>/workspace/<exercise-id>.py

    # ---- one check per version ---------------------------------------------------------------

    def _claim_path(self) -> Path:
        return self.path.parent / ".last-checked" / f"{self.path.stem}.sha256"

    def checking(self, text: str) -> None:
        """`text` is about to be saved and checked here; said before it is saved, so that another
        view that sees the file become this text takes it as checked and does not check it again
        (every check is one attempt). Best effort: without it, the other view checks once more."""
        claim = self._claim_path()
        with suppress(OSError):
            make_folder(claim.parent)
            mine = f"{_digest(text)} {self._view}".encode()  # which text, and which view said so
            # Not synced: the claim matters only while this tutor runs, and it is written on the
            # event loop as F5 is pressed (its two fsyncs were the first stall of a check).
            replace_atomically(claim, mine, claim.with_name(f".{claim.name}.{os.getpid()}.tmp"), durable=False)

    def checked_elsewhere(self, text: str) -> bool:
        """Another view said it is checking exactly `text` (see checking)."""
        try:
            said = read_regular(self._claim_path(), 128).split()
        except OSError:
            return False
        return len(said) == 2 and said[0] == _digest(text).encode() and said[1] != self._view.encode()

    def put_back(self, text: str | None) -> Bilingual | str | None:
        """Write `text` (what was last checked) back to a deleted file: None if done, else why not
        ("-": there was no text to write). Writing it back is not news for `poll()`, so that a
        program deleting its own file does not loop."""
        try:
            if text is None:
                return "-"
            return None if self.save(text) else self.save_problem
        finally:
            self._watch.seen()

    # ---- outside edits -------------------------------------------------------------------

    def poll(self) -> str | None:
        """tutor.files.outside_edits's CHANGED or DELETED since we last looked, or None."""
        return self._watch.poll()

    def outside_edit(self, editor_text: str | None) -> OutsideEdit | None:
        """What another program did to the file, given what the editor holds: deleted (the editor
        still has the text), reloaded (the editor had nothing unsaved: with where the view that
        wrote over it kept the old text, and whether that view is checking the new one) or kept (it
        had). None when nothing changed, or the file is unreadable for now (mid-write: the next
        check will say)."""
        news = self.poll()
        if news is None:
            return None
        if news == DELETED:
            return OutsideEdit("deleted")
        assert news == CHANGED
        try:
            text = read_learner_file(self.path)
        except LearnerFileError:
            return None
        if text == self.saved_text:
            return None
        if editor_text != self.saved_text:
            return OutsideEdit("kept")
        old = self.saved_text
        self.loaded(text)
        replaced = self._replaced_path(old)
        return OutsideEdit("reloaded", text, replaced if _holds(replaced, old) else None, self.checked_elsewhere(text))

    def reset(self, workspace: Workspace, exercise: HasStarter) -> tuple[Path | None, str]:
        """Put the starter back (the old file kept under workspace/.backup/): (the backup, the
        new text). Raises LearnerFileError, and then the old file is still in place."""
        backup = workspace.reset(exercise)
        text = self.read() or ""
        self.loaded(text)
        return backup, text
