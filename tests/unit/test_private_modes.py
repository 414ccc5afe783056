"""tutor.files.private, the one owner of a home's modes: exact whatever the umask, never following a
link when closing an old home, leaving what is not the tutor's alone, and a no-op where the host
has no POSIX modes (Windows, simulated)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tutor.files import private
from tutor.files.atomic import replace_atomically
from tutor.files.private import make_folder, tighten_home


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o277])
def test_folders_and_files_are_exactly_private_whatever_the_umask(tmp_path, umask):
    before = os.umask(umask)
    try:
        make_folder(tmp_path / "a" / "b")
        replace_atomically(tmp_path / "a" / "b" / "f", b"x", tmp_path / "a" / "b" / ".f.tmp")
    finally:
        os.umask(before)
    assert (mode(tmp_path / "a"), mode(tmp_path / "a" / "b"), mode(tmp_path / "a" / "b" / "f")) == (0o700, 0o700, 0o600)


def test_closing_an_old_home_follows_no_link_and_leaves_what_is_not_the_tutors(tmp_path):
    home, outside = tmp_path / "home", tmp_path / "outside.txt"
    (home / "workspace").mkdir(parents=True)
    outside.write_text("the user's")
    outside.chmod(0o644)
    (home / "workspace" / "link.py").symlink_to(outside)
    (home / "workspace" / "ro.py").write_text("x")
    (home / "workspace" / "ro.py").chmod(0o444)
    (home / "mine.txt").write_text("x")
    for path in (home, home / "workspace", home / "mine.txt"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    note = tighten_home(home)
    assert note is not None and "3 changed" in note.en and "改了 3 项" in note.zh
    assert mode(outside) == 0o644 and mode(home / "mine.txt") == 0o644  # not the tutor's to change
    assert mode(home / "workspace" / "ro.py") == 0o400  # read-only stays read-only
    assert tighten_home(home) is None  # said once


def test_a_host_without_posix_modes_writes_and_says_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(private, "_POSIX_MODES", False)
    monkeypatch.delattr(os, "fchmod")  # as on Windows
    make_folder(tmp_path / "home" / "workspace")
    replace_atomically(tmp_path / "home" / "progress.json", b"{}", tmp_path / "home" / "progress.json.tmp")
    assert (tmp_path / "home" / "progress.json").read_bytes() == b"{}"
    (tmp_path / "home").chmod(0o755)
    assert tighten_home(tmp_path / "home") is None


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_a_served_upload_keeps_the_old_file_in_a_private_folder(tmp_path, umask):
    """serve's upload (tutor.serve.files.replace) keeps the file it replaces in workspace/.backup/:
    that folder was made 0755 under a umask of 022 (issue 50's third red team, on e7a425f)."""
    from tutor.serve.files import replace

    make_folder(tmp_path / "workspace")
    (tmp_path / "workspace" / "counter-jit.py").write_text("x = 1\n")
    (tmp_path / "workspace" / "counter-jit.py").chmod(0o600)
    before = os.umask(umask)
    try:
        kept = replace(tmp_path, "counter-jit.py", b"x = 2\n")
    finally:
        os.umask(before)
    assert (mode(kept.parent), mode(kept)) == (0o700, 0o600)
    assert (tmp_path / "workspace" / "counter-jit.py").read_text() == "x = 2\n"
