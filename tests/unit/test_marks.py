"""One rule for status marks: the CLI and the TUI show the same glyphs in the same terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.terminal.marks import ASCII, UNICODE, Glyphs, unicode_ok

ROOT = Path(__file__).resolve().parents[2]


def env_with(**values) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_CTYPE", "LANG", "PYTHONIOENCODING")}
    env.update(values, PYTHONPATH=str(ROOT))
    return env


def marks_seen_by_cli_and_ui(env: dict) -> tuple[str, str]:
    """The 'passed' mark as the CLI's printer and the TUI's Marks pick it, in a fresh process."""
    code = (
        "import sys; from tutor.terminal.render import RunPrinter; from rich.console import Console\n"
        "from tutor.ui.mark_styles import Marks\n"
        "cli = RunPrinter(Console(file=sys.stdout), 'en').marks['pass']\n"
        "print(ascii(cli), ascii(Marks()['pass']))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    cli, ui = out.split()
    return cli, ui


@pytest.mark.parametrize(
    "env, expected",
    [
        (dict(LANG="C"), ASCII["pass"]),  # Python still gives stdout UTF-8 here (PEP 538); the terminal was told C
        (dict(LANG="en_US.UTF-8"), UNICODE["pass"]),
        (dict(LANG="en_US.UTF-8", PYTHONIOENCODING="ascii"), ASCII["pass"]),  # the stream cannot carry it
    ],
)
def test_cli_and_ui_agree_on_the_marks(env, expected):
    pytest.importorskip("textual")
    cli, ui = marks_seen_by_cli_and_ui(env_with(**env))
    assert cli == ui == ascii(expected)


def test_the_locale_is_trusted_before_the_stream(monkeypatch):
    for var in ("LC_ALL", "LC_CTYPE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C")
    monkeypatch.setenv("LC_CTYPE", "C.UTF-8")  # what Python's C-locale coercion sets by itself

    class Utf8Stream:
        encoding = "utf-8"

    assert not unicode_ok(Utf8Stream()) and Glyphs(stream=Utf8Stream()).ascii
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_CTYPE")
    assert unicode_ok(Utf8Stream())


def test_ascii_marks_of_progress_are_told_apart_from_check_results():
    """In ASCII `list` prints a not-started lesson as "[ ]", an empty box: "-" is a skipped check."""
    from tutor.terminal.marks import ASCII

    assert ASCII["new"] == " "
    progress = {ASCII[s] for s in ("new", "started", "done")}
    assert len(progress) == 3 and ASCII["skipped"] not in progress
