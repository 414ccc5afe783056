"""One owner of the settings (issue 54, step 5): tutor.settings resolves each from its flag, else
its JAXSTATE_TUTOR_* variable, else its default, and the command line passes them down: `--course`
reaches the course, the TUI and each worker without writing the process's environment."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import pytest

from tutor.cli.main import main
from tutor.paths import shipped_course_root
from tutor.sandbox.worker_process import worker_env
from tutor.settings import (
    ACCELERATOR_VAR,
    COURSE_VAR,
    EXCHANGE_VAR,
    HOME_VAR,
    LANG_VAR,
    UnknownUserHome,
    resolve,
)

ROOT = Path(__file__).resolve().parents[2]


def flags(**given) -> argparse.Namespace:
    return argparse.Namespace(**given)


def test_a_flag_wins_over_its_variable_which_wins_over_the_default(tmp_path):
    env = {
        HOME_VAR: str(tmp_path / "env-home"),
        COURSE_VAR: str(tmp_path / "env-course"),
        LANG_VAR: "zh",
        ACCELERATOR_VAR: "1",
        EXCHANGE_VAR: str(tmp_path / "env-exchange"),
    }
    given = flags(home=tmp_path / "h", course=tmp_path / "c", lang="en", accelerator=True, exchange=tmp_path / "x")
    s = resolve(given, env)
    assert (s.home, s.course, s.lang, s.exchange) == (tmp_path / "h", tmp_path / "c", "en", tmp_path / "x")
    s = resolve(flags(), env)
    assert (s.home, s.course, s.lang, s.accelerator) == (tmp_path / "env-home", tmp_path / "env-course", "zh", True)
    assert s.exchange == tmp_path / "env-exchange" and s.lang_said
    s = resolve(flags(), {"LANG": "C"})
    assert s.course == shipped_course_root() and s.lang == "en" and not s.accelerator and s.exchange is None
    assert not s.lang_said and s.fork_server and s.serve_token is None


def test_a_home_of_an_unknown_user_names_who_said_it():
    with pytest.raises(UnknownUserHome) as said:
        resolve(flags(), {HOME_VAR: "~no-such-user-here/x"})
    assert said.value.where == f"{HOME_VAR}=~no-such-user-here/x"


def test_the_worker_is_told_the_course_its_sandbox_was_given(tmp_path, monkeypatch):
    monkeypatch.setenv(COURSE_VAR, str(ROOT))
    assert worker_env(False, tmp_path)[COURSE_VAR] == str(tmp_path)
    assert worker_env(False)[COURSE_VAR] == str(ROOT)  # none given: what this process's environment says


def test_course_flag_leaves_the_environment_alone_while_the_command_runs(tmp_path, monkeypatch, capsys):
    """--course was passed down by writing os.environ (and putting it back after): now the
    command's settings carry it, and the environment never holds it."""
    mine = tmp_path / "mine"
    assert main(["new-course", str(mine)]) == 0
    monkeypatch.delenv(COURSE_VAR, raising=False)
    seen = []
    import tutor.cli.status as status

    real = status.cmd_list

    def spy(ctx):
        seen.append(os.environ.get(COURSE_VAR))
        return real(ctx)

    monkeypatch.setattr(status, "cmd_list", spy)
    capsys.readouterr()
    assert main(["--home", str(tmp_path / "home"), "--course", str(mine), "list", "--json"]) == 0
    assert seen == [None]
    assert [e["id"] for e in json.loads(capsys.readouterr().out)["exercises"]] == ["double"]


def test_a_served_tab_is_told_the_servers_course(tmp_path):
    """`serve --course DIR` passed its course to each tab by the environment it had written; the
    tab's command line says it now."""
    pytest.importorskip("textual_serve")
    from tutor.serve.seats import Seat
    from tutor.serve.server import TutorServer

    seat = Seat("", "t" * 32, tmp_path / "home")
    words = TutorServer([seat], "en", course=tmp_path / "course").command(seat, "en")
    assert f"--course {tmp_path / 'course'}" in words
    assert "--course" not in TutorServer([seat], "en").command(seat, "en")
