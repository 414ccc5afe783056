"""The transfer guard as a second witness of host syncs (issue 42, item 2): on an accelerator,
JAX's device-to-host guard logs every copy from the device, and the report says when it saw
clearly more than the doctor placed at the learner's lines. On the CPU the guard sees nothing
(a CPU array is host memory), so there the witness is not installed at all; its wiring (fd 2
read through a pipe, the guard's lines counted and kept out of the learner's stderr, the rest
passed on, the option set and put back) is tested here on the CPU by forcing it on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tutor.doctor.findings import Report
from tutor.doctor.report_json import report_json
from tutor.doctor.report_text import render_text
from tutor.protocol import ScriptReport

ROOT = Path(__file__).resolve().parents[2]

WIRING = textwrap.dedent("""
    import json, os, sys
    sys.path.insert(0, sys.argv[1])
    import jax
    from tutor.child.doctor.hooks import Hooks
    from tutor.child.doctor.transfers import OPTION, TransferGuard, on_cpu_only

    def fd2():
        st = os.fstat(2)
        return (st.st_dev, st.st_ino)

    out = {"cpu_only": on_cpu_only(), "option_before": jax.config.values.get(OPTION)}
    plain, hooks = TransferGuard(lambda: 0), Hooks()
    before = fd2()
    plain.install(hooks)
    out["plain_installed"], out["plain_same_fd2"] = plain.installed, fd2() == before
    hooks.undo()

    pulls = [0]
    forced, hooks = TransferGuard(lambda: pulls[0], force=True), Hooks()
    forced.install(hooks)
    out["forced_installed"], out["forced_option"] = forced.installed, jax.config.values.get(OPTION)
    line = b"W1206 06:11:11.123456   99 transfer_guard_lib.cc:41] device-to-host transfer: aval=f32[]\\n"
    for i in range(25):
        os.write(2, line[: 10] )  # a log line can come in pieces
        os.write(2, line[10:])
        os.write(2, f"learner line {i}\\n".encode())
    os.write(2, b"progress 50%")  # no newline: passed on all the same
    hooks.undo()
    out["logged"] = forced.logged
    out["unplaced_with_no_pulls"] = forced.unplaced()
    pulls[0] = 25
    out["unplaced_with_25_pulls"] = forced.unplaced()
    out["option_after"] = jax.config.values.get(OPTION)
    out["fd2_back"] = fd2() == before
    print("WIRING " + json.dumps(out))
""")


def _run(platforms: str) -> tuple[dict, str]:
    env = dict(os.environ, JAX_PLATFORMS=platforms, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", WIRING, str(ROOT)], capture_output=True, text=True, timeout=300, env=env
    )
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("WIRING ")), None)
    assert line, done.stderr[-3000:]
    return json.loads(line[len("WIRING ") :]), done.stderr


def test_on_the_cpu_the_guard_is_not_installed_and_forced_on_it_counts_its_lines_and_passes_the_rest():
    out, stderr = _run("cpu")
    assert out["cpu_only"] and not out["plain_installed"] and out["plain_same_fd2"], out
    assert out["forced_installed"] and out["forced_option"] == "log_explicit", out
    assert out["logged"] == 25, out
    assert "device-to-host transfer" not in stderr  # the guard's lines are the doctor's, not the learner's
    assert all(f"learner line {i}\n" in stderr for i in range(25)) and stderr.endswith("progress 50%"), stderr
    assert out["unplaced_with_no_pulls"] and not out["unplaced_with_25_pulls"], out
    assert out["option_after"] == out["option_before"] and out["fd2_back"], out


def test_a_run_on_an_accelerator_is_not_taken_for_the_cpu():
    from tutor.child.doctor.transfers import cpu_only

    assert cpu_only("cpu") and cpu_only(" CPU ")
    assert not cpu_only("tpu") and not cpu_only("cuda,cpu") and not cpu_only("")  # "": JAX may pick a chip


def test_the_report_says_what_the_guard_saw_and_claims_no_clean_run():
    report = Report.from_wire(ScriptReport("train.py", "ok", 0, 3.0, blinded=("transfers",)))
    text = render_text(report, "en")
    assert "transfer guard saw more copies" in text and "No findings among what the doctor could see" in text
    assert "传输守卫" in render_text(report, "zh")
    assert report_json(report, "en")["blinded"] == ["transfers"]
