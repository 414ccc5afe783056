"""Unsaved text rescued on a machine shared with other users (a classroom's SSH box, one /tmp):
the copy is never readable by, predictable to or redirectable by another user, and one user's
rescue never stops another's. Run as two real unprivileged users (tests/plugins/peer_users.py):
the victim rescues with the tutor's own code, the intruder prepares /tmp as it likes and then
reads whatever it can."""

from __future__ import annotations

import os
import stat
import time
import uuid
from pathlib import Path

import pytest

RESCUE = """
import os
from pathlib import Path
from tutor.files.edited_file import EditedFile
if os.environ.get("WAIT"):
    print(os.getpid(), flush=True)
    input()
print(EditedFile(Path(os.environ["FILE"])).rescue(os.environ["TEXT"]))
"""

# Every file under the shared folder the intruder can read: what a curious classmate would find.
READ_ALL = """
import os, sys
found = []
for top, dirs, files in os.walk(sys.argv[1] if len(sys.argv) > 1 else os.environ["WHERE"]):
    for name in files:
        try:
            with open(os.path.join(top, name), encoding="utf-8", errors="replace") as f:
                found.append(f.read())
        except OSError:
            pass
print("\\n".join(found))
"""


def unwritable_home(shared: Path) -> Path:
    """A home the victim cannot write (a read-only home, as far as it is concerned): the rescue
    must go outside it, into the shared temporary folder."""
    home = shared / f"home-{uuid.uuid4().hex[:6]}"
    (home / "workspace").mkdir(parents=True)
    for folder in (home, home / "workspace"):
        folder.chmod(0o755)  # root's: readable, not writable, by the victim
    return home


def rescue_as(user, home: Path, shared: Path, text: str):
    return user.python_code(
        RESCUE, env={"TMPDIR": str(shared), "FILE": str(home / "workspace" / "counter-jit.py"), "TEXT": text}
    )


def what_the_intruder_reads(intruder, shared: Path) -> str:
    out = intruder.python_code(READ_ALL, env={"WHERE": str(shared)})
    assert out.returncode == 0, out.stderr
    return out.stdout


def assert_private(path: Path, owner_uid: int) -> None:
    st, folder = path.lstat(), path.parent.lstat()
    assert stat.S_ISREG(st.st_mode) and st.st_uid == owner_uid, (path, st)
    assert stat.S_IMODE(st.st_mode) == 0o600, oct(st.st_mode)
    assert folder.st_uid == owner_uid and stat.S_IMODE(folder.st_mode) == 0o700, (path.parent, oct(folder.st_mode))


def test_a_folder_another_user_made_first_never_receives_the_text(peers, shared_tmp):
    victim, intruder = peers
    made = intruder.sh(
        f"mkdir -m 0777 {shared_tmp}/jaxstate-tutor-unsaved && chmod 0777 {shared_tmp}/jaxstate-tutor-unsaved"
    )
    assert made.returncode == 0, made.stderr
    secret = f"secret_{uuid.uuid4().hex} = 1\n"
    home = unwritable_home(shared_tmp)

    out = rescue_as(victim, home, shared_tmp, secret)

    assert out.returncode == 0, out.stderr
    where = Path(out.stdout.strip())
    assert where.read_text() == secret and not where.is_relative_to(shared_tmp / "jaxstate-tutor-unsaved")
    assert_private(where, victim.uid)
    assert secret not in what_the_intruder_reads(intruder, shared_tmp)


def test_one_users_rescue_never_stops_anothers(peers, shared_tmp):
    first, second = peers
    home_first, home_second = unwritable_home(shared_tmp), unwritable_home(shared_tmp)
    out = rescue_as(first, home_first, shared_tmp, "first = 1\n")
    assert out.returncode == 0, out.stderr

    out = rescue_as(second, home_second, shared_tmp, "second = 2\n")  # the first user's tutor made its folder

    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).read_text() == "second = 2\n"
    assert_private(Path(out.stdout.strip()), second.uid)


def test_a_symbolic_link_planted_at_a_guessable_name_never_redirects_the_write(peers, shared_tmp):
    victim, intruder = peers
    precious = Path(f"/home/{victim.name}/precious-{uuid.uuid4().hex[:6]}.py")
    assert victim.sh(f"printf 'precious = True\\n' > {precious}").returncode == 0
    home = unwritable_home(shared_tmp)
    env = {"TMPDIR": str(shared_tmp), "FILE": str(home / "workspace" / "counter-jit.py"), "TEXT": "typed = 1\n"}
    proc = victim.popen(RESCUE, env={**env, "WAIT": "1"})
    try:
        pid = int(proc.stdout.readline())
        # Every name the rescue could pick in the next half minute, each a link to the victim's file.
        folder = shared_tmp / "jaxstate-tutor-unsaved"
        names = [
            f"counter-jit-{time.strftime('%Y%m%dT%H%M%S', time.localtime(time.time() + s))}-{pid}.py" for s in range(30)
        ]
        planted = intruder.sh(
            f"mkdir -m 0777 {folder} && cd {folder} && " + " && ".join(f"ln -s {precious} {n}" for n in names)
        )
        assert planted.returncode == 0, planted.stderr
        out, _ = proc.communicate("go\n", timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    assert precious.read_text() == "precious = True\n"  # not overwritten through the link
    where = Path(out.strip())
    assert where.read_text() == "typed = 1\n"
    assert_private(where, victim.uid)
    precious.unlink()


def test_a_home_that_can_be_written_keeps_the_copy_and_no_other_user_reads_it(peers, shared_tmp):
    victim, intruder = peers
    home = shared_tmp / f"home-{uuid.uuid4().hex[:6]}"
    assert victim.sh(f"mkdir -p {home} && chmod 0755 {home}").returncode == 0  # the victim's own, world-readable
    secret = f"secret_{uuid.uuid4().hex} = 2\n"

    out = rescue_as(victim, home, shared_tmp, secret)  # the workspace folder is missing: it cannot be saved there

    assert out.returncode == 0, out.stderr
    where = Path(out.stdout.strip())
    assert where.parent == home / "unsaved" and where.read_text() == secret
    assert_private(where, victim.uid)
    assert secret not in what_the_intruder_reads(intruder, shared_tmp)


@pytest.mark.skipif(os.geteuid() != 0, reason="a read-only home needs a read-only mount (root)")
def test_with_neither_home_nor_temporary_folder_both_reasons_are_said(tmp_path, monkeypatch, read_only, tmpfs, fill):
    """Both places full: the error names each, in both languages; no partial file anywhere."""
    import tempfile

    from tutor.files.edited_file import EditedFile
    from tutor.files.workspace import LearnerFileError

    with tmpfs(tmp_path / "tmp", size_kb=64) as tmp:
        fill(tmp)
        monkeypatch.setattr(tempfile, "tempdir", str(tmp))
        home = tmp_path / "home"
        (home / "workspace").mkdir(parents=True)
        with read_only(home):
            with pytest.raises(LearnerFileError) as caught:
                EditedFile(home / "workspace" / "counter-jit.py").rescue("typed = 1\n")
        message = caught.value.message
        assert str(home / "unsaved") in message.en and str(tmp) in message.en, message.en
        assert "Read-only file system" in message.en and "No space left" in message.en, message.en
        assert str(tmp) in message.zh and message.zh != message.en
        assert not [p for p in tmp.rglob("*") if "jaxstate" in p.name]
