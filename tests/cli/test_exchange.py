"""Hand-in through an exchange folder: `exchange init`, `submit`, `grade --exchange`.

With real Unix accounts (an instructor and two learners, made for the test and removed after),
the kernel, not the tutor, keeps learners apart: a learner cannot list the exchange, read, delete
or rename another's submission, and a file a learner plants under another's name is graded as
the planter's. Without root those tests are skipped; the single-account ones run everywhere.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tutor.classroom import exchange
from tutor.settings import EXCHANGE_VAR

ROOT = Path(__file__).resolve().parents[2]
posix = pytest.mark.skipif(os.name != "posix", reason="an exchange needs Unix accounts and permissions")


def _tutor(home: Path, *args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    settings = dict(os.environ)
    settings.pop(EXCHANGE_VAR, None)
    settings.pop("JUPYTERHUB_USER", None)
    settings.update(
        {
            "JAXSTATE_TUTOR_HOME": str(home),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "JAXSTATE_TUTOR_LANG": "en",
            **(env or {}),
        }
    )
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args], capture_output=True, text=True, env=settings, timeout=timeout
    )


@pytest.fixture
def open_tmp():
    """A folder every account can reach (pytest's tmp_path is root's alone), removed after."""
    folder = Path(tempfile.mkdtemp(prefix="jaxstate-test-exchange-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    subprocess.run(["rm", "-rf", "--one-file-system", str(folder)], check=False)


def _export_bytes(learner: str) -> bytes:
    doc = {"format": "jaxstate-tutor-export", "format_version": 1, "learner": learner, "progress": {}, "files": {}}
    return json.dumps(doc).encode()


@posix
def test_init_makes_a_folder_learners_can_write_but_not_list(tmp_path):
    folder = exchange.init(tmp_path / "exchange")
    st = folder.stat()
    assert stat.S_IMODE(st.st_mode) == 0o3773  # setgid, sticky, o=wx
    assert (folder / exchange.MARKER).is_file() and exchange.is_exchange(folder)
    assert st.st_gid == os.getgid()
    folder.chmod(0o777)  # someone "fixed" it by hand; init puts it right again
    assert stat.S_IMODE(exchange.init(folder).stat().st_mode) == 0o3773


@posix
def test_a_submission_is_named_for_the_account_and_readable_by_the_group_only(tmp_path, monkeypatch):
    folder = exchange.init(tmp_path / "exchange")
    monkeypatch.setenv("JUPYTERHUB_USER", "ann")
    assert exchange.account_name() == "ann"
    old = os.umask(0o077)  # a learner's strict umask must not lock the instructor out
    try:
        path = exchange.submit(folder, b"{}", exchange.account_name())
    finally:
        os.umask(old)
    assert path.parent == folder and path.name.startswith("ann+") and path.suffix == ".json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in folder.iterdir() if p.name.startswith(".") and p.name != exchange.MARKER] == []
    monkeypatch.delenv("JUPYTERHUB_USER")
    import pwd

    assert exchange.account_name() == pwd.getpwuid(os.getuid()).pw_name


@posix
def test_collect_takes_each_accounts_latest_and_refuses_links(tmp_path):
    folder = exchange.init(tmp_path / "exchange")
    first = exchange.submit(folder, _export_bytes("me"), "me")
    os.utime(first, (1, 1))  # an mtime set back changes nothing: the ctime orders them
    second = exchange.submit(folder, _export_bytes("me"), "me")
    (folder / "link.json").symlink_to(second)
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes(_export_bytes("me"))
    os.link(outside, folder / "hardlink.json")
    got = exchange.collect(folder)
    assert [(s.path, s.earlier) for s in got.submissions] == [(second, [first])]
    refused = {p.name: fields["why"] for p, _, fields in got.refused}
    assert refused == {"hardlink.json": "it has 2 names (a hard link)", "link.json": "a symbolic link"}


def test_submit_and_grade_without_an_exchange_say_what_to_give(tmp_path):
    done = _tutor(tmp_path / "home", "submit")
    assert done.returncode == 2, done.stderr
    assert "--exchange DIR" in done.stderr and "JAXSTATE_TUTOR_EXCHANGE" in done.stderr
    done = _tutor(tmp_path / "home", "grade")
    assert done.returncode == 2 and "--exchange DIR" in done.stderr, done.stderr
    done = _tutor(tmp_path / "home", "submit", "--exchange", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and "exchange init" in done.stderr, done.stderr
    assert not (tmp_path / "nowhere").exists()


@posix
def test_submit_then_grade_names_the_account_that_handed_in(tmp_path):
    """The CLI end to end, one account: `exchange init`, two `submit`s (the hub's name for the
    account in the export and the file name), `grade --exchange` names the file's owner."""
    import pwd

    me = pwd.getpwuid(os.getuid()).pw_name
    folder = tmp_path / "exchange"
    done = _tutor(tmp_path / "teach", "exchange", "init", str(folder))
    assert done.returncode == 0 and "3773" in done.stdout, done.stderr
    home = tmp_path / "home"
    assert _tutor(home, "hint", "counter-jit").returncode == 0  # progress now has a record of it: a row
    for _ in range(2):
        done = _tutor(home, "submit", env={EXCHANGE_VAR: str(folder), "JUPYTERHUB_USER": "ann"})
        assert done.returncode == 0, done.stderr
        assert "Handed in as ann" in done.stdout
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    assert len(names) == 2 and all(n.startswith("ann+") for n in names)
    for how in (["--exchange", str(folder)], [str(folder)], []):  # the flag, the marked folder, the variable
        done = _tutor(tmp_path / "teach", "grade", *how, env={EXCHANGE_VAR: str(folder)})
        assert done.returncode == 0, done.stderr
        assert "1 earlier submissions replaced" in done.stderr
        rows = list(csv.DictReader(io.StringIO(done.stdout)))
        assert {r["learner"] for r in rows} == {me}  # a row for every exercise of the course
        rows = [r for r in rows if r["exercise"] == "counter-jit"]
        assert [(r["learner"], r["exercise"]) for r in rows] == [(me, "counter-jit")]
        if me != "ann":
            assert f"the export calls its learner 'ann', but the account {me} handed it in" in rows[0]["note"]
        assert f"handed in by the account {me} at " in rows[0]["note"]
    # late is the exchange's time of hand-in, which the learner's clock does not set; said of a file
    # handed in (a row with nothing handed in is not late)
    (home / "workspace").mkdir(exist_ok=True)
    (home / "workspace" / "counter-jit.py").write_text("def update_counter(c, i):\n    return c + 1, i\n")
    done = _tutor(home, "submit", env={EXCHANGE_VAR: str(folder), "JUPYTERHUB_USER": "ann"})
    assert done.returncode == 0, done.stderr
    done = _tutor(tmp_path / "teach", "grade", "--exchange", str(folder), "--due", "2000-01-01T00:00:00Z")
    (row,) = [r for r in csv.DictReader(io.StringIO(done.stdout)) if r["exercise"] == "counter-jit"]
    assert row["status"] == "pass" and row["submitted_at"], row
    assert row["late"].startswith("submitted ") and "d after the due time" in row["late"]


