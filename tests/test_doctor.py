"""doctor's instrumentation core: each script in tests/doctor/ runs under the probe (real JAX,
in a separate process) and must give exactly the findings its `# finding: <kind>` markers name,
kind and line; the clean training scripts must give none. All scripts share one process."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tutor.doctor.findings import KINDS, TEACHES, Finding, Report, group

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "tests" / "doctor"

MARKER = re.compile(r"#\s*finding:\s*([\w-]+)")
CONTRACT_KEYS = {"script", "status", "exit_code", "duration_s", "findings", "stdout", "stderr"}
FINDING_KEYS = {"kind", "function", "file", "line", "count", "message", "lesson"}


def expected(path: Path) -> list[tuple[str, int]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return sorted((m.group(1), i) for i, text in enumerate(lines, 1) if (m := MARKER.search(text)))


def wants_nans(path: Path) -> bool:
    return "# doctor: --nans" in path.read_text(encoding="utf-8")


# --nans scripts first: JAX 0.10.2 misses a NaN under jax_debug_nans switched on after some
# other jitted code ran in the process (clean_train_eval.py, even without the probe). A real
# doctor run is one script per process with the option set before it starts.
ALL = sorted(SCRIPTS.glob("*.py"), key=lambda p: (not wants_nans(p), p.name))
CLEAN = [p for p in ALL if not expected(p)]

BATCH = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, sys.argv[1])
    from tutor.doctor.probe import examine_captured
    out = {}
    for item in json.loads(sys.argv[2]):
        report = examine_captured(item["path"], [], item["nans"])
        data = report.to_json("en")
        data["reasons"] = [f.reason for f in report.findings]
        out[item["path"]] = data
    print("REPORTS " + json.dumps(out))
""")


def _env() -> dict:
    # XLA's backend optimizations change neither traces, cache misses, donation nor NaNs, and
    # skipping them takes about a third off this file's CPU time (compiles dominate it).
    flags = (os.environ.get("XLA_FLAGS", "") + " --xla_backend_optimization_level=0").strip()
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(ROOT), XLA_FLAGS=flags)
    env.pop("JAX_DISABLE_JIT", None)
    return env


@pytest.fixture(scope="module")
def reports() -> dict:
    items = [{"path": str(p), "nans": wants_nans(p)} for p in ALL]
    done = subprocess.run(
        [sys.executable, "-c", BATCH, str(ROOT), json.dumps(items)],
        capture_output=True,
        text=True,
        timeout=600,
        env=_env(),
    )
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("REPORTS ")), None)
    assert line, f"the batch printed no reports (exit {done.returncode}):\n{done.stderr[-3000:]}"
    return json.loads(line[len("REPORTS ") :])


@pytest.mark.slow  # `reports` runs every script under the probe, with JAX
@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_findings_match_markers(reports, path):
    report = reports[str(path)]
    got = sorted((f["kind"], f["line"]) for f in report["findings"])
    assert got == expected(path), (
        f"{path.name}: findings {report['findings']}\n"
        f"stdout: {report['stdout'][-800:]}\nstderr: {report['stderr'][-1500:]}"
    )
    for f in report["findings"]:
        assert f["file"] == path.name and f["count"] >= 1 and f["message"]
    assert set(report) - {"reasons"} == CONTRACT_KEYS
    assert report["status"] in ("findings", "error") if got else report["status"] == "ok"


def test_every_kind_is_triggered_twice_and_three_clean_scripts_stay_clean():
    per_kind = {kind: sum(any(k == kind for k, _ in expected(p)) for p in ALL) for kind in KINDS}
    assert all(n >= 2 for n in per_kind.values()), per_kind
    assert len(CLEAN) >= 3


@pytest.mark.slow
def test_script_output_and_exit_code_pass_through(reports):
    clean = reports[str(SCRIPTS / "clean_scan_training.py")]
    assert clean["exit_code"] == 0 and "lr 0.05: first" in clean["stdout"]
    used_after = reports[str(SCRIPTS / "donation_used_after.py")]
    assert used_after["status"] == "error" and used_after["exit_code"] == 1
    assert "RuntimeError" in used_after["stderr"] and "probe.py" not in used_after["stderr"]


@pytest.mark.slow
def test_retrace_reasons_follow_jax_explanations(reports):
    def reasons(name):
        return reports[str(SCRIPTS / name)]["reasons"]

    assert reasons("retrace_weak_start.py") == ["weak-type"]
    assert reasons("retrace_jit_in_loop.py") == ["new-function"]
    assert reasons("retrace_growing_shape.py") == ["shape"]
    assert reasons("retrace_static_lr.py")[0] in ("static", "unexplained")  # JAX 0.12 gives no reason
    weak = reports[str(SCRIPTS / "retrace_weak_start.py")]["findings"][0]
    assert weak["lesson"] == "6.8" and "weak_type" in weak["message"]


