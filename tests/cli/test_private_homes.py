"""A tutor's home is its owner's alone (issue 50, item 3): the home and every folder the tutor makes
in it 0700, every file 0600, whatever the umask; a home an older tutor left open is closed on
first use, said once; and another Unix user reads nothing of it (tests/plugins/peer_users.py)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOLUTION = ROOT / "solutions" / "counter-jit.py"


def tutor(home: Path, *args: str, umask: int = 0o022, **env_more) -> subprocess.CompletedProcess:
    """`python -m tutor *args` on `home` under `umask`, as a learner's shell would run it."""
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(home), JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT), **env_more)
    return subprocess.run(
        [sys.executable, "-m", "tutor", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=lambda: os.umask(umask),
    )


def modes(home: Path) -> dict[str, str]:
    """Every entry's mode under `home` (the home too), as 'folder 0700' / 'file 0600'."""
    out = {".": f"folder {stat.S_IMODE(home.stat().st_mode):04o}"}
    for top, dirs, files in os.walk(home):
        for name in dirs + files:
            path = Path(top) / name
            st = path.lstat()
            kind = "folder" if stat.S_ISDIR(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else "other"
            out[str(path.relative_to(home))] = f"{kind} {stat.S_IMODE(st.st_mode):04o}"
    return out


def assert_private(home: Path) -> None:
    loose = {k: v for k, v in modes(home).items() if v not in ("folder 0700", "file 0600")}
    assert not loose, loose


@pytest.mark.slow  # real checks
@pytest.mark.parametrize("umask", [0o022, 0o000], ids=["umask-022", "umask-000"])
def test_everything_the_tutor_writes_in_a_home_is_private_whatever_the_umask(tmp_path, umask):
    home = tmp_path / "made" / "home"  # its parent too is made by the tutor
    passed = tutor(home, "check", "counter-jit", "--file", str(SOLUTION), umask=umask)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    for words in (("check", "counter-jit"), ("hint", "counter-jit"), ("reset", "counter-jit"), ("progress",)):
        done = tutor(home, *words, umask=umask)
        assert done.returncode in (0, 1), done.stdout + done.stderr
    # export into the home: a learner's file for the instructor, the learner's own until handed over
    exported = tutor(home, "export", "--out", str(home / "mine.json"), umask=umask)
    assert exported.returncode == 0, exported.stderr
    kinds = modes(home)
    assert {"progress.json", "progress.lock", "workspace", "workspace/counter-jit.py", "passed"} <= set(kinds)
    assert "passed/counter-jit.py" in kinds and any(k.startswith("workspace/.backup/") for k in kinds), kinds
    assert kinds["mine.json"] == "file 0600"
    assert_private(home)
    assert stat.S_IMODE(home.parent.stat().st_mode) == 0o700


def test_a_home_left_open_is_closed_on_first_use_and_said_once(tmp_path):
    """A home made by an older tutor: 0755 folders and 0644 files. Fixed on the first command, with
    one line on stderr naming the home; the next command says nothing."""
    home = tmp_path / "old"
    (home / "workspace" / ".backup").mkdir(parents=True)
    (home / "passed").mkdir()
    (home / "progress.json").write_text('{"version": 1, "exercises": {}}')
    (home / "workspace" / "counter-jit.py").write_text("x = 1\n")
    (home / "workspace" / ".backup" / "counter-jit-1.py").write_text("x = 0\n")
    (home / "passed" / "counter-jit.py").write_text("x = 2\n")
    mine = home / "notes.txt"  # not the tutor's: left as the user made it
    mine.write_text("mine")
    for path in [home, *home.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)

    first = tutor(home, "list")
    assert first.returncode == 0, first.stderr
    said = [line for line in first.stderr.splitlines() if "open to other users" in line]
    assert said == [f"{home} was open to other users; it is now yours alone (folders 0700, files 0600: 8 changed)."]
    assert_private_but(home, mine)
    assert stat.S_IMODE(mine.stat().st_mode) == 0o644

    again = tutor(home, "list")
    assert "open to other users" not in again.stderr
    zh = tutor(tmp_path / "other", "--lang", "zh", "list")
    assert "其他用户" not in zh.stderr  # a new home is made private: nothing to say


def assert_private_but(home: Path, mine: Path) -> None:
    loose = {k: v for k, v in modes(home).items() if v not in ("folder 0700", "file 0600")}
    assert loose == {str(mine.relative_to(home)): "file 0644"}, loose


def test_the_note_is_said_in_chinese_too(tmp_path):
    home = tmp_path / "old"
    home.mkdir()
    home.chmod(0o755)
    done = tutor(home, "--lang", "zh", "list")
    assert f"{home} 原先其他用户也能访问；现在只有你能读写（文件夹 0700，文件 0600：改了 1 项）。" in done.stderr


# ---- two real users ------------------------------------------------------------------------------

# The victim's tutor at work under the common umask 022: progress, a workspace file, a backup, a
# passed file, each written by the tutor's own code.
VICTIM = """
import os, sys
from pathlib import Path
os.umask(0o022)
from tutor.course import load_course
from tutor.files.workspace import Workspace
from tutor.progress import ProgressStore, changes, passing
home = Path(sys.argv[1])
ex = load_course().exercise("counter-jit")
ws = Workspace(home)
ws.ensure(ex)
ws.reset(ex)
passing.keep(home, "counter-jit", "SECRET_SOLUTION = 1\\n", True)
ProgressStore(home).apply(changes.hint, "counter-jit", 1)
print("ok")
"""

READ = """
import os, sys
seen, refused = [], []
for top, dirs, files in os.walk(sys.argv[1], onerror=lambda e: refused.append(e.filename)):
    for name in files:
        path = os.path.join(top, name)
        try:
            with open(path, "rb") as f:
                seen.append(path + ":" + f.read().decode(errors="replace"))
        except OSError as exc:
            refused.append(path)
for name in ("progress.json", "workspace/counter-jit.py", "passed/counter-jit.py"):
    try:
        open(os.path.join(sys.argv[1], name), "rb").read()
        seen.append(name)
    except OSError as exc:
        refused.append(f"{name}: {exc.strerror}")
print(repr(seen))
print(repr(refused))
"""


def test_another_user_reads_nothing_of_a_learners_home(peers, shared_tmp):
    victim, intruder = peers
    home = shared_tmp / "victim-home"
    made = victim._run([victim.python, "-c", VICTIM, str(home)], env=None)
    assert made.returncode == 0 and "ok" in made.stdout, made.stderr
    assert (home / "passed" / "counter-jit.py").exists() and (home / "progress.json").exists()
    read = intruder._run([intruder.python, "-c", READ, str(home)], env=None)
    assert read.returncode == 0, read.stderr
    seen, refused = read.stdout.splitlines()
    assert seen == "[]", seen
    for name in ("progress.json", "workspace/counter-jit.py", "passed/counter-jit.py"):
        assert f"{name}: Permission denied" in refused
