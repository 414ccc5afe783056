"""The TUI with --accelerator, driven by Textual's Pilot at 80x24: the app starts (its spare on the
CPU), a lesson cell runs, and F5 checks the reference solution of counter-jit on the chip."""

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from tutor.course import load_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.screens.exercise import ExerciseScreen
from tutor.ui.widgets.cell_view import CellView


async def until(pilot, condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)
        await pilot.pause()


async def main() -> None:
    home = Path(tempfile.mkdtemp())
    course = load_course()
    app = make_app(home, "en", course=(course, []), accelerator=True)
    (home / "workspace").mkdir(parents=True, exist_ok=True)
    (home / "workspace" / "counter-jit.py").write_text(course.solution_path("counter-jit").read_text())
    t0 = time.monotonic()
    async with app.run_test(size=(80, 24)) as pilot:
        lesson = next(l for l in course.lessons if any(c.predict is None for c in l.cells))
        app.open_step(Step("lesson", lesson.id))
        await until(pilot, lambda: app.screen.query(CellView), 20, "the lesson's cells")
        view = next(v for v in app.screen.query(CellView) if v.cell.predict is None)
        view.focus()
        t = time.monotonic()
        await pilot.press("r")
        await until(pilot, lambda: view.verdict is not None, 120, "the cell's verdict")
        print(f"cell {view.cell.id}: {view.verdict.status} in {time.monotonic() - t:.1f} s", flush=True)
        app.open_step(Step("exercise", "counter-jit"))
        await until(pilot, lambda: isinstance(app.screen, ExerciseScreen), 20, "the exercise screen")
        screen = app.screen
        t = time.monotonic()
        await pilot.press("f5")
        await until(pilot, lambda: screen.verdict is not None, 180, "the check's verdict")
        print(
            f"F5 counter-jit: {screen.verdict.status} {screen.verdict.kind} in {time.monotonic() - t:.1f} s", flush=True
        )
        app.save_screenshot(filename="tui_accelerator.svg", path=sys.argv[1] if len(sys.argv) > 1 else ".")
    print(f"TUI session {time.monotonic() - t0:.1f} s", flush=True)


asyncio.run(main())
