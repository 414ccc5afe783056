"""A key press in the exercise screen never touches progress.json: reads come from the owner's
snapshot and saves run in a worker thread (a home on NFS over SSH must not stall the screen)."""

from __future__ import annotations

import asyncio
import builtins
import io
import os
import threading
import time
from pathlib import Path

from tutor.course import read_course
from tutor.progress import ProgressStore, Snapshot, changes
from tutor.progress.path import Step
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


class NoWorkers:
    """A sandbox that is never asked to run anything here (no key below starts a check)."""

    def warm_up(self) -> None:
        pass

    def close(self) -> None:
        pass


class ProgressOpens:
    """Counts opens of the home's progress files (progress.json, its temp file, the lock) on this thread."""

    def __init__(self, home: Path, monkeypatch):
        self.home, self.thread, self.paths = str(home), threading.current_thread(), []
        for module, name in ((os, "open"), (builtins, "open"), (io, "open")):
            real = getattr(module, name)
            monkeypatch.setattr(module, name, self._counting(real))

    def _counting(self, real):
        def opened(path, *args, **kwargs):
            text = os.fspath(path) if isinstance(path, (str, bytes, os.PathLike)) else ""
            text = text.decode() if isinstance(text, bytes) else text
            if (
                threading.current_thread() is self.thread
                and text.startswith(self.home)
                and os.path.basename(text).startswith("progress.")
            ):
                self.paths.append(text)
            return real(path, *args, **kwargs)

        return opened


def test_hint_key_reads_and_writes_progress_off_the_ui_thread(tmp_path, monkeypatch):
    exercise = next(e for e in COURSE.exercises if e.hints)
    ProgressStore(tmp_path).apply(changes.attempt, exercise.id, False)  # a real file, as a learner has

    async def body():
        app = make_app(tmp_path, "en", course=(COURSE, []), sandbox=NoWorkers())
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_step(Step("exercise", exercise.id))
            await pilot.pause()
            deadline = time.monotonic() + 60  # a ceiling: the loop ends when the screen is there
            while getattr(app.screen, "here", None) != Step("exercise", exercise.id) and time.monotonic() < deadline:
                await pilot.pause(0.05)
            await app.workers.wait_for_complete()
            opens = ProgressOpens(tmp_path, monkeypatch)
            await pilot.press("f3")  # one more hint: shown at once, saved in a worker
            await pilot.press("f2", "f2", "ctrl+n")  # views and "next" ask progress too
            await pilot.pause()
            assert opens.paths == []
            assert app.session.progress.exercise(exercise.id).hints_shown == 1  # counted at once, in memory
            await app.workers.wait_for_complete()
        return app

    asyncio.run(body())
    assert Snapshot(ProgressStore(tmp_path).load()).exercise(exercise.id).hints_shown == 1  # and on disk
