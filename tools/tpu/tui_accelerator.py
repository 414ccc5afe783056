"""The TUI with --accelerator, driven by Textual's Pilot at 80x24: the app starts (its spare on the
CPU), a lesson cell runs, and F5 checks the reference solution of counter-jit on the chip; after a
learner's pause, F5 again (P10: the re-check's worker opened the chip meanwhile).
`--cpu`: the same walk without --accelerator, to compare. Usage: tui_accelerator.py [--cpu] [SVG_DIR]"""

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
    cpu = "--cpu" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--cpu"]
    home = Path(tempfile.mkdtemp())
    course = load_course()
    app = make_app(home, "en", course=(course, []), accelerator=not cpu)
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
        for again in (1, 2, 3, 4):
            await asyncio.sleep(12)  # the learner reads the result (the device spare opens meanwhile)
            first = screen.verdict
            t = time.monotonic()
            await pilot.press("f5")
            await until(
                pilot,
                lambda first=first: screen.verdict is not None and screen.verdict is not first,
                180,
                "the re-check",
            )
            wall, v = time.monotonic() - t, screen.verdict
            checks = sum(c.duration_s or 0 for c in v.checks)
            # where the time went: the checks themselves, the rest of the run (ready to done),
            # and the rest of the key press (saving, taking the worker, drawing the verdict)
            print(
                f"F5 again ({again}): {v.status} in {wall:.2f} s (checks {checks:.3f} s, run {v.duration_s:.3f} s)",
                flush=True,
            )
        name = "tui_cpu.svg" if cpu else "tui_accelerator.svg"
        app.save_screenshot(filename=name, path=args[0] if args else ".")
    print(f"TUI session {time.monotonic() - t0:.1f} s", flush=True)


asyncio.run(main())
