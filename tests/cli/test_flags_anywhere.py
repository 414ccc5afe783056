"""The tutor's options where learners type them (issue 37, part 3): `--accelerator`, `--home DIR`
and `--lang zh|en` before or after the command; for `doctor`, anywhere before `--` (after the
script too), and everything after `--` is the script's.

Real argv through tutor.cli.main (its argparse, then doctor's one parser), read back as the Context
every command gets and as the DoctorOptions the doctor's job is built from. No worker, no JAX,
except the one test marked slow.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.cli.doctor import options_of
from tutor.cli.main import Context, parse_args
from tutor.doctor import options
from tutor.settings import ACCELERATOR_VAR

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_accelerator_variable(monkeypatch):
    monkeypatch.delenv(ACCELERATOR_VAR, raising=False)


def ctx(*argv: str) -> Context:
    return Context(parse_args(list(argv)))


def doctor(*argv: str) -> tuple[Context, options.DoctorOptions]:
    """The Context and the run `jaxstate-tutor *argv` (a doctor command) asks for."""
    args = parse_args(list(argv))
    assert args.command == "doctor"
    return Context(args), options_of(args)


# ---- every command but doctor -------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["--accelerator", "verify"], ["verify", "--accelerator"], ["verify", "--json", "--accelerator"]],
    ids=["before", "after", "after-an-option"],
)
def test_accelerator_before_or_after_the_command(argv):
    assert ctx(*argv).accelerator
    assert not ctx(*[w for w in argv if w != "--accelerator"]).accelerator


@pytest.mark.parametrize("command", [["list"], ["check", "counter-jit"], ["watch", "counter-jit"], ["progress"]])
def test_every_command_takes_the_three_after_it(tmp_path, command):
    after = ctx(*command, "--home", str(tmp_path), "--lang", "zh", "--accelerator")
    before = ctx("--home", str(tmp_path), "--lang", "zh", "--accelerator", *command)
    for c in (after, before):
        assert (c.home, c.lang, c.accelerator) == (tmp_path, "zh", True)


def test_the_issues_examples(tmp_path):
    c = ctx("check", "counter-jit", "--home", str(tmp_path), "--lang", "en")
    assert (c.args.command, c.args.id, c.home, c.lang, c.accelerator) == ("check", "counter-jit", tmp_path, "en", False)
    c = ctx("--home", str(tmp_path), "list")
    assert (c.args.command, c.home) == ("list", tmp_path)


def test_written_after_the_command_wins_over_before(tmp_path):
    c = ctx("--home", str(tmp_path / "a"), "--lang", "zh", "list", "--home", str(tmp_path / "b"), "--lang", "en")
    assert (c.home, c.lang) == (tmp_path / "b", "en")


def test_the_variable_still_asks_for_the_accelerator(monkeypatch):
    monkeypatch.setenv(ACCELERATOR_VAR, "1")
    assert ctx("verify").accelerator and ctx("list").accelerator
    assert doctor("doctor", "train.py")[0].accelerator
    monkeypatch.setenv(ACCELERATOR_VAR, "0")
    assert not ctx("verify").accelerator


def test_no_mouse_stays_the_tuis_before_any_command():
    assert ctx("--no-mouse").args.no_mouse and not ctx().args.no_mouse
    assert ctx("--no-mouse", "--accelerator").accelerator  # the TUI's sandbox is asked too
    assert ctx("--accelerator").args.command is None


def test_help_says_where_the_options_go(capsys):
    said = {}
    for argv in (["--help"], ["doctor", "--help"]):
        with pytest.raises(SystemExit):
            parse_args(argv)
        said[argv[0]] = " ".join(capsys.readouterr().out.split())
        assert "--accelerator" in said[argv[0]] and "--home DIR" in said[argv[0]]
    assert "may stand before or after COMMAND" in said["--help"]
    assert "anywhere before `--`" in said["doctor"] and "doctor train.py -- --lang fr" in said["doctor"]


# ---- doctor --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--accelerator", "doctor", "train.py", "--epochs", "3"],
        ["doctor", "--accelerator", "train.py", "--epochs", "3"],
        ["doctor", "train.py", "--accelerator", "--epochs", "3"],  # right after the script
        ["doctor", "train.py", "--epochs", "3", "--accelerator"],  # the issue's: no longer the script's
        ["doctor", "train.py", "--epochs", "--accelerator", "3"],
        ["doctor", "train.py", "--epochs", "3", "--accelerator", "--", "--x"],
    ],
    ids=["before-doctor", "before-the-script", "after-the-script", "last", "among-the-args", "before-a-double-dash"],
)
def test_doctor_accelerator_anywhere_before_the_double_dash_is_the_tutors(argv):
    c, asked = doctor(*argv)
    assert c.accelerator
    assert asked.script.name == "train.py"
    assert asked.args == (("--epochs", "3", "--x") if "--" in argv else ("--epochs", "3"))


def test_doctor_home_and_lang_after_the_script_are_the_tutors(tmp_path):
    c, asked = doctor("doctor", "train.py", "--home", str(tmp_path), "--epochs", "3", "--lang", "zh", "--lr", "1")
    assert (c.home, c.lang, c.accelerator) == (tmp_path, "zh", False)
    assert asked.args == ("--epochs", "3", "--lr", "1") and asked.lang == "zh"
    c, asked = doctor("doctor", "-m", "pkg.train", "--home=" + str(tmp_path), "--lang=en", "--steps", "2")
    assert (c.home, c.lang) == (tmp_path, "en") and (asked.module, asked.args) == ("pkg.train", ("--steps", "2"))


def test_doctor_after_a_double_dash_everything_is_the_scripts(tmp_path):
    c, asked = doctor(
        "doctor", "--home", str(tmp_path), "train.py", "--", "--accelerator", "--home", "h", "--lang", "fr", "--json"
    )
    assert (c.home, c.accelerator, asked.json, asked.lang) == (tmp_path, False, False, None)
    assert asked.args == ("--accelerator", "--home", "h", "--lang", "fr", "--json")
    c, asked = doctor("doctor", "--accelerator", "--", "train.py", "--accelerator", "--home", "h")
    assert c.accelerator and asked.script.name == "train.py" and asked.args == ("--accelerator", "--home", "h")


def test_doctor_own_options_keep_their_rule_beside_the_tutors():
    # --json, --timeout, --nans: before the script or the last words; followed by a script word, the script's
    c, asked = doctor("doctor", "train.py", "--nans", "drop", "--accelerator", "--json", "--timeout", "5")
    assert c.accelerator and asked.args == ("--nans", "drop") and asked.json and asked.timeout_s == 5.0
    assert not asked.nans
    c, asked = doctor("doctor", "train.py", "--json", "--lang", "zh", "--epochs", "2")
    assert c.lang == "zh" and asked.args == ("--json", "--epochs", "2") and not asked.json


@pytest.mark.parametrize(
    "words, says",
    [
        (["s.py", "--home"], "--home needs a value"),
        (["s.py", "--home", "--json"], "--home needs a value"),
        (["s.py", "--lang", "fr", "--epochs", "2"], "goes after --"),
        (["s.py", "--accelerator=gpu"], "--accelerator takes no value"),
    ],
)
def test_doctor_words_that_would_have_gone_to_the_script_by_mistake_are_usage_errors(tmp_path, words, says):
    with pytest.raises(options.OptionsError) as caught:
        options.parse(words, tutor_options=True)
    assert says in caught.value.message.en and caught.value.message.zh != caught.value.message.en
    args = parse_args(["doctor", *words])  # the command line reads them the same way, and says so (exit 2)
    with pytest.raises(options.OptionsError):
        options_of(args)


def test_the_tuis_command_field_refuses_what_only_the_tutor_can_do():
    """The TUI's sandbox is made: --accelerator / --home there say where they go, never reach the script."""
    for words in (["s.py", "--accelerator"], ["--home", "h", "s.py"], ["s.py", "--epochs", "1", "--home", "h"]):
        with pytest.raises(options.OptionsError) as caught:
            options.parse(words)
        assert "option of the tutor" in caught.value.message.en
    assert options.parse(["s.py", "--", "--accelerator"]).args == ("--accelerator",)
    assert options.parse(["s.py", "--lang", "zh", "--epochs", "2"]).lang == "zh"


