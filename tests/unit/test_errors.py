"""One error base (issue 54, step 6): every error of the tutor's own is a TutorError with its
message in both languages and its exit code, and the command line has one handler for them."""

from __future__ import annotations

import pytest

from tutor.cli.context import UsageError
from tutor.cli.main import main
from tutor.course.loader import CourseError, Problem
from tutor.doctor.options import OptionsError
from tutor.errors import TutorError
from tutor.i18n import Bilingual
from tutor.progress.store import ProgressError


def test_each_error_carries_both_languages_and_its_exit_code():
    assert ProgressError("cannot save", "无法保存").message == Bilingual(en="cannot save", zh="无法保存")
    assert ProgressError("cannot save", "无法保存").exit_code == 1 and str(ProgressError("a", "b")) == "a"
    assert UsageError("unknown exercise 'x'").exit_code == 2
    assert OptionsError(Bilingual(en="bad", zh="不对")).exit_code == 2
    assert CourseError([Problem("lessons/a.yaml", 3, "bad")]).exit_code == 2
    for error in (ProgressError("a", "b"), UsageError("a"), CourseError([])):
        assert isinstance(error, TutorError)


@pytest.mark.parametrize("lang, said", [("en", "the disk is full"), ("zh", "磁盘已满")])
def test_the_command_line_says_any_tutor_error_in_its_language_with_its_code(tmp_path, monkeypatch, capsys, lang, said):
    """An error no command caught ended the command with a traceback; the one handler says it."""

    def full(ctx):
        raise ProgressError("the disk is full", "磁盘已满")

    monkeypatch.setattr("tutor.cli.status.cmd_list", full)
    assert main(["--home", str(tmp_path), "--lang", lang, "list"]) == 1
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
