"""README's "Teaching a class" walk, its commands run as written, each by whom the README says:
the instructor's block (the roster, `exchange init`), each learner's block in their own Unix
account (`check`, `submit`), the instructor's last block (`grade ... --wide gradebook.csv`,
`cat gradebook.csv`). Only the learners' names and the exchange's path are the test's own (the
accounts are made for the test and removed after; /srv is not the test's to write).

Needs root, and an install of the tutor other accounts can run (JAXSTATE_TUTOR_HUB_VENV, as for
the JupyterHub test: docs/JUPYTERHUB.md's install); skipped, saying which, otherwise.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV_VAR = "JAXSTATE_TUTOR_HUB_VENV"
EXCHANGE = "/srv/jaxstate-exchange"
pytestmark = pytest.mark.slow


def _walk() -> dict[str, list[str]]:
    """The README's walk: each ```sh block of "Teaching a class" whose first line is a `# who`
    comment, as its command lines."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Teaching a class\n(.*?)(?=^## )", readme, re.M | re.S)
    assert section, "README has no 'Teaching a class' section"
    blocks = {}
    for block in re.findall(r"```sh\n(.*?)```", section.group(1), re.S):
        lines = block.strip().splitlines()
        if lines and lines[0].startswith("# the instructor, once"):
            blocks["setup"] = lines[1:]
        elif lines and lines[0].startswith("# each learner"):
            blocks["learner"] = lines[1:]
        elif lines and lines[0].startswith("# the instructor, after"):
            blocks["grade"] = lines[1:]
    assert set(blocks) == {"setup", "learner", "grade"}, f"the walk's blocks: {sorted(blocks)}"
    return blocks


@pytest.fixture
def installed():
    venv = os.environ.get(VENV_VAR)
    if not venv or not (Path(venv) / "bin" / "jaxstate-tutor").exists():
        pytest.skip(f"no install of the tutor learners can run: make one as docs/JUPYTERHUB.md says, set {VENV_VAR}")
    return Path(venv)


def _sh(line: str, cwd: Path, venv: Path, user: str | None = None) -> subprocess.CompletedProcess:
    env = {
        "PATH": f"{venv / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "JAXSTATE_TUTOR_LANG": "en",
    }
    argv = ["/bin/sh", "-c", line]
    if user is not None:
        home = os.path.expanduser(f"~{user}")
        argv = [
            shutil.which("runuser") or "runuser",
            "-u",
            user,
            "--",
            "env",
            f"HOME={home}",
            *(f"{k}={v}" for k, v in env.items()),
            *argv,
        ]
    return subprocess.run(argv, cwd=cwd, env={**env, "HOME": str(cwd)}, capture_output=True, text=True, timeout=600)


def test_the_readme_walk_roster_submit_grade_gradebook(installed, class_accounts):
    walk = _walk()
    ann, bob = class_accounts("ann"), class_accounts("bob")
    work = Path(tempfile.mkdtemp(prefix="jaxstate-test-walk-", dir="/tmp"))
    work.chmod(0o755)
    exchange = str(work / "exchange")
    teach = work / "teach"
    teach.mkdir(mode=0o700)
    try:
        for line in walk["setup"]:
            line = re.sub(r"\bann\b", ann.name, re.sub(r"\bbob\b", bob.name, line)).replace(EXCHANGE, exchange)
            done = _sh(line, teach, installed)
            assert done.returncode == 0, (line, done.stdout, done.stderr)

        # ann has done counter-jit (her file is the reference solution); bob handed in the starter
        home = ann.home / ".local/share/jaxstate-tutor"
        (home / "workspace").mkdir(parents=True)
        shutil.copy(ROOT / "solutions" / "counter-jit.py", home / "workspace" / "counter-jit.py")
        subprocess.run(["chown", "-R", f"{ann.name}:{ann.name}", str(ann.home / ".local")], check=True)
        subprocess.run(["chmod", "-R", "go-rwx", str(ann.home / ".local")], check=True)
        for learner, passes in ((ann, True), (bob, False)):
            for line in walk["learner"]:
                done = _sh(line.replace(EXCHANGE, exchange), learner.home, installed, learner.name)
                expected = (0 if passes else 1) if " check " in f" {line} " else 0
                assert done.returncode == expected, (learner.name, line, done.stdout, done.stderr)

        outputs = []
        for line in walk["grade"]:
            done = _sh(line.replace(EXCHANGE, exchange), teach, installed)
            assert done.returncode == 0, (line, done.stdout, done.stderr)
            outputs.append(done.stdout)
        gradebook = list(csv.reader(io.StringIO((teach / "gradebook.csv").read_text(encoding="utf-8"))))
        assert outputs[-1].splitlines() == (teach / "gradebook.csv").read_text(encoding="utf-8").splitlines()
        header = gradebook[0]
        total = header.index("Total")
        counter = header.index(next(h for h in header if "counter-jit" in h))
        ann_line = next(line for line in gradebook if "Ann Lee" in line)
        bob_line = next(line for line in gradebook if "Bob Ray" in line)
        assert float(ann_line[counter]) > 0 and float(bob_line[counter] or 0) == 0, (ann_line, bob_line)
        assert float(ann_line[total]) > float(bob_line[total] or 0)
    finally:
        subprocess.run(["rm", "-rf", "--one-file-system", str(work)], check=False)
