"""The command line as scripts and people use it: real subprocesses, real JAX."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT, cli_env


def tutor(home, *args, input=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "tutor", *args], capture_output=True, text=True,
                          env=cli_env(home), timeout=timeout, input=input, cwd=ROOT)


def test_version_and_help(tmp_path):
    assert tutor(tmp_path, "--version").stdout.startswith("jaxstate-tutor ")
    out = tutor(tmp_path, "--help").stdout
    for command in ("list", "check", "hint", "solution", "reset", "progress", "verify", "validate", "watch"):
        assert command in out


def test_list_json_contract(tmp_path, course):
    doc = json.loads(tutor(tmp_path, "list", "--json").stdout)
    assert set(doc) == {"lessons", "exercises", "quiz"}
    assert [e["id"] for e in doc["exercises"]] == [e.id for e in course.exercises]
    assert all(set(e) == {"id", "lesson", "title", "status"} and e["status"] == "new" for e in doc["exercises"])
    assert set(doc["quiz"]) == {"questions", "answered", "best_score"}


def test_check_workspace_starter_fails_then_solution_passes(tmp_path, course):
    proc = tutor(tmp_path, "check", "counter-jit", "--json")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["exercise"] == "counter-jit" and doc["status"] == "fail"
    assert {"exercise", "status", "checks", "stdout", "stderr", "duration_s", "metrics"} <= set(doc)
    assert all(set(c) >= {"id", "name", "status", "message"} for c in doc["checks"])
    assert (tmp_path / "workspace" / "counter-jit.py").read_text() == course.exercise("counter-jit").starter

    solution = ROOT / "solutions" / "counter-jit.py"
    proc = tutor(tmp_path, "check", "counter-jit", "--file", str(solution), "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["status"] == "pass"

    progress = json.loads(tutor(tmp_path, "progress", "--json").stdout)
    assert progress["exercises"]["counter-jit"] == {"status": "passed", "attempts": 2, "hints_shown": 0,
                                                    "solution_viewed": False}
    listed = json.loads(tutor(tmp_path, "list", "--json").stdout)
    assert {e["id"]: e["status"] for e in listed["exercises"]}["counter-jit"] == "passed"


def test_human_output_names_failing_check(tmp_path):
    proc = tutor(tmp_path, "check", "counter-jit", "--lang", "zh")
    assert proc.returncode == 1
    assert "counts-up" in proc.stdout and "未通过" in proc.stdout


@pytest.mark.parametrize("args", [("check", "no-such-exercise"), ("hint", "nope"), ("solution", "nope"),
                                  ("reset", "nope"), ("check",), ("--bogus-flag",), ("check", "counter-jit", "--timeout", "x")])
def test_bad_usage_exits_2(tmp_path, args):
    proc = tutor(tmp_path, *args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("content, needle", [
    (None, "not found"), (b"\x00\x01binary", "binary"), (b"x = '\xff\xfe'\n", "UTF-8"), (b"#" * 2_000_000, "kB"),
])
def test_bad_learner_file_exits_2(tmp_path, content, needle):
    path = tmp_path / "learner.py"
    if content is not None:
        path.write_bytes(content)
    proc = tutor(tmp_path, "check", "counter-jit", "--file", str(path))
    assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr


def test_hints_progress_and_solution(tmp_path):
    first = tutor(tmp_path, "hint", "counter-jit").stdout
    second = tutor(tmp_path, "hint", "counter-jit").stdout
    assert "Hint 1 of" in first and "Hint 2 of" in second
    shown = tutor(tmp_path, "solution", "counter-jit").stdout  # not a TTY: no prompt
    assert "def update_counter" in shown
    rec = json.loads(tutor(tmp_path, "progress", "--json").stdout)["exercises"]["counter-jit"]
    assert rec["hints_shown"] == 2 and rec["solution_viewed"] is True


def test_progress_lists_predictions_beside_the_contract_keys(tmp_path):
    from tutor.progress import ProgressStore

    store = ProgressStore(tmp_path)
    store.record_prediction("l61-global-write", "3")
    store.record_reveal("l61-global-write", "1", False)
    store.record_prediction("l64-leaves-order", "B")
    doc = json.loads(tutor(tmp_path, "progress", "--json").stdout)
    assert {"exercises", "lessons", "quiz"} <= doc.keys()
    assert doc["predictions"] == {"l61-global-write": {"answer": "3", "shown": "1", "correct": False},
                                  "l64-leaves-order": {"answer": "B", "shown": None, "correct": None}}
    assert "Predictions: 0 of 2 right" in tutor(tmp_path, "progress").stdout


def test_reset_keeps_a_backup(tmp_path, course):
    tutor(tmp_path, "check", "counter-jit")
    ws = tmp_path / "workspace" / "counter-jit.py"
    ws.write_text("# my work\n")
    proc = tutor(tmp_path, "reset", "counter-jit")
    assert proc.returncode == 0
    assert ws.read_text() == course.exercise("counter-jit").starter
    backups = list((tmp_path / "workspace" / ".backup").glob("counter-jit-*.py"))
    assert [b.read_text() for b in backups] == ["# my work\n"]


def test_home_flag_and_env_agree(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    proc = subprocess.run([sys.executable, "-m", "tutor", "--home", str(b), "hint", "counter-jit"],
                          capture_output=True, text=True, env=cli_env(a), cwd=ROOT, timeout=60)
    assert proc.returncode == 0
    assert (b / "progress.json").exists() and not (a / "progress.json").exists()


def test_watch_rechecks_on_save(tmp_path):
    import time

    ws = tmp_path / "workspace" / "counter-jit.py"
    proc = subprocess.Popen([sys.executable, "-m", "tutor", "watch", "counter-jit", "--interval", "0.2"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=cli_env(tmp_path), cwd=ROOT)
    try:
        lines = []
        deadline = time.monotonic() + 90
        saved = False
        for line in proc.stdout:
            lines.append(line)
            if "FAIL" in line and not saved:
                ws.write_text((ROOT / "solutions" / "counter-jit.py").read_text() + "\n# saved\n")
                saved = True
            if "PASS" in line or time.monotonic() > deadline:
                break
        assert saved and any("PASS" in l for l in lines), "".join(lines)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    attempts = json.loads(tutor(tmp_path, "progress", "--json").stdout)["exercises"]["counter-jit"]["attempts"]
    assert attempts == 2


def test_tui_refuses_dumb_terminal(tmp_path):
    env = cli_env(tmp_path)
    env["TERM"] = "dumb"
    proc = subprocess.run([sys.executable, "-m", "tutor"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and "jaxstate-tutor list" in proc.stderr


def test_workers_use_the_cpu_unless_asked(tmp_path):
    from tutor.course.model import Cell
    from tutor.sandbox.runner import Sandbox

    probe = Cell(id="platforms", code="import os\nprint('platforms=' + os.environ.get('JAX_PLATFORMS', '<unset>'))")
    box = Sandbox(tmp_path)
    try:
        assert "platforms=cpu" in box.run_cell(probe).result().stdout
    finally:
        box.close()
    opted = Sandbox(tmp_path, accelerator=True)
    try:
        out = opted.run_cell(probe).result().stdout
    finally:
        opted.close()
    import os

    assert out.strip() == "platforms=" + os.environ.get("JAX_PLATFORMS", "<unset>")


def test_check_json_is_strict_json_even_when_the_loss_diverges(tmp_path):
    """A learner's RMSProp that blows up streams NaN/inf losses; the JSON must stay parseable."""
    diverging = tmp_path / "rmsprop.py"
    diverging.write_text((ROOT / "solutions" / "rmsprop.py").read_text() + """
import jax as _jax
_good = rmsprop

def rmsprop(lr, rho=0.9, eps=1e-8):
    opt = _good(lr, rho, eps)

    def update(grads, state, params=None):
        updates, state = opt.update(grads, state, params)
        return _jax.tree.map(lambda u: u * 1e30, updates), state

    return type(opt)(opt.init, update)
""")
    proc = tutor(tmp_path, "check", "rmsprop", "--file", str(diverging), "--json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout, parse_constant=lambda name: pytest.fail(f"non-standard JSON constant {name}"))
    assert doc["status"] == "fail"
    losses = doc["metrics"]["loss"]
    assert None in losses, "the diverging run should have produced non-finite losses"
