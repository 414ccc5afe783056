"""`--accelerator`: one worker at a time owns the device, and a device another process holds is
tried again. CI has no accelerator, so the device here is the CPU (a sandbox made with
accelerator=True runs its workers exactly as on a TPU VM, JAX_PLATFORMS left to JAX), and the busy
chip is a worker whose start fails the way libtpu's does, printed by a `sitecustomize` on the
workers' PYTHONPATH until a file says the chip is free."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tutor.course import load_course
from tutor.sandbox import runner
from tutor.sandbox.runner import Sandbox

pytestmark = pytest.mark.slow  # real workers

ROOT = Path(__file__).resolve().parents[2]


def _solution(course, exercise_id):
    ex = course.exercise(exercise_id)
    return ex, course.solution_path(exercise_id).read_text()


def test_runs_take_turns_and_no_spare_waits_holding_the_device(tmp_path):
    course = load_course()
    box = Sandbox(tmp_path / "home", keep_spare=True, accelerator=True)
    spans: list[tuple[float, float]] = []
    try:
        box.warm_up()
        assert box._spare is None  # a spare would hold the chip while the learner reads

        def one():
            ex, source = _solution(course, "counter-jit")
            run = box.run_exercise(ex, source, "counter-jit.py")
            start = time.monotonic()
            verdict = run.result()
            spans.append((start, time.monotonic()))
            assert verdict.passed, verdict.message.en

        threads = [threading.Thread(target=one) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert len(spans) == 3
        spans.sort()
        for (_, end), (start, _) in zip(spans, spans[1:]):
            assert start >= end - 0.05, spans  # the next worker was made once the last was gone
    finally:
        box.close()


BUSY_SITECUSTOMIZE = """
import os, sys
if os.environ.get("BUSY_MARKER") and not os.path.exists(os.environ["BUSY_MARKER"]):
    with open(os.environ["BUSY_MARKER"] + ".tries", "a") as f:
        f.write("x")
    if os.path.getsize(os.environ["BUSY_MARKER"] + ".tries") >= int(os.environ["BUSY_AFTER"]):
        open(os.environ["BUSY_MARKER"], "w").close()  # the other program let go of the chip
    sys.stderr.write("RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by "
                     "process with pid 4242. Not attempting to load libtpu.so in this process.\\n")
    sys.stderr.flush()
    os._exit(1)
