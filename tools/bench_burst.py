"""P12 (BENCHMARKS.md): a burst of 26 letters sent at once through the app's driver (as a slow
link delivers them) into the exercise editor, until all are in its text; against a bare Textual
TextArea, and a TextArea with Python highlighting, in the same process. Headless (run_test,
80x24), with a sandbox that runs nothing. Usage: python tools/bench_burst.py [ROUNDS] [--profile]"""

import asyncio
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from textual import events
from textual.app import App
from textual.widgets import TextArea

from tutor.course import load_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.screens.exercise import ExerciseScreen

LETTERS = "abcdefghijklmnopqrstuvwxyz"
PROFILE: cProfile.Profile | None = None  # --profile: the editor's burst only


class IdleSandbox:
    """Runs nothing: what is measured is the editor."""

    def warm_up(self) -> None: ...

    def wait_ready(self, timeout: float = 0) -> bool:
        return True

    def release_spare(self) -> None: ...

    def holds_workers(self) -> bool:
        return False

    def warm(self) -> bool:
        return True

    def close(self) -> None: ...


def burst(app) -> None:
    for ch in LETTERS:
        app._driver.send_message(events.Key(ch, ch))


async def typed(pilot, area, before: str) -> float:
    area.move_cursor((0, 0))
    await pilot.pause()
    if PROFILE is not None:
        PROFILE.enable()
    t = time.perf_counter()
    burst(pilot.app)
    while area.text != LETTERS + before:
        await asyncio.sleep(0.0005)
    took = time.perf_counter() - t
    if PROFILE is not None:
        PROFILE.disable()
    return took / len(LETTERS)


async def editor_round() -> float:
    course = load_course()
    app = make_app(Path(tempfile.mkdtemp()), "en", course=(course, []), sandbox=IdleSandbox())
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_step(Step("exercise", "pure-scale"))
        while not isinstance(app.screen, ExerciseScreen):
            await pilot.pause()
        screen = app.screen
        await pilot.press("f2")
        screen.editor.focus()
        for _ in range(5):
            await pilot.pause()
        return await typed(pilot, screen.editor, screen.editor.text)


class Bare(App):
    def __init__(self, language):
        super().__init__()
        self.language = language

    def compose(self):
        yield TextArea("def f(x):\n    return x\n" * 10, language=self.language)


async def bare_round(language=None) -> float:
    app = Bare(language)
    async with app.run_test(size=(80, 24)) as pilot:
        area = app.query_one(TextArea)
        area.focus()
        await pilot.pause()
        return await typed(pilot, area, area.text)


def main() -> None:
    rounds = int(next((a for a in sys.argv[1:] if a.isdigit()), "3"))
    if "--profile" in sys.argv:
        global PROFILE
        PROFILE = cProfile.Profile()
        asyncio.run(editor_round())
        pstats.Stats(PROFILE).sort_stats("tottime").print_stats(30)
        return
    figures: dict[str, list[float]] = {"editor": [], "bare": [], "bare, python": []}
    for _ in range(rounds):  # alternating, so a change of load touches all three alike
        figures["editor"].append(asyncio.run(editor_round()))
        figures["bare"].append(asyncio.run(bare_round()))
        figures["bare, python"].append(asyncio.run(bare_round("python")))
    bare = statistics.median(figures["bare"])
    for name, values in figures.items():
        median = statistics.median(values)
        print(f"{name:14} {median * 1000:6.2f} ms per key  ({median / bare:.1f}x bare)")


if __name__ == "__main__":
    main()
