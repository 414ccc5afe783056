"""Driving the TUI with Textual's Pilot."""

from __future__ import annotations

import asyncio
import io
import json
import time
from pathlib import Path

import pytest
import textual.constants

ROOT = Path(__file__).resolve().parents[2]


class Tui:
    """Helpers for Pilot tests at 80x24: wait on the UI's own state (never fixed sleeps), read what
    a widget shows, open an exercise, press F5 and wait for the verdict."""

    size = (80, 24)
    run_deadline_s = 180  # a run may have to wait for a worker's JAX import on a busy machine
    # A wait's ceiling says when to give up, never how fast the UI must be: with four test
    # processes on two cores that other work kept busy, waits of 5 and 10 s timed out (issue 41:
    # every fast-tier failure there, each passing alone). A wait that succeeds ends at its
    # condition, so a generous ceiling costs a passing test nothing.
    min_ceiling_s = 60.0

    @staticmethod
    def plain(widget) -> str:
        """What a Static shows, as plain text."""
        from rich.console import Console

        console = Console(width=200, record=True, file=io.StringIO())
        console.print(widget.content)
        return console.export_text()

    async def until(self, pilot, condition, timeout: float | None = None, what: str = "condition"):
        """Wait until `condition()` holds. `timeout`: about how long it may take on a quiet machine
        (it documents the call); the wait gives up after no less than `min_ceiling_s`."""
        ceiling = self.run_deadline_s if timeout is None else max(timeout, self.min_ceiling_s)
        deadline = time.monotonic() + ceiling
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what} ({ceiling:g} s)")
            await asyncio.sleep(0.05)
            await pilot.pause()

    @staticmethod
    def progress(home: Path, app=None) -> dict:
        """progress.json as on disk; with the app, once every change it made is written. Called on
        the event loop, which starts the app's background saves: it writes what is still waiting
        itself rather than wait for a save that cannot start until it returns."""
        if app is not None:
            app.session.state.save_pending()
        return json.loads((home / "progress.json").read_text(encoding="utf-8"))

    async def laid_out(self, pilot, lesson_screen) -> None:
        """Once every text block of the lesson has laid out and the lesson's blocks have kept their
        places over a few refreshes. Markdown lays out after mounting and moves what is below it; on
        a loaded machine that ends later than any fixed number of pauses (a cell read at y 0, an End
        pressed before the lesson had grown to its length)."""
        texts = list(lesson_screen.query(".lesson-text"))
        await self.until(pilot, lambda: all(t.source and t.children for t in texts), 10, "the lesson's texts laid out")
        body = lesson_screen.query_one("#lesson-body")
        places: list = []

        def settled() -> bool:
            places.append((body.virtual_size, [w.virtual_region for w in body.children if w.display]))
            return len(places) > 3 and all(p == places[-1] for p in places[-4:])

        await self.until(pilot, settled, 10, "the lesson's blocks to keep their places")

    async def where_shown(self, pilot, lesson_screen, view) -> tuple[int, float, int]:
        """Once the lesson has laid out: (the cell's y, the view's top, the view's height), for
        asserting that `view` is on screen and not merely focused."""
        await self.laid_out(pilot, lesson_screen)
        body = lesson_screen.query_one("#lesson-body")
        return view.virtual_region.y, body.scroll_y, body.scrollable_content_region.height

    async def open_exercise(self, pilot, exercise_id: str):
        from tutor.progress.path import Step
        from tutor.ui.screens.exercise import ExerciseScreen

        pilot.app.open_step(Step("exercise", exercise_id))
        await self.until(pilot, lambda: isinstance(pilot.app.screen, ExerciseScreen), 10, "the exercise screen")
        await pilot.pause()
        return pilot.app.screen

    async def check(self, pilot, screen):
        await pilot.press("f5")
        await self.until(pilot, lambda: screen.verdict is not None, what="the verdict")
        await pilot.pause()
        return screen.verdict


# Pilot tests run apps with scrolling animations off (an app reads this when it is made): Pilot
# waits after each key until the animator is done and the app idle, and an animated page-down
# redrew the lesson about eight times, a third of the lesson-gate walk's time. What a learner's
# terminal shows, animations on, is driven through tmux in tests/e2e/.
textual.constants.TEXTUAL_ANIMATIONS = "none"


@pytest.fixture(scope="session")
def tui():
    return Tui()
