"""A spare worker taken long after it got ready still runs its job.

The start-up limit counts from the spawn; a spare that waited (the learner read a lesson for a few
minutes) has its "ready" still unread in the pipe. Its run once ended at once as error / startup
("did not get ready in 120 s", 0.00 s): in the TUI, in CI's scratch and doctor tests.
"""

from __future__ import annotations

import select

import pytest

from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # a real worker


def test_a_spare_older_than_the_start_up_limit_runs_its_job(tmp_path):
    box = Sandbox(tmp_path / "home", keep_spare=True, spare_early=True)
    try:
        box.warm_up()
        spare = box._spare
        # Ready, and nobody has read it: wait until the pipe has something, without reading it.
        assert select.select([spare.event_fd], [], [], 120)[0], "the worker never wrote to its event pipe"
        spare.spawned_at -= box.limits.startup_s + 60  # as if spawned minutes ago
        script = tmp_path / "hello.py"
        script.write_text("print('hello from an old spare')\n", encoding="utf-8")
        verdict = box.run_doctor(script, [], tmp_path, 60.0, False).result()
        assert verdict.kind == "doctor", (verdict.kind, verdict.message.en)  # was: startup, at once
        assert verdict.report.status == "ok"
        assert "hello from an old spare" in verdict.stdout
    finally:
        box.close()
