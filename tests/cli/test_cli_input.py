"""What a shell may hand the command line (issue 40): closed standard streams, a `~user` that does
not exist, and words holding escape sequences. Never a traceback; never an escape echoed raw."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.doctor.findings import Report
from tutor.doctor.report_text import render_text

ROOT = Path(__file__).resolve().parents[2]
# A window title (OSC 0, ended by BEL), a clipboard write (OSC 52), a cleared screen (CSI), the
# one-byte C1 CSI, and a right-to-left override.
HOSTILE = "\x1b]0;owned\x07\x1b]52;c;ZWNobyBoaQ==\x07\x1b[2J\x9b2J\u202e"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def tutor(home: Path, *args: str, env: dict | None = None, close: tuple[int, ...] = (), **kw):
    """`python -m tutor *args` on `home`, with the descriptors in `close` closed as `<&-` does."""
    env = env or dict(os.environ, JAXSTATE_TUTOR_HOME=str(home), JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        env=env,
        cwd=ROOT,
        timeout=120,
        preexec_fn=(lambda: [os.close(fd) for fd in close]) if close else None,
        **({"capture_output": True} | kw),
    )


def said(done: subprocess.CompletedProcess) -> str:
    return (done.stdout or b"").decode(errors="replace") + (done.stderr or b"").decode(errors="replace")


def assert_nothing_raw(text: str) -> None:
    assert not [c for c in RAW if c in text], ascii(text)


# ---- closed streams, homes that cannot be -----------------------------------------------------


def test_solution_with_stdin_closed_prints_it_without_a_traceback(tmp_path):
    done = tutor(tmp_path, "solution", "counter-jit", close=(0,))
    assert done.returncode == 0 and "Traceback" not in said(done), said(done)
    assert b"def update_counter" in done.stdout and b"no terminal to ask" in done.stderr


def test_the_tui_with_stdin_closed_says_why_it_cannot_run(tmp_path):
    leader, follower = pty.openpty()  # stdout a terminal: the TUI would start but for stdin
    try:
        done = tutor(tmp_path, close=(0,), stdout=follower, stderr=subprocess.PIPE, capture_output=False)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2 and b"Traceback" not in done.stderr, done.stderr
    assert b"not a terminal" in done.stderr


@pytest.mark.parametrize("how", ["--home", "JAXSTATE_TUTOR_HOME"])
def test_a_home_of_a_user_who_does_not_exist_is_a_usage_error(tmp_path, how):
    env = dict(os.environ, JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT))
    if how == "--home":
        env.pop("JAXSTATE_TUTOR_HOME", None)
        done = tutor(tmp_path, "--home", "~nosuchuser40/h", "list", env=env)
    else:
        env["JAXSTATE_TUTOR_HOME"] = "~nosuchuser40/h"
        done = tutor(tmp_path, "list", env=env)
    assert done.returncode == 2 and "Traceback" not in said(done), said(done)
    assert "~nosuchuser40/h: there is no such user" in said(done)


# ---- escapes in what is echoed ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("check", f"x{HOSTILE}y"),
        ("hint", f"\x1b[31mred{HOSTILE}"),
        ("solution", f"id{HOSTILE}", "--yes"),
        ("reset", f"id{HOSTILE}"),
        ("check", "counter-jit", "--file", f"/nonexistent/{HOSTILE}.py"),
        ("check", "counter-jit", "--file", "/nonexistent/bell\x07.py"),
        ("list", f"extra{HOSTILE}"),  # argparse's "unrecognized arguments"
        ("doctor", f"/nonexistent/{HOSTILE}.py"),
        ("--home", f"~nobody40{HOSTILE}/h", "list"),
    ],
    ids=["check-id", "hint-id", "solution-id", "reset-id", "file", "file-bel", "argparse", "doctor", "home-user"],
)
def test_a_usage_error_shows_escapes_never_obeys_them(tmp_path, args):
    done = tutor(tmp_path, *args)
    assert done.returncode == 2 and "Traceback" not in said(done), said(done)
    assert_nothing_raw(said(done))
    assert "␛" in said(done) or "␇" in said(done)  # shown, so the learner sees what they typed


def test_a_progress_warning_naming_a_home_with_escapes_shows_them(tmp_path):
    home = tmp_path / f"home{HOSTILE}"
    home.mkdir()
    (home / "progress.json").write_text("{not json")
    done = tutor(home, "list")
    assert "damaged" in said(done)
    assert_nothing_raw(said(done))


def test_the_doctor_reports_header_shows_a_script_name_with_escapes():
    report = Report(f"train{HOSTILE}.py", exit_code=0, duration_s=1.0)
    report.decide_status(failed=False)
    for lang in ("en", "zh"):
        text = render_text(report, lang)
        assert_nothing_raw(text)
        assert "train␛]0;owned␇" in text.splitlines()[0]


# ---- multiprocessing inside a check -------------------------------------------------------------

POOL = """
import multiprocessing


def _square(x):
    return x * x


def update_counter(count, increment):
    with multiprocessing.Pool(2) as pool:
        pool.map(_square, [1, 2])
    return count + 1, increment
"""
EXECUTOR = """
from concurrent.futures import ProcessPoolExecutor


def update_counter(count, increment):
    with ProcessPoolExecutor(2) as executor:
        list(executor.map(abs, [1, -2]))
    return count + 1, increment
"""


# The same made at the top of the file, as the file loads (before: a bare PermissionError).
AT_THE_TOP = {
    name: f"{imports}\n\n{made}\n\n\ndef update_counter(count, increment):\n    return count + 1, increment\n"
    for name, imports, made in (
        ("lock", "import multiprocessing", "LOCK = multiprocessing.Lock()"),
        ("semaphore", "import multiprocessing", "SLOTS = multiprocessing.Semaphore(2)"),
        ("queue", "import multiprocessing", "RESULTS = multiprocessing.Queue()"),
        ("executor", "from concurrent.futures import ProcessPoolExecutor", "POOL = ProcessPoolExecutor(2)"),
    )
}


@pytest.mark.slow  # starts a worker
@pytest.mark.parametrize(
    "source",
    [POOL, EXECUTOR, *AT_THE_TOP.values()],
    ids=["pool", "executor", *(f"{name}-at-the-top" for name in AT_THE_TOP)],
)
def test_multiprocessing_in_a_check_is_named_with_why_and_what_to_do(tmp_path, source):
    learner = tmp_path / "mine.py"
    learner.write_text(source)
    for lang, words in (
        ("en", ("multiprocessing", "is not available inside a check", "/dev/shm", "jax.vmap")),
        ("zh", ("检查里不能使用 multiprocessing", "/dev/shm", "jax.vmap")),
    ):
        done = tutor(tmp_path / "home", "--lang", lang, "check", "counter-jit", "--file", str(learner))
        out = said(done)
        assert done.returncode == 1 and "PermissionError" in out, out
        assert all(w in out for w in words), out


@pytest.mark.parametrize(
    "args",
    [
        ["--lang", "zh", "check", "counter-jit", "--timeout", "nan"],
        ["check", "counter-jit", "--timeout", "1e12", "--lang=zh"],
        ["--lang", "zh", "--home", " ", "progress"],
    ],
)
def test_a_bad_value_is_said_in_the_language_the_command_line_asks_for(args, monkeypatch, capsys):
    """Issue 50's red team on 944540f: `--lang zh check ID --timeout nan` was refused in English
    (argparse checks a value before it has read --lang, so the locale decided)."""
    from tutor.cli.main import main

    for var in ("JAXSTATE_TUTOR_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "秒数" in err or "空字符串" in err, err
