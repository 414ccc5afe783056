"""Other users of the same machine (a classroom's shared SSH box): two unprivileged accounts that
run Python as themselves, and a temporary directory shared by everyone, as /tmp is.

Making the accounts needs root (`useradd`); where it cannot be done the tests are skipped,
never faked: a test run as root proves nothing about what another user can read.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("tutorpeer", "tutorpeer2")


class Peer:
    """One unprivileged user: runs shell commands or Python (this checkout's `tutor` on its path) as itself."""

    def __init__(self, name: str, python: str):
        self.name = name
        self.python = python
        self.uid = int(subprocess.run(["id", "-u", name], capture_output=True, text=True, check=True).stdout)

    def sh(self, script: str, env: dict | None = None) -> subprocess.CompletedProcess:
        return self._run(["/bin/sh", "-c", script], env)

    def python_code(self, code: str, env: dict | None = None, **popen) -> subprocess.CompletedProcess:
        return self._run([self.python, "-c", code], env, **popen)

    def popen(self, code: str, env: dict | None = None) -> subprocess.Popen:
        return subprocess.Popen(
            self._argv([self.python, "-c", code], env), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def _argv(self, argv: list[str], env: dict | None) -> list[str]:
        settings = {"PYTHONPATH": str(ROOT), "HOME": f"/home/{self.name}", **(env or {})}
        return ["runuser", "-u", self.name, "--", "env", *(f"{k}={v}" for k, v in settings.items()), *argv]

    def _run(self, argv: list[str], env: dict | None, **kw) -> subprocess.CompletedProcess:
        return subprocess.run(self._argv(argv, env), capture_output=True, text=True, timeout=60, **kw)


def _python_for(name: str) -> str | None:
    """A Python >= 3.11 the user can run (the test's own often lives under root's home)."""
    for python in (sys.executable, "/usr/bin/python3", shutil.which("python3") or ""):
        if not python:
            continue
        probe = subprocess.run(
            ["runuser", "-u", name, "--", python, "-c", "import sys; assert sys.version_info >= (3, 11)"],
            capture_output=True,
            timeout=60,
        )
        if probe.returncode == 0:
            return python
    return None


@pytest.fixture(scope="session")
def peers() -> tuple[Peer, Peer]:
    """Two other users of this machine, (victim, intruder), each unprivileged."""
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("making a second user needs root and runuser; run the suite as root to test other users")
    for name in NAMES:
        if subprocess.run(["id", "-u", name], capture_output=True).returncode != 0:
            made = subprocess.run(["useradd", "-m", name], capture_output=True, text=True)
            if made.returncode != 0 and subprocess.run(["id", "-u", name], capture_output=True).returncode != 0:
                pytest.skip(f"cannot make a second user here (useradd: {made.stderr.strip()})")
    python = _python_for(NAMES[0])
    if python is None or _python_for(NAMES[1]) != python:
        pytest.skip("no Python 3.11+ that an unprivileged user can run")
    return Peer(NAMES[0], python), Peer(NAMES[1], python)


@pytest.fixture
def shared_tmp():
    """A folder like /tmp (mode 1777: anyone creates, nobody removes another's), under /tmp so that
    every user can reach it (pytest's own tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="jaxstate-test-shared-", dir="/tmp"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
