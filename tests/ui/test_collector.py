"""The TUI's garbage collector (tutor.ui.collector): no full collection while a run streams its
events (one took 65-120 ms of the event loop in the middle of rnn's training check), and the
app's long-lived objects frozen out of its walks while the app lives, given back when it ends."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
from pathlib import Path

from tests.ui.test_ui_runs import FakeRun, Host, View, until
from tutor.ui import collector

ROOT = Path(__file__).resolve().parents[2]


def full_collections_while(make_garbage) -> int:
    """How many full (generation 2) collections the collector made while make_garbage() ran."""
    seen: list[int] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            seen.append(1)

    gc.callbacks.append(note)
    try:
        make_garbage()
    finally:
        gc.callbacks.remove(note)
    return len(seen)


def garbage() -> None:
    """What a busy minute of a screen makes: objects that live a while (promoted to the oldest
    generation) and cycles that die young. Enough for several full collections by default."""
    kept: list = []
    for i in range(400_000):
        cycle: list = [i]
        cycle.append(cycle)
        if i % 2 == 0:
            kept.append([i])  # a list is tracked by the collector (a dict of ints is not)


def test_no_full_collection_while_a_run_goes_and_the_collector_as_before_after_it(monkeypatch):
    monkeypatch.setattr(collector, "RELEASE_AFTER_S", 5.0)  # long enough to see it still held
    assert gc.isenabled()
    before = gc.get_threshold()
    assert full_collections_while(garbage) > 0  # the test's garbage does call for full collections

    async def go():
        app = Host()
        async with app.run_test() as pilot:
            view = View()
            await app.mount(view)
            run = FakeRun("going", "done")
            handle = view.start_run(lambda: run)
            await until(pilot, lambda: view.got == ["going"], "the run's first output")
            assert collector.held()
            assert full_collections_while(garbage) == 0  # young cycles still go: only the full walk waits
            run.gate.set()
            await until(pilot, lambda: handle.finished, "the run's thread to end")
            # Not in the frame that draws the verdict: the collection it put off comes a moment later.
            assert collector.held() and gc.get_threshold() != before
            await until(pilot, lambda: not collector.held(), "the threshold given back", timeout=60)
            assert gc.get_threshold() == before

    asyncio.run(go())
    assert full_collections_while(garbage) > 0


def test_two_runs_at_once_hold_it_until_the_last_ends(monkeypatch):
    monkeypatch.setattr(collector, "RELEASE_AFTER_S", 0.3)

    async def go():
        app = Host()
        async with app.run_test() as pilot:
            first, second = View(), View()
            await app.mount(first)
            await app.mount(second)
            one, two = FakeRun("1", "1 done"), FakeRun("2", "2 done")
            a, b = first.start_run(lambda: one), second.start_run(lambda: two)
            await until(pilot, lambda: first.got == ["1"] and second.got == ["2"], "both runs going")
            one.gate.set()
            await until(pilot, lambda: a.finished, "the first run to end")
            assert collector.held()
            two.gate.set()
            await until(pilot, lambda: b.finished, "the second run to end")
            await until(pilot, lambda: not collector.held(), "the threshold given back", timeout=60)


def test_a_run_started_soon_after_another_keeps_it_held(monkeypatch):
    """The first run's give-back, due while the second goes, does not end the second's hold."""
    monkeypatch.setattr(collector, "RELEASE_AFTER_S", 0.3)

    async def go():
        app = Host()
        async with app.run_test() as pilot:
            view = View()
            await app.mount(view)
            one = FakeRun("1", "1 done")
            one.gate.set()
            first = view.start_run(lambda: one)
            await until(pilot, lambda: first.finished, "the first run to end")
            two = FakeRun("2", "2 done")
            second = view.start_run(lambda: two)
            await until(pilot, lambda: "2" in view.got, "the second run going")
            await pilot.pause(0.6)  # the first run's give-back has come and gone
            assert collector.held()
            two.gate.set()
            await until(pilot, lambda: second.finished, "the second run to end")
            await until(pilot, lambda: not collector.held(), "the threshold given back", timeout=60)

    asyncio.run(go())

    asyncio.run(go())


APP_FREEZES = """
import asyncio, gc, sys
from pathlib import Path
from tutor.course import read_course
from tutor.ui.app import make_app

async def go(app):
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(600):
            if gc.get_freeze_count():
                break
            await pilot.pause(0.05)
        print("while", gc.get_freeze_count())

course, _ = read_course(Path(sys.argv[1]))
for _ in range(2):  # a second app in the same process (the bench makes three)
    asyncio.run(go(make_app(Path(sys.argv[2]), "en", course=(course, []))))
    print("after", gc.get_freeze_count())
"""


def test_the_app_freezes_what_it_starts_with_and_gives_it_back_when_it_ends(tmp_path):
    """In a process of its own: this one's objects were frozen at collection (tests/conftest.py),
    and the app leaves a freeze it did not make as it is."""
    done = subprocess.run(
        [sys.executable, "-c", APP_FREEZES, str(ROOT), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    counts = [(word, int(n)) for word, n in (line.split() for line in done.stdout.splitlines())]
    assert [word for word, _ in counts] == ["while", "after", "while", "after"], done.stdout
    for word, n in counts:
        if word == "while":
            assert n > 10_000, counts  # modules, the course, the outline
        else:
            assert n == 0, counts  # the next app in this process does not keep this one's cycles
    before = gc.get_freeze_count()
    collector.settle()
    collector.unsettle()
    assert gc.get_freeze_count() == before  # the suite's own freeze is left as it is