@posix
def test_an_exchange_others_could_list_is_refused_before_anything_is_written(class_accounts, open_tmp):
    teach, ann = class_accounts("teach"), class_accounts("ann")
    folder = open_tmp / "open"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    os.chown(folder, teach.uid, teach.gid)
    with pytest.raises(exchange.ExchangeError) as raised:
        ann.run(exchange.submit, folder, b"{}", ann.name)
    assert raised.value.key == "exchange_open" and raised.value.fields["mode"] == "0777"
    assert list(folder.iterdir()) == []


@posix
def test_learners_cannot_list_read_delete_or_impersonate(class_accounts, open_tmp):
    """Two real learners and an instructor: what the kernel allows each of them in the exchange."""
    teach, ann, bob = class_accounts("teach"), class_accounts("ann"), class_accounts("bob")
    base = open_tmp / "course"
    base.mkdir()
    os.chown(base, teach.uid, teach.gid)
    folder = teach.run(exchange.init, base / "exchange")
    assert (folder.stat().st_uid, folder.stat().st_gid) == (teach.uid, teach.gid)

    ann_file = ann.run(exchange.submit, folder, _export_bytes(ann.name), ann.name)
    st = ann_file.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (ann.uid, teach.gid, 0o640)

    # bob knows the folder, and even the name of ann's file: the kernel refuses him each step
    for attempt in (
        lambda: os.listdir(folder),
        lambda: open(ann_file, "rb").read(),
        lambda: os.unlink(ann_file),
        lambda: os.rename(ann_file, folder / "mine.json"),
        lambda: os.link(ann_file, folder / "hard.json"),  # fs.protected_hardlinks; collect refuses one anyway
        lambda: os.chmod(ann_file, 0o666),
    ):
        with pytest.raises(PermissionError):
            bob.run(attempt)
    assert ann.run(lambda: open(ann_file, "rb").read()) == _export_bytes(ann.name)  # her own, she reads

    bob_file = bob.run(exchange.submit, folder, _export_bytes(bob.name), bob.name)
    forged = bob.run(exchange.submit, folder, _export_bytes(ann.name), ann.name)  # named for ann, in and out
    assert forged.name.startswith(ann.name + "+")
    bob.run(os.symlink, ann_file, folder / "ann-too.json")

    got = teach.run(exchange.collect, folder)  # the instructor lists and reads through the group
    by_account = {s.account: s for s in got.submissions}
    assert set(by_account) == {ann.name, bob.name}
    assert by_account[ann.name].path == ann_file  # bob's file named for ann is bob's
    assert by_account[bob.name].path == forged and by_account[bob.name].earlier == [bob_file]
    assert [(p.name, fields["why"]) for p, _, fields in got.refused] == [("ann-too.json", "a symbolic link")]
    assert teach.run(lambda: open(ann_file, "rb").read()) == _export_bytes(ann.name)


def test_without_a_password_database_the_account_is_the_login_name(monkeypatch):
    """Windows has no pwd module: the name comes from getpass, and the hub's name still wins."""
    monkeypatch.setattr(exchange, "pwd", None)  # as on Windows, where `import pwd` fails
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.setenv("USER", "winlearner")
    monkeypatch.setenv("LOGNAME", "winlearner")
    assert exchange.account_name() == "winlearner"
    monkeypatch.setenv("JUPYTERHUB_USER", "hubname")
    assert exchange.account_name() == "hubname"


def test_init_says_an_exchange_needs_unix_where_there_is_none(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "name", "nt")
    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.init(tmp_path / "exchange")
    assert raised.value.key == "exchange_not_posix" and not (tmp_path / "exchange").exists()
