"""A served learner holds Python/JAX processes only while code may run: none on the outline, a fork
server and a spare once an exercise opens, none again after `--worker-idle` with no code run (a
short setting here), and the next check starts them again, saying so, in headless Chromium."""

from __future__ import annotations

import os
import time

import pytest

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the server's process tree from /proc")


def _jax_processes(root: int) -> list[int]:
    """The server's descendants that are workers or fork servers (tutor.child.*), zombies left out."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                commands[int(entry)] = f.read()
        except OSError:
            continue
        if fields[0] not in (b"Z", b"X"):
            parents[int(entry)] = int(fields[1])

    def under_root(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == root:
                return True
        return False

    return [pid for pid in parents if b"tutor.child" in commands.get(pid, b"") and under_root(pid)]


def _until(what, label: str, timeout: float = 90.0):
    deadline = time.monotonic() + timeout
    while not (found := what()):
        assert time.monotonic() < deadline, f"{label}: not within {timeout} s"
        time.sleep(0.2)
    return found


def test_an_idle_seat_holds_no_worker_one_is_made_on_demand_and_reaped(chromium, serve, home):
    served = serve("--worker-idle", "0.1")  # 6 s
    server = served.process.pid
    chromium.open(served.url)
    chromium.wait_for("Continue:", timeout=120)
    time.sleep(3)  # absence is seen over some time only
    assert _jax_processes(server) == [], "the outline holds a worker"

    chromium.key("p", ctrl=True)
    chromium.wait_for("Search", timeout=120)
    chromium.type("counter-jit")
    chromium.wait_for("counter-jit:", timeout=120)
    chromium.key("Enter")
    chromium.wait_for("— counter-jit", timeout=120)
    _until(lambda: _jax_processes(server), "a fork server and a spare for the exercise")
    # No code run for 6 s: they go, though the exercise is still open.
    _until(lambda: not _jax_processes(server), "the workers reaped after the idle time")

    chromium.key("F5")  # the starter fails its checks: what matters is that a cold run comes back
    shown = chromium.wait_for("Starting Python", "PASS", "FAIL", timeout=120)
    assert "Starting Python" in shown, shown
    chromium.wait_for("FAIL", "PASS", "ERROR", timeout=180)