"""


def _busy_chip(tmp_path, monkeypatch, free_after: int) -> Path:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BUSY_SITECUSTOMIZE)
    marker = tmp_path / "chip-free"
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("BUSY_MARKER", str(marker))
    monkeypatch.setenv("BUSY_AFTER", str(free_after))
    monkeypatch.setenv("JAXSTATE_TUTOR_RUN_ENV", "BUSY_MARKER,BUSY_AFTER")  # a run keeps an allow-list only
    monkeypatch.setenv("JAXSTATE_TUTOR_FORK_SERVER", "0")  # each worker a fresh Python, as each opens the chip
    monkeypatch.setattr(runner, "DEVICE_RETRY_S", 0.2)
    return marker


def test_a_chip_held_by_another_program_is_tried_again_until_it_is_free(tmp_path, monkeypatch):
    marker = _busy_chip(tmp_path, monkeypatch, free_after=3)
    course = load_course()
    box = Sandbox(tmp_path / "home", accelerator=True)
    try:
        ex, source = _solution(course, "counter-jit")
        verdict = box.run_exercise(ex, source, "counter-jit.py").result()
    finally:
        box.close()
    assert verdict.passed, verdict.message.en
    assert marker.exists() and len(Path(str(marker) + ".tries").read_text()) == 3


def test_a_chip_that_stays_busy_is_named_with_its_holder(tmp_path, monkeypatch):
    _busy_chip(tmp_path, monkeypatch, free_after=10**6)
    monkeypatch.setattr(runner, "DEVICE_WAIT_S", 1.5)
    course = load_course()
    box = Sandbox(tmp_path / "home", accelerator=True)
    try:
        ex, source = _solution(course, "counter-jit")
        verdict = box.run_exercise(ex, source, "counter-jit.py").result()
    finally:
        box.close()
    assert (verdict.status, verdict.kind) == ("error", "startup")
    assert "4242" in verdict.message.en and "--accelerator" in verdict.message.en, verdict.message.en
    assert "reinstall" not in verdict.message.en.lower()
    assert "already in use" in verdict.stderr  # what the worker said, kept for --json


def test_cells_run_on_a_cpu_spare_while_checks_own_the_device(tmp_path):
    """A lesson's cells were written and checked on the CPU (CI has none other): with an
    accelerator they still run there, from a spare of their own, and never wait for the chip."""
    from tutor.course.model import Cell

    box = Sandbox(tmp_path / "home", keep_spare=True, accelerator=True)
    try:
        box.warm_up()
        assert box._spare is None and box._cells is not None and box._cells._spare is not None
        assert box.wait_ready(120)
        cell = Cell(id="where", code="import os, jax\nprint(os.environ.get('JAX_PLATFORMS'), jax.default_backend())")
        with box._device:  # a check holds the device meanwhile: the cell does not wait for it
            verdict = box.run_cell(cell).result()
        assert verdict.status == "pass" and verdict.stdout.split() == ["cpu", "cpu"], verdict.stdout
    finally:
        box.close()
    assert box._cells._closed


def _until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_after_a_check_the_next_checks_worker_opens_the_device_and_lets_it_go(tmp_path, monkeypatch):
    """P10: a re-check on a TPU must not pay the chip's 6-11 s open again. In the TUI (keep_spare),
    once a check on the device ends, the next check's worker opens it; still a fresh process per
    check. Unused, it gives the device back (idle, release_spare, close)."""
    course = load_course()
    ex, source = _solution(course, "counter-jit")
    box = Sandbox(tmp_path / "home", keep_spare=True, accelerator=True)
    try:
        first = box.run_exercise(ex, source, "counter-jit.py")
        assert first.result().passed
        _until(lambda: box._device_next is not None and box._device_next.done(), 120, "the device spare")
        spare = box._device_next.result()
        assert spare is not None and spare.alive() and spare is not first.worker
        second = box.run_exercise(ex, source, "counter-jit.py")
        assert second.worker is spare  # the chip was already open for it
        assert second.result().passed
        _until(lambda: box._device_next is not None and box._device_next.done(), 120, "the next device spare")
        held = box._device_next.result()
        box.release_spare()  # the TUI's idle clock, or a screen that runs no code
        _until(lambda: held.closed, 30, "the spare to close")
        assert box._device.acquire(timeout=30)  # the device is free for the learner's own programs
        box._device.release()

        monkeypatch.setattr(runner, "DEVICE_SPARE_IDLE_S", 1.0)
        assert box.run_exercise(ex, source, "counter-jit.py").result().passed
        _until(lambda: box._device_next is not None and box._device_next.done(), 120, "a spare after the idle change")
        idle = box._device_next.result()
        _until(lambda: idle.closed and box._device_next is None, 60, "the unused spare to let the device go")
    finally:
        box.close()


def test_a_waiting_run_is_not_overtaken_by_the_device_spare(tmp_path):
    """Three checks at once on the device: each ends before the next starts, and none waits for a
    spare that holds the device for nobody (a spare gives way to a waiting run)."""
    course = load_course()
    ex, source = _solution(course, "counter-jit")
    box = Sandbox(tmp_path / "home", keep_spare=True, accelerator=True)
    verdicts = []
    try:
        threads = [
            threading.Thread(target=lambda: verdicts.append(box.run_exercise(ex, source, "c.py").result()))
            for _ in range(3)
        ]
        start = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert len(verdicts) == 3 and all(v.passed for v in verdicts), [v.message.en for v in verdicts]
        assert time.monotonic() - start < runner.DEVICE_WAIT_S  # no run sat out a lock held by a spare
    finally:
        box.close()