def test_teaching_ids_exist_in_the_course(course):
    lessons = {lesson.id: lesson for lesson in course.lessons}
    for (kind, reason), taught in TEACHES.items():
        assert kind in KINDS
        if taught.lesson is None:
            continue
        assert taught.lesson in lessons, (kind, reason, taught.lesson)
        if taught.cell:
            cells = {c.id for c in _cells(lessons[taught.lesson])}
            assert taught.cell in cells, (kind, reason, taught.cell)


def _cells(lesson):
    return [block.cell for block in lesson.blocks if block.cell is not None]


def test_messages_in_both_languages():
    for kind, reason in TEACHES:
        f = Finding(
            kind,
            "step",
            "train.py",
            3,
            2,
            reason,
            {"name": "total", "types": "float32[3]", "via": "float()", "primitive": "log", "first_line": 2},
        )
        en, zh = f.message("en"), f.message("zh")
        assert en and zh and en != zh
        assert re.search(r"[\u4e00-\u9fff]", zh), (kind, reason, zh)
        assert f.why() is not None


def test_json_round_trip_and_grouping():
    a = Finding("host-sync", "step", "t.py", 9, 30, "per-step", {"via": "float()"})
    b = Finding("host-sync", "step", "t.py", 9, 5, "per-step", {"via": "float()"})
    c = Finding("retrace", "step", "t.py", 4, 1, "weak-type")
    merged = group([a, b, c])
    assert [(f.kind, f.line, f.count) for f in merged] == [("retrace", 4, 1), ("host-sync", 9, 35)]
    report = Report("t.py", exit_code=0, duration_s=1.25, findings=merged)
    report.decide_status(failed=False)
    data = report.to_json("zh")
    assert set(data) == CONTRACT_KEYS and data["status"] == "findings" and report.cli_exit_code() == 1
    assert all(FINDING_KEYS <= set(f) for f in data["findings"])
    back = Report.from_json(json.loads(json.dumps(data)))
    assert back.to_json("zh") == data


def test_the_core_imports_no_jax_and_no_textual():
    code = (
        "import sys; import tutor.doctor, tutor.doctor.findings, tutor.doctor.retraces, "
        "tutor.doctor.script_code; bad = [m for m in ('jax', 'textual') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow  # the probe runs a script with JAX
@pytest.mark.parametrize(
    "signum, status, exit_code, probe_exit",
    [
        (signal.SIGTERM, "timeout", None, 3),  # how the tutor stops a run at its time limit
        (signal.SIGINT, "findings", 130, 1),  # Ctrl+C
    ],
    ids=["sigterm", "sigint"],
)
def test_entry_point_reports_apart_from_the_output_and_stops_cleanly(tmp_path, signum, status, exit_code, probe_exit):
    """The probe's own command: the script's output passes through, the report goes to the file;
    stopped mid-run, it still writes what was seen so far."""
    script = tmp_path / "spin.py"
    script.write_text(
        textwrap.dedent("""\
        import sys, time
        import jax
        import jax.numpy as jnp
        print("args", sys.argv[1:], flush=True)
        x = jnp.ones(4)
        for i in range(4):
            x = jax.jit(lambda v: v + 1)(x)
        print("ready", flush=True)
        while True:
            time.sleep(0.05)
        """),
        encoding="utf-8",
    )
    report_path = tmp_path / "report.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tutor.doctor.probe", "--report", str(report_path), str(script), "--json", "a b"],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        lines = []
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if line.startswith("ready") or not line:
                break
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert lines[0].strip() == "args ['--json', 'a b']", lines
    assert proc.returncode == probe_exit, err
    data = json.loads(report_path.read_text(encoding="utf-8"))
    assert set(data) == CONTRACT_KEYS and data["script"] == "spin.py"
    assert (data["status"], data["exit_code"]) == (status, exit_code)
    assert [(f["kind"], f["line"]) for f in data["findings"]] == [("retrace", 7)]
    assert "TRACING CACHE MISS" not in err  # JAX's explanations are read, never printed


def test_loop_analysis_tells_every_pass_from_sometimes(tmp_path):
    from tutor.doctor.script_code import ScriptCode

    source = textwrap.dedent("""\
        def log(v):
            return float(v)
        for step in range(10):
            a = float(step)
            if float(step) > 3:
                b = float(step)
            else:
                c = float(step)
            try:
                d = float(step)
            except ValueError:
                e = float(step)
            f = [float(x) for x in range(3)]
        g = float(1)
        """)
    path = tmp_path / "loops.py"
    path.write_text(source, encoding="utf-8")
    code = ScriptCode(str(path))
    every = {line: (loop.every_pass if (loop := code.loop_around(line)) else None) for line in range(1, 15)}
    assert every[2] is None and every[14] is None  # a function body, and code after the loop
    assert every[4] and every[5] and every[10] and every[13]  # plain, an if's test, a try body
    assert every[6] is False and every[8] is False and every[12] is False
    assert code.loop_around(4) == code.loop_around(13) and code.loop_around(4).first == 3
