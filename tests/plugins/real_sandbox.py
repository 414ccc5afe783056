"""The real sandbox (a warm spare worker) and the guard that keeps workers out of the fast tier."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fast_tier_starts_no_worker(request, monkeypatch):
    """A test not marked slow that starts a worker process in this process fails and says why,
    so the fast tier stays fast as tests are added."""
    if request.node.get_closest_marker("slow"):
        return
    from tutor.sandbox import fork_client, runner

    def refuse(*args, **kwargs):
        raise AssertionError(
            "this test starts a real worker process: mark it @pytest.mark.slow or give the UI the fake_sandbox fixture"
        )

    monkeypatch.setattr(runner.WorkerProcess, "__init__", refuse)
    monkeypatch.setattr(fork_client.ForkServer, "__init__", refuse)


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory):
    from tutor.sandbox.runner import Sandbox

    box = Sandbox(tmp_path_factory.mktemp("sandbox-home"), keep_spare=True, spare_early=True)
    box.warm_up()
    yield box
    box.close()


@pytest.fixture(scope="session")
def run_source():
    """run_source(sandbox, exercise, source, name, timeout): the Verdict of checking `source`."""

    def run(sandbox, exercise, source: str, name: str = "learner.py", timeout=None):
        return sandbox.run_exercise(exercise, source, f"/learner/{name}", timeout).result()

    return run
