"""What a run may see (issue 50): a real `check` of a correct program that, as it loads, tries to read
what is not its own (another learner's progress and seat token, a sibling run folder and its temp
folder, the course's solution and red-team cases, the tutor's secrets in its environment and in its
parent's /proc/PID/environ) and to reach a TCP listener on 127.0.0.1. Every try is refused, the
listener hears nothing, and the program still passes: a correct program does not notice the fence.
On this kernel (Landlock) and, where runsc works, under gVisor (the audit hook alone)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.course.cases import CASES, correct_variants
from tutor.protocol import RUN_DIR_PREFIX

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = "counter-jit"
SECRETS = {
    "AWS_SECRET_ACCESS_KEY": "aws-s3cret",
    "GITHUB_TOKEN": "ghp-s3cret",
    "JAXSTATE_TUTOR_SERVE_TOKEN": "seat-s3cret",
}

pytestmark = pytest.mark.slow

ATTACK = """import json, os, socket

TARGETS = {targets!r}
seen = {{}}


def attempt(name, fn):
    try:
        seen[name] = "read: " + repr(fn())[:200]
    except OSError as exc:
        seen[name] = "refused: " + str(exc)


def environ_of(pid):
    with open(f"/proc/{{pid}}/environ", "rb") as f:
        return f.read()


for name, path in TARGETS.items():
    attempt(name, lambda: open(path, "rb").read())
attempt("run-folders", lambda: os.listdir(os.path.dirname(os.getcwd())))
attempt("environ", lambda: {{k: v for k, v in os.environ.items() if "S3CRET" in v.upper()}} or "nothing")
attempt("parent-environ", lambda: environ_of(os.getppid()))
attempt("tcp", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=5).sendall(b"stolen"))
print("SEEN " + json.dumps(seen), flush=True)


def update_counter(count, increment):
    return count + 1, increment
"""


def _targets(tmp_path: Path) -> dict[str, str]:
    """Another learner's home, a sibling run folder with a file in its temp folder, in the run's TMPDIR."""
    other = tmp_path / "other-home"
    other.mkdir()
    (other / "progress.json").write_text('{"schema": 1, "exercises": {"counter-jit": {"status": "passed"}}}')
    (other / ".serve-token").write_text("seat-s3cret")
    sibling = tmp_path / "tmp" / f"{RUN_DIR_PREFIX}sibling" / "tmp"
    sibling.mkdir(parents=True)
    (sibling / "notes.txt").write_text("another run's s3cret")
    return {
        "progress": str(other / "progress.json"),
        "serve-token": str(other / ".serve-token"),
        "sibling-run": str(sibling / "notes.txt"),
        "solution": str(ROOT / "solutions" / f"{EXERCISE}.py"),
        "case": str(correct_variants(ROOT / CASES / EXERCISE)[0]),
    }


def _check(tmp_path: Path, cmd_prefix: list[str]) -> tuple[dict, dict, bytes, str]:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    program = tmp_path / "attack.py"
    program.write_text(ATTACK.format(targets=_targets(tmp_path), port=listener.getsockname()[1]))
    env = {**os.environ, **SECRETS, "PYTHONPATH": str(ROOT), "JAXSTATE_TUTOR_LANG": "en"}
    env["JAXSTATE_TUTOR_HOME"] = str(tmp_path / "home")
    env.pop("JAXSTATE_TUTOR_ACCELERATOR", None)
    env.pop("JAXSTATE_TUTOR_COURSE", None)  # the shipped course: its solutions/ and tests/cases/ beside it
    try:
        proc = subprocess.run(
            # TMPDIR set inside (runsc keeps its own files in the outer one): the run folders' folder
            [*cmd_prefix, "env", f"TMPDIR={tmp_path / 'tmp'}", sys.executable, "-m", "tutor", "check", EXERCISE]
            + ["--file", str(program), "--json"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            timeout=600,
        )
        try:
            conn, _ = listener.accept()
            heard = conn.recv(100) or b"(a connection)"
        except BlockingIOError:
            heard = b""
    finally:
        listener.close()
    assert proc.stdout, proc.stderr.decode(errors="replace")[-3000:]
    doc = json.loads(proc.stdout)
    lines = [line for line in doc["stdout"].splitlines() if line.startswith("SEEN ")]
    assert lines, doc
    return doc, json.loads(lines[0][5:]), heard, proc.stderr.decode(errors="replace")


def _assert_nothing_seen(doc: dict, seen: dict, heard: bytes) -> None:
    assert (doc["status"], doc["kind"]) == ("pass", "checks"), doc["message"]  # a correct program does not notice
    assert heard == b"", heard
    assert seen["environ"] == "read: 'nothing'", seen
    for name, what in seen.items():
        if name == "environ":
            continue
        assert what.startswith("refused: "), (name, what)
        if name != "tcp":  # Python's own calls: the hook names the rule, in both languages
            assert "may read only its own folder, the course and Python" in what, (name, what)
            assert "只能读取它自己的文件夹" in what, (name, what)
    assert "may not open network sockets" in seen["tcp"], seen


def test_a_check_sees_nothing_of_other_people_and_reaches_no_listener(tmp_path):
    doc, seen, heard, stderr = _check(tmp_path, [])
    _assert_nothing_seen(doc, seen, heard)
    assert "audit hook alone" not in stderr, stderr  # Landlock here: the kernel holds it


def _gvisor_runs() -> bool:
    if not shutil.which("runsc"):
        return False
    try:
        return (
            subprocess.run(["runsc", "--network=none", "do", "true"], capture_output=True, timeout=60).returncode == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _gvisor_runs(), reason="runsc (gVisor) is not installed or cannot run here")
def test_under_gvisor_the_hook_alone_sees_to_the_same(tmp_path):
    """gVisor has no Landlock (the TPU VM is gVisor): the audit hook is the read fence there."""
    doc, seen, heard, stderr = _check(tmp_path, ["runsc", "--network=none", "do"])
    _assert_nothing_seen(doc, seen, heard)
    # said once, for the command, not per run: what holds there is the hook
    assert stderr.count("held by Python's audit hook alone (no Landlock in this kernel)") == 1, stderr
    # and honestly (issue 50's red team on 944540f: a check called libc's syscall() at its address,
    # found in /proc/self/maps, and read a file outside; the notice said C was refused outright)
    assert "calls C at a raw address still gets past it" in stderr and "seccomp" in stderr, stderr