def _tutor(home: Path, *argv: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", *argv],
        capture_output=True,
        text=True,
        env=env or _env(home),
        cwd=ROOT,
        timeout=timeout,
    )


def _env(home: Path) -> dict:
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(home), JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT))
    env.pop(ACCELERATOR_VAR, None)
    return env


def test_a_bad_tutor_option_after_the_script_is_a_usage_error_in_its_language(tmp_path):
    done = _tutor(tmp_path, "doctor", "x.py", "--epochs", "2", "--home")
    assert done.returncode == 2 and "--home needs a value" in done.stderr and "Traceback" not in done.stderr
    done = _tutor(tmp_path, "doctor", "missing.py", "--lang", "zh")
    assert done.returncode == 2 and "不存在" in done.stderr, done.stderr  # --lang after the script: the whole run's


@pytest.mark.slow  # starts a worker
def test_doctor_accelerator_after_the_script_reaches_the_worker_and_not_the_script(tmp_path):
    script = tmp_path / "argv_env.py"
    script.write_text(
        textwrap.dedent(
            """\
            import os, sys
            print("args", sys.argv[1:])
            print("platforms=" + os.environ.get("JAX_PLATFORMS", "<unset>"))
            """
        ),
        encoding="utf-8",
    )
    env = _env(tmp_path / "home")
    env.pop("JAX_PLATFORMS", None)
    ran = {}
    for name, argv in {
        "cpu": [str(script), "--epochs", "3"],
        "after": [str(script), "--epochs", "3", "--accelerator"],
        "dashed": [str(script), "--epochs", "3", "--", "--accelerator"],
    }.items():
        done = _tutor(tmp_path, "doctor", "--json", *argv, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        ran[name] = json.loads(done.stdout)["stdout"]
    assert "args ['--epochs', '3']" in ran["cpu"] and "platforms=cpu" in ran["cpu"]
    assert "args ['--epochs', '3']" in ran["after"] and "platforms=<unset>" in ran["after"]
    assert "args ['--epochs', '3', '--accelerator']" in ran["dashed"] and "platforms=cpu" in ran["dashed"]
