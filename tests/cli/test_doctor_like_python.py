"""`doctor` runs the learner's program as `python` would (issue #26, item 4): a real CLI process
and a real worker each. No JAX backend exists before the script (XLA_FLAGS and
jax_num_cpu_devices count), the learner's folder and a relative PYTHONPATH are read as Python
reads them, `-m package.module` runs, stdin reaches the script, no memory cap applies that
`python` would not have, and every byte of output passes through (the JSON says where it kept
only the start, and why)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.sandbox.runner import DOCTOR_KEEP_CHARS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def doctor(home: Path, cwd: Path, *args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    base = dict(os.environ, JAXSTATE_TUTOR_HOME=str(home), JAXSTATE_TUTOR_LANG="en", PYTHONPATH=str(ROOT))
    base.pop("JAX_DISABLE_JIT", None)
    return subprocess.run(
        [sys.executable, "-m", "tutor", "doctor", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        cwd=cwd,
        timeout=300,
    )


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def test_no_backend_before_the_script_so_its_device_count_settings_count(tmp_path):
    # JAX's own training cookbook sets jax_num_cpu_devices first thing; on a worker whose backend
    # was made before the script this raised "should be updated before backends are initialized"
    write(
        tmp_path,
        "cookbook.py",
        """\
        import jax
        jax.config.update("jax_num_cpu_devices", 4)
        print("devices", len(jax.devices()))
        """,
    )
    write(tmp_path, "flags.py", "import jax\nprint('devices', len(jax.devices()))\n")
    done = doctor(tmp_path, tmp_path, "cookbook.py")
    assert done.returncode == 0 and "devices 4" in done.stdout, done.stderr[-2000:]
    flags = {"XLA_FLAGS": "--xla_force_host_platform_device_count=3"}
    done = doctor(tmp_path, tmp_path, "flags.py", env=flags)
    assert done.returncode == 0 and "devices 3" in done.stdout, done.stderr[-2000:]


def test_dash_m_a_relative_pythonpath_the_learners_folder_and_stdin(tmp_path):
    project = tmp_path / "project"
    write(project, "lib/helpers.py", "SCALE = 7\n")
    write(project, "pkg/__init__.py", "")
    write(
        project,
        "pkg/train.py",
        """\
        import os
        import sys
        import helpers  # found through PYTHONPATH=lib, relative to the learner's folder
        from pkg import __name__ as pkg_name  # -m puts the current folder first on sys.path
        print("scale", helpers.SCALE, "pkg", pkg_name, "cwd", os.path.basename(os.getcwd()))
        print("argv", sys.argv[1:])
        print("read", sys.stdin.readline().strip())
        """,
    )
    done = doctor(
        tmp_path,
        project,
        "-m",
        "pkg.train",
        "--lr",
        "0.5",
        "--nans",
        "drop",
        stdin="batch one\n",
        env={"PYTHONPATH": "lib"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "scale 7 pkg pkg cwd project" in done.stdout
    assert "argv ['--lr', '0.5', '--nans', 'drop']" in done.stdout
    assert "read batch one" in done.stdout
    assert "doctor: pkg.train" in done.stdout


def test_dash_m_of_a_module_that_is_not_there_says_so_as_python_does(tmp_path):
    done = doctor(tmp_path, tmp_path, "--json", "-m", "no_such_pkg.train")
    assert done.returncode == 3, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert data["status"] == "error" and "No module named 'no_such_pkg'" in data["stderr"]


def test_no_memory_cap_a_plain_run_would_not_have(tmp_path):
    write(
        tmp_path,
        "limits.py",
        """\
        import resource
        print("data", resource.getrlimit(resource.RLIMIT_DATA)[0])
        """,
    )
    done = doctor(tmp_path, tmp_path, "limits.py")
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"data {resource.getrlimit(resource.RLIMIT_DATA)[0]}" in done.stdout


def test_every_byte_of_a_long_log_passes_through_and_the_json_says_where_it_was_cut(tmp_path):
    # the 279 KB log showed 100,000 characters, cut mid-line with no notice; past 8 MB
    # the script was stopped. Now the log passes whole; the JSON keeps DOCTOR_KEEP_CHARS and says so.
    lines = DOCTOR_KEEP_CHARS // 50 + 2000
    write(
        tmp_path,
        "log.py",
        f"""\
        import sys
        for i in range({lines}):
            print(f"step {{i:09d}} loss 0.123456 acc 0.98765 lr 0.001 ....")
        print("last line", file=sys.stderr)
        """,
    )
    line_chars = len("step 000000000 loss 0.123456 acc 0.98765 lr 0.001 ....\n")
    done = doctor(tmp_path, tmp_path, "log.py")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("\n") >= lines and f"step {lines - 1:09d}" in done.stdout
    assert "last line" in done.stderr
    done = doctor(tmp_path, tmp_path, "--json", "log.py")
    data = json.loads(done.stdout)
    assert len(data["stdout"]) == DOCTOR_KEEP_CHARS and data["stderr"] == "last line\n"
    assert data["output_cut"] == {"stdout": {"kept_chars": DOCTOR_KEEP_CHARS, "total_chars": lines * line_chars}}
    assert "stderr" not in data["output_cut"]


def _notebook(path: Path, cells: list[tuple[str, str]]) -> Path:
    path.write_text(
        json.dumps(
            {
                "cells": [{"cell_type": kind, "metadata": {}, "source": source} for kind, source in cells],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        ),
        encoding="utf-8",
    )
    return path


def test_a_notebook_runs_cell_by_cell_and_findings_name_the_cell_and_its_line(tmp_path):
    _notebook(
        tmp_path / "demo.ipynb",
        [
            ("markdown", "# Losses kept in a list"),
            ("code", "%matplotlib inline\nimport jax\nimport jax.numpy as jnp\nhistory = []\n"),
            ("markdown", "The step."),
            (
                "code",
                "@jax.jit\ndef step(w, x):\n    loss = jnp.mean((w * x - 1.0) ** 2)\n"
                "    history.append(loss)\n    return w - 0.1 * loss\n",
            ),
            (
                "code",
                "!echo shell\nw = jnp.float32(0.0)\nfor _ in range(3):\n    w = step(w, jnp.arange(3.0))\nprint(len(history), 'entries')\n",
            ),
        ],
    )
    done = doctor(tmp_path, tmp_path, "--json", "demo.ipynb")
    assert done.returncode == 1, done.stderr[-2000:]
    data = json.loads(done.stdout)
    assert "1 entries" in data["stdout"]  # the cells ran in order, the IPython lines passed over
    (finding,) = data["findings"]
    assert (finding["kind"], finding["file"], finding["line"]) == ("side-effect", "demo.ipynb, cell 4", 4)


def test_a_notebook_with_a_failing_cell_shows_the_cells_own_line(tmp_path):
    _notebook(tmp_path / "fails.ipynb", [("code", "x = 1\n"), ("code", "y = 2\nraise ValueError('from cell 2')\n")])
    done = doctor(tmp_path, tmp_path, "--json", "fails.ipynb")
    data = json.loads(done.stdout)
    assert data["status"] == "error", data
    assert "raise ValueError('from cell 2')" in data["stderr"]  # the cell's source, not the notebook's JSON


def test_a_file_that_is_not_a_notebook_is_refused_by_name(tmp_path):
    (tmp_path / "broken.ipynb").write_text("{not json", encoding="utf-8")
    done = doctor(tmp_path, tmp_path, "broken.ipynb")
    assert done.returncode == 2
    assert "cannot be read as a notebook" in done.stderr
