"""The learner's file as an editor holds it (tutor.files.edited_file), on real files: opening, saving
all or nothing, outside edits, reload after another editor, rescue, put back, reset."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from types import SimpleNamespace

from tutor.files.edited_file import EditedFile, OutsideEdit
from tutor.files.workspace import Workspace
from tutor.i18n import Bilingual

STARTER = "def f(x):\n    return x  # TODO\n"


def exercise(id_: str = "demo"):
    return SimpleNamespace(id=id_, starter=STARTER)


def written_by_another_program(path: Path, text: str) -> None:
    """An outside edit the stamp must see: a new size as well as a new mtime, on any filesystem."""
    path.write_text(text, encoding="utf-8")


def test_opening_creates_the_file_from_the_starter_and_reads_it_back(tmp_path):
    ws = Workspace(tmp_path)
    edited = EditedFile.open(ws, exercise())
    assert edited.path == ws.path("demo") and edited.path.read_text() == STARTER
    assert edited.saved_text == STARTER and edited.load_problem is None
    edited.path.write_text("mine = 1\n")
    assert EditedFile.open(ws, exercise()).saved_text == "mine = 1\n"  # an existing file is never replaced


def test_an_unreadable_file_opens_empty_with_the_reason_in_both_languages_and_is_never_overwritten(tmp_path):
    ws = Workspace(tmp_path)
    ws.dir.mkdir()
    ws.path("demo").write_bytes(b"x = '\xff'\n")
    edited = EditedFile.open(ws, exercise())
    assert edited.saved_text == ""
    assert isinstance(edited.load_problem, Bilingual) and "UTF-8" in edited.load_problem.en
    assert edited.load_problem.zh != edited.load_problem.en
    assert edited.save("")  # leaving with the empty editor writes nothing
    assert ws.path("demo").read_bytes() == b"x = '\xff'\n"


def test_a_home_that_cannot_hold_the_file_opens_the_starter_and_saving_says_why(tmp_path):
    home = tmp_path / "home"
    home.write_text("a file where the home should be")  # ENOTDIR, even as root
    edited = EditedFile.open(Workspace(home), exercise())
    assert edited.saved_text == STARTER and edited.load_problem is not None
    assert "is --home a file?" in edited.load_problem.en
    assert not edited.save(STARTER + "# typed\n")
    assert isinstance(edited.save_problem, Bilingual) and str(edited.path.parent) in edited.save_problem.en
    assert edited.saved_text == STARTER  # what was typed is not taken for saved


def test_saving_writes_only_a_change_and_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "demo.py"
    path.write_text("a = 1\n")
    edited = EditedFile(path, "a = 1\n")
    os.utime(path, ns=(1, 1))
    assert edited.save("a = 1\n") and path.stat().st_mtime_ns == 1  # unchanged text: not written
    assert edited.save("a = 2\n") and path.read_text() == "a = 2\n" and edited.saved_text == "a = 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.py"]
    assert edited.poll() is None  # our own save is not news
    path.unlink()
    edited.poll()
    assert edited.save("a = 2\n") and path.read_text() == "a = 2\n"  # the same text, but the file was gone


def test_a_full_disk_leaves_the_old_file_whole(tmp_path, tmpfs, fill):
    with tmpfs(tmp_path / "home", size_kb=64) as home:
        path = home / "demo.py"
        old = "x = 1\n" * 100
        path.write_text(old)
        edited = EditedFile(path, old)
        fill(home)
        assert not edited.save("y = 2\n" * 5000)
        assert "No space left" in edited.save_problem.en and "磁盘上的文件没有改动" in edited.save_problem.zh
        assert path.read_text() == old and edited.saved_text == old


def test_outside_edits_reload_a_clean_editor_and_keep_unsaved_typing(tmp_path):
    path = tmp_path / "demo.py"
    path.write_text("a = 1\n")
    edited = EditedFile(path, "a = 1\n")
    assert edited.outside_edit("a = 1\n") is None

    written_by_another_program(path, "a = 22\n")
    assert edited.outside_edit("a = 1\n") == OutsideEdit("reloaded", "a = 22\n")
    assert edited.saved_text == "a = 22\n" and edited.outside_edit("a = 22\n") is None

    written_by_another_program(path, "a = 333\n")
    assert edited.outside_edit("a = 22  # typed\n") == OutsideEdit("kept")
    assert edited.saved_text == "a = 22\n"  # so the typing still counts as unsaved, and F5 writes it over
    assert edited.save("a = 22  # typed\n") and path.read_text() == "a = 22  # typed\n"

    written_by_another_program(path, "a = 22  # typed\n")  # rewritten with the same text: nothing to do
    assert edited.outside_edit("a = 22  # typed\n") is None

    path.unlink()
    assert edited.outside_edit("a = 22  # typed\n") == OutsideEdit("deleted")
    assert edited.outside_edit("a = 22  # typed\n") is None  # said once


def test_a_file_unreadable_for_a_moment_is_not_reloaded(tmp_path):
    path = tmp_path / "demo.py"
    path.write_text("a = 1\n")
    edited = EditedFile(path, "a = 1\n")
    path.write_bytes(b"a = '\xff\xfe'\n")  # mid-write, or broken: the next check says what is wrong
    assert edited.outside_edit("a = 1\n") is None and edited.saved_text == "a = 1\n"


def test_reload_after_another_editor_returns_only_a_change(tmp_path):
    path = tmp_path / "demo.py"
    path.write_text("a = 1\n")
    edited = EditedFile(path, "a = 1\n")
    assert edited.reload() is None
    written_by_another_program(path, "a = 2\n")
    assert edited.reload() == "a = 2\n" and edited.saved_text == "a = 2\n"
    assert edited.poll() is None  # what the editor wrote is not news for the poll after it


def test_read_says_why_and_forgets_the_reason_once_readable(tmp_path):
    path = tmp_path / "demo.py"
    edited = EditedFile(path)
    assert edited.read() is None and "file not found" in edited.load_problem.en
    path.write_text("ok = True\n")
    assert edited.read() == "ok = True\n" and edited.load_problem is None


def test_rescue_keeps_the_text_in_the_home_else_in_a_private_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    edited = EditedFile(tmp_path / "home" / "workspace" / "counter-jit.py")  # the home is gone
    where = edited.rescue("typed = 'kept'\n")
    assert where.parent.parent == tmp_path / "tmp" and where.parent.name.startswith("jaxstate-tutor-unsaved-")
    assert where.name.startswith("counter-jit-") and where.read_text() == "typed = 'kept'\n"
    assert oct(where.stat().st_mode & 0o777) == "0o600" and oct(where.parent.stat().st_mode & 0o777) == "0o700"
    again = edited.rescue("typed = 'again'\n")
    assert again.parent != where.parent  # a new private folder each time: never a name known in advance

    (tmp_path / "home").mkdir()
    in_home = edited.rescue("typed = 'home'\n")
    assert in_home.parent == tmp_path / "home" / "unsaved" and in_home.read_text() == "typed = 'home'\n"
    twice = edited.rescue("typed = 'home, twice'\n")  # in the same second: its own name, the first kept
    assert twice != in_home and in_home.read_text() == "typed = 'home'\n"


def test_put_back_writes_the_checked_text_and_is_not_news(tmp_path):
    path = tmp_path / "demo.py"
    edited = EditedFile(path, seen_now=False)
    path.write_text("checked = 1\n")
    assert edited.poll() == "changed"  # never seen: the first poll reports it
    checked = edited.read()
    path.unlink()
    assert edited.poll() == "deleted"
    assert edited.put_back(checked) is None and path.read_text() == "checked = 1\n"
    assert edited.poll() is None  # writing it back does not trigger another check
    path.unlink()
    edited.poll()
    assert edited.put_back(None) == "-" and not path.exists()  # nothing readable was ever checked


def test_put_back_that_fails_says_why(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    edited = EditedFile(blocker / "demo.py")
    why = edited.put_back("x = 1\n")
    assert isinstance(why, Bilingual) and f"cannot write {edited.path}" in why.en and "无法写入" in why.zh
    assert edited.poll() is None


def test_reset_keeps_a_backup_and_loads_the_starter(tmp_path):
    ws = Workspace(tmp_path)
    edited = EditedFile.open(ws, exercise())
    edited.save("mine = 1\n")
    backup, text = edited.reset(ws, exercise())
    assert text == STARTER and edited.saved_text == STARTER and edited.path.read_text() == STARTER
    assert backup is not None and backup.read_text() == "mine = 1\n"
    assert edited.poll() is None
