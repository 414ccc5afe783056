"""A class's Unix accounts, made for one test and removed after it: learners and an instructor,
each with a private group and a home of mode 0700, as `useradd --user-group` makes them.

Making them needs root; where it cannot be done the test is skipped, never faked (a test run as
root alone proves nothing about what another account can read). Every process left running as
one of them is ended by its id before the account is removed, so no user, process or home stays.
"""

from __future__ import annotations

import os
import pickle
import pwd
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Account:
    name: str
    uid: int
    gid: int
    home: Path

    def run(self, fn, *args):
        """fn(*args) in a forked child that became this account (groups, gid, uid, umask 022):
        what it returns, or the exception it raised, comes back pickled. The kernel judges
        every file access of the child exactly as it would a login of that account's."""
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover (the child)
            os.close(read)
            try:
                os.setgroups([])
                os.setgid(self.gid)
                os.setuid(self.uid)
                os.umask(0o022)
                os.environ["HOME"] = str(self.home)
                outcome = ("ok", fn(*args))
            except BaseException as exc:  # noqa: BLE001 (carried back to the test as it was)
                outcome = ("raised", exc)
            try:
                data = pickle.dumps(outcome)
            except Exception as exc:  # noqa: BLE001
                data = pickle.dumps(("raised", RuntimeError(f"unpicklable: {exc!r}")))
            with os.fdopen(write, "wb") as out:
                out.write(data)
            os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as got:
            data = got.read()
        os.waitpid(pid, 0)
        kind, value = pickle.loads(data)
        if kind == "raised":
            raise value
        return value


def _pids_of(uid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    pids.append(int(entry))
            except OSError:
                pass
    return pids


def _end_processes_of(uid: int) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in _pids_of(uid):
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + 30
        while _pids_of(uid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not _pids_of(uid):
            return


@pytest.fixture
def class_accounts():
    """make(role) -> Account: a fresh account for this test ("jt" + role + a number), removed after."""
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("useradd") is None:
        pytest.skip("making a class's accounts needs root and useradd: run the suite as root to test them")
    made: list[Account] = []

    def make(role: str) -> Account:
        name = f"jt{role}{os.getpid() % 100000}{len(made)}"[:32]
        done = subprocess.run(
            ["useradd", "--user-group", "--create-home", "--shell", "/bin/sh", name],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            pytest.skip(f"cannot make an account here (useradd: {done.stderr.strip()})")
        entry = pwd.getpwnam(name)
        account = Account(name, entry.pw_uid, entry.pw_gid, Path(entry.pw_dir))
        made.append(account)
        account.home.chmod(0o700)  # HOME_MODE is not 0700 everywhere (Debian's UMASK 022 gives 0755)
        return account

    yield make
    for account in made:
        _end_processes_of(account.uid)
        subprocess.run(["userdel", "--remove", account.name], capture_output=True)
        subprocess.run(["groupdel", account.name], capture_output=True)  # gone with the user where USERGROUPS_ENAB
