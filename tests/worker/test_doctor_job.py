"""The doctor job end to end: real scripts in real workers (Sandbox.run_doctor), their output
streamed, the report carried by the verdict, stopped by the time limit and by Run.stop().

A stop is sent when the script prints that it reached the point the test means, never after a
delay: a doctor worker starts JAX's backend at the script's first array (in C++, where SIGINT
waits), and a stop that lands there waits for it. On a loaded machine (load ~10, JAX 0.12) the
start took more than the report's grace (STOP_GRACE_S) and the run ended error / stopped, "stopped
before the doctor could report"; here, with the CPU cut to 20 %, a stop 0.08-0.14 s after the first
line did so 3 times in 18."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.doctor import wording
from tutor.doctor.teaching import teaching
from tutor.paths import shipped_course_root
from tutor.sandbox.events import Output, Verdict
from tutor.sandbox.run import STOP_GRACE_S
from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # real workers, JAX

SCRIPTS = Path(__file__).resolve().parents[1] / "doctor"
LOOP = """\
import os, sys
import jax, jax.numpy as jnp
print("argv", sys.argv[1:], "cwd", os.getcwd(), flush=True)
x = jnp.ones(3)
passes = 0
while True:
    x = jax.jit(lambda v: v + 1)(x)  # a finding on every pass: a fresh function each time
    passes += 1
    if passes == 3:  # the backend started, and a finding made: what a stop is sent on
        print("looping", flush=True)
"""


@pytest.fixture(scope="module")
def box():
    sandbox = Sandbox(None, keep_spare=True, spare_early=True)
    sandbox.warm_up()
    yield sandbox
    sandbox.close()


def run_doctor(box, script: Path, args=(), cwd: Path | None = None, timeout=60.0, stop_on=None):
    """The verdict, the stdout, and the seconds from the script's first output (with `stop_on`:
    from the stop) to the verdict. `stop_on`: Run.stop() is called, from another thread, once the
    script's stdout holds this text."""
    run = box.run_doctor(script, list(args), cwd or script.parent, timeout, False)
    events, started, printed = [], None, ""
    for event in run.events():
        events.append(event)
        if isinstance(event, Output) and event.stream == "stdout":
            printed += event.text
        if started is None and isinstance(event, Output) and (stop_on is None or stop_on in printed):
            started = time.monotonic()
            if stop_on is not None:
                threading.Thread(target=run.stop).start()
    assert isinstance(events[-1], Verdict) and events[-1] is run.verdict
    assert stop_on is None or started is not None, f"the script never printed {stop_on!r}: {printed}"
    return run.verdict, printed, time.monotonic() - (started or 0.0)


def test_a_finding_comes_back_in_both_languages_with_the_scripts_output(box):
    verdict, printed, _ = run_doctor(box, SCRIPTS / "retrace_jit_in_loop.py")
    assert (verdict.status, verdict.kind) == ("findings", "doctor"), verdict.message
    assert "15.625" in printed and verdict.report.stdout == verdict.stdout == printed
    (finding,) = verdict.report.findings
    assert (finding.kind, finding.file, finding.line) == ("retrace", "retrace_jit_in_loop.py", 7)
    assert "built anew" in wording.message(finding, "en") and "重新" in wording.message(finding, "zh")
    assert (
        teaching(finding, read_course(shipped_course_root())[0].teachings()).lesson
        and verdict.checks == ()
        and verdict.report.exit_code == 0
    )


def test_the_script_gets_its_arguments_as_given_and_jaxs_explanations_stay_out_of_its_output(box, tmp_path):
    """The probe's own command is gone: the worker runs it. Arguments that look like the
    doctor's reach the script untouched, and the report travels apart from the output."""
    script = tmp_path / "argv.py"
    script.write_text(
        "import sys\nimport jax\nimport jax.numpy as jnp\nprint('args', sys.argv[1:], flush=True)\n"
        "x = jnp.ones(4)\nfor i in range(4):\n    x = jax.jit(lambda v: v + 1)(x)\n"
    )
    verdict, printed, _ = run_doctor(box, script, ["--json", "a b", "--timeout", "5"])
    assert printed.splitlines()[0] == "args ['--json', 'a b', '--timeout', '5']", printed
    assert [(f.kind, f.code, f.line) for f in verdict.report.findings] == [("retrace", "new-function", 7)]
    assert "TRACING CACHE MISS" not in verdict.stderr and "doctor-report" not in verdict.stdout + verdict.stderr
    assert verdict.report.traces and all(t.function == "<lambda>" for t in verdict.report.traces)


def test_a_clean_script_is_ok(box):
    verdict, printed, _ = run_doctor(box, SCRIPTS / "clean_train_eval.py")
    assert (verdict.status, verdict.kind, verdict.report.findings) == ("ok", "doctor", []), verdict.message
    assert "test accuracy" in printed


def test_the_time_limit_stops_the_script_and_keeps_the_partial_report(box, tmp_path):
    script = tmp_path / "loop.py"
    script.write_text(LOOP)
    verdict, printed, took = run_doctor(box, script, ["--steps", "9"], cwd=tmp_path, timeout=3.0)
    assert (verdict.status, verdict.kind) == ("timeout", "timeout"), verdict.message
    assert f"argv ['--steps', '9'] cwd {tmp_path}" in printed
    assert verdict.report.status == "timeout" and verdict.report.findings[0].kind == "retrace"
    assert took < 3.0 + STOP_GRACE_S + 120  # a ceiling: the kind says the time limit ended it


def test_stop_asks_the_script_to_stop_and_the_report_still_comes(box, tmp_path):
    script = tmp_path / "loop.py"
    script.write_text(LOOP)
    verdict, _, _ = run_doctor(box, script, stop_on="looping")
    # the report came within the grace (else: error / stopped), with the findings made before the stop
    assert (verdict.status, verdict.kind) == ("findings", "stopped"), verdict.message
    assert verdict.report.exit_code == 130


def test_a_script_that_will_not_stop_is_killed_without_a_report(box, tmp_path):
    script = tmp_path / "stubborn.py"
    # SIGINT ignored before 'go' (a try/except around a sleep leaves a window, between two passes,
    # where the interrupt ends the script after all)
    script.write_text(
        "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint('go', flush=True)\ntime.sleep(600)\n"
    )
    # a time limit far off, so that only the stop's grace can end it; the ceiling tells which
    verdict, _, took = run_doctor(box, script, stop_on="go", timeout=600.0)
    assert (verdict.status, verdict.kind, verdict.report) == ("error", "stopped", None), verdict.message
    assert STOP_GRACE_S <= took < STOP_GRACE_S + 120  # killed at the end of the grace, not at the time limit


def test_a_worker_that_exits_without_a_report_is_an_error_never_ok(box, tmp_path):
    script = tmp_path / "exits.py"
    script.write_text("import os\nprint('bye', flush=True)\nos._exit(0)\n")
    verdict, printed, _ = run_doctor(box, script)
    assert verdict.status == "error" and verdict.report is None and printed == "bye\n", verdict.message
