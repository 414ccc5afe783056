"""A learner's JAX processes go when they are let go of: the spare worker and the fork server.

`release_spare` once closed the spare alone, and the fork server (JAX imported, ~40 MB PSS of its
own and the pages its workers share) stayed for the tutor's life: under `serve` every idle learner
kept one. The next run after a release starts them again: a cold start, which `warm()` tells the UI.
"""

from __future__ import annotations

import os
import time

import pytest

from tutor.course import read_course
from tutor.sandbox.runner import Sandbox
from tutor.settings import course_of

pytestmark = pytest.mark.slow  # real workers and a real fork server


def _gone(pid: int, within: float = 60.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
def test_release_ends_the_spare_and_the_fork_server_and_the_next_run_starts_them_again(tmp_path):
    box = Sandbox(tmp_path / "home", keep_spare=True, spare_early=True)
    if not box.use_fork_server:
        pytest.skip("no fork server on this host")
    cell = next(c for c in read_course(course_of())[0].cells() if not c.expect.raises)
    try:
        assert not box.holds_workers() and not box.warm()  # nothing before the first warm-up
        box.warm_up()
        assert box.wait_ready(120)
        assert box.holds_workers() and box.warm()
        spare, server = box._spare.proc.pid, box._server.proc.pid
        box.release_spare()
        assert _gone(spare), "the spare outlived its release"
        assert _gone(server), "the fork server outlived the release"  # 92686d9: kept for the tutor's life
        assert not box.holds_workers() and not box.warm()
        verdict = box.run_cell(cell).result()  # cold: a new server, a new worker
        assert verdict.status == "pass", (verdict.kind, verdict.message.en)
        assert box._server is not None and box._server.proc.pid != server
    finally:
        box.close()
