"""A spare worker taken long after it got ready still runs its job.

The start-up limit counts from the spawn; a spare that waited (the learner read a lesson for a few
minutes) has its "ready" still unread in the pipe. Its run once ended at once as error / startup
("did not get ready in 120 s", 0.00 s): in the TUI, in CI's scratch and doctor tests.
"""

from __future__ import annotations

import array
import fcntl
import json
import termios
import time

import pytest

from tutor.protocol import PROTOCOL_VERSION, Hello
from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # a real worker


def unread_bytes(fd: int) -> int:
    """How many bytes wait in a pipe, left where they are."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


def test_a_spare_older_than_the_start_up_limit_runs_its_job(tmp_path):
    box = Sandbox(tmp_path / "home", keep_spare=True, spare_early=True)
    try:
        box.warm_up()
        spare = box._spare
        # Ready, and nobody has read it: wait until the pipe holds more than the hello the worker
        # sends first (before its JAX import), without reading it.
        hello = len(json.dumps(Hello(PROTOCOL_VERSION).to_wire())) + 1
        deadline = time.monotonic() + 120
        while unread_bytes(spare.event_fd) <= hello:
            assert time.monotonic() < deadline, "the worker never said it is ready"
            time.sleep(0.05)
        spare.spawned_at -= box.limits.startup_s + 60  # as if spawned minutes ago
        script = tmp_path / "hello.py"
        script.write_text("print('hello from an old spare')\n", encoding="utf-8")
        verdict = box.run_doctor(script, [], tmp_path, 60.0, False).result()
        assert verdict.kind == "doctor", (verdict.kind, verdict.message.en)  # was: startup, at once
        assert verdict.report.status == "ok"
        assert "hello from an old spare" in verdict.stdout
    finally:
        box.close()
