"""A progress file or lock that is a FIFO, a folder or a huge file never blocks or crashes the
tutor: it is refused by name, and nothing is written over what could not be read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.files.atomic import NotARegularFile, read_regular
from tutor.progress import ProgressStore

ROOT = Path(__file__).resolve().parents[2]


def test_read_regular_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(NotARegularFile, match="FIFO"):
        read_regular(fifo, 100)  # would hang forever in a plain open()


def test_read_regular_refuses_folders_devices_and_oversize(tmp_path):
    with pytest.raises(NotARegularFile, match="folder"):
        read_regular(tmp_path, 100)
    with pytest.raises(NotARegularFile, match="device"):
        read_regular("/dev/zero", 100)  # reports size 0 and never ends
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(OSError, match="more than the 100"):
        read_regular(big, 100)
    assert read_regular(big, 101) == b"x" * 101


@pytest.mark.parametrize("name", ["progress.json", "progress.lock"])
def test_a_fifo_in_the_home_is_named_and_progress_is_not_written(tmp_path, name):
    os.mkfifo(tmp_path / name)
    store = ProgressStore(tmp_path)
    if name == "progress.json":
        store.load()
        assert any("FIFO" in w.en for w in store.warnings)
    with pytest.raises(Exception, match="not a regular file|will not be saved|FIFO") as err:
        store.update(lambda progress: progress)
    assert "Traceback" not in str(err.value)
    assert (tmp_path / name).is_fifo()  # left as it was: it may be the user's


def test_list_with_a_fifo_for_progress_returns_and_warns(tmp_path):
    os.mkfifo(tmp_path / "progress.json")
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(tmp_path), JAXSTATE_TUTOR_LANG="en")
    out = subprocess.run([sys.executable, "-m", "tutor", "list"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "a pipe (FIFO), not a regular file" in out.stderr


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["watch", "counter-jit", "--interval", "1e10"], "--interval"),
        (["check", "counter-jit", "--timeout", "1e12"], "--timeout"),
    ],
)
def test_a_number_too_large_for_the_timers_is_a_usage_error_not_a_traceback(tmp_path, command, option):
    """`watch --interval 1e10` raised OverflowError; `--timeout 1e12` overflowed the worker's timer."""
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(tmp_path), JAXSTATE_TUTOR_LANG="en")
    out = subprocess.run([sys.executable, "-m", "tutor", *command], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert f"argument {option}: must be a number of seconds above 0 and at most 604800" in out.stderr
    assert "Traceback" not in out.stderr


def test_doctor_from_a_deleted_folder_says_so(tmp_path):
    """`doctor` run where the current folder was deleted raised FileNotFoundError from getcwd."""
    gone = tmp_path / "gone"
    gone.mkdir()
    script = tmp_path / "s.py"
    script.write_text("print(1)\n")
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(tmp_path / "home"), JAXSTATE_TUTOR_LANG="en")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    code = f"import os, sys, runpy; os.chdir({str(gone)!r}); os.rmdir({str(gone)!r}); "
    code += f"sys.argv = ['jaxstate-tutor', 'doctor', {str(script)!r}]; runpy.run_module('tutor', run_name='__main__')"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert "the current folder no longer exists" in out.stderr and "Traceback" not in out.stderr
