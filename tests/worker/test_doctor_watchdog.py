"""The doctor's report comes at the time limit even when SIGINT cannot stop the script: a script
that swallows KeyboardInterrupt (or sits in a long call in C, where Python acts on no signal)
used to let the parent's grace run out: "no report", and the findings made before were lost.
tutor/child/doctor_job.py's watchdog hears the signal on a wake-up pipe and reports itself."""

from __future__ import annotations

import pytest

from tutor.sandbox.events import Verdict
from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # a real worker, JAX

SWALLOWS = """\
import time
import jax
import jax.numpy as jnp

x = jnp.ones(3)
for _ in range(5):
    x = jax.jit(lambda v: v + 1)(x)  # a new function on every pass: a finding
print("looping", flush=True)
while True:
    try:
        time.sleep(100)
    except KeyboardInterrupt:
        print("interrupted, going on", flush=True)
"""


def test_a_script_that_swallows_the_stop_still_gets_its_report_at_the_time_limit(tmp_path):
    script = tmp_path / "swallow.py"
    script.write_text(SWALLOWS, encoding="utf-8")
    sandbox = Sandbox(None)
    try:
        run = sandbox.run_doctor(script, [], tmp_path, 6.0, False)
        events = list(run.events())
    finally:
        sandbox.close()
    verdict = run.verdict
    assert isinstance(events[-1], Verdict) and verdict.report is not None, verdict.message
    assert verdict.status == "timeout" and verdict.report.status == "timeout"
    assert "interrupted, going on" in verdict.stdout  # the stop reached the script, which went on
    assert [(f.kind, f.code, f.line) for f in verdict.report.findings] == [("retrace", "new-function", 7)]
    assert "stopped" in verdict.report.blinded and verdict.report.traces
