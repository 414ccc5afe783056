"""The trace panel beside the editor (issue 56, item 4): what the checks saw of each of the
learner's jitted functions as it traced in the last run, live, with the retrace reason; off at
80x24 until asked (F10), on where the terminal is wide. Real workers, real JAX."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.protocol import TraceFacts, parse_event
from tutor.ui.mark_styles import Marks
from tutor.ui.widgets.trace_panel import TracePanel

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
COURSE, _ = read_course(ROOT)
RUN_DEADLINE_S = 180


def tutor_app(home, sandbox, lang="en", no_color=False):
    from tutor.ui.app import make_app

    app = make_app(home, lang, course=(COURSE, []), sandbox=sandbox)
    app.marks = Marks(ascii_only=no_color, no_color=no_color)
    return app


def test_trace_facts_cross_the_pipe_as_data():
    facts = TraceFacts("f", 2, (("x", "float32[3]"),), None, ("scan",))
    assert parse_event(facts.to_wire()) == facts


@pytest.mark.parametrize(
    "exercise,case,function,why",
    [
        ("counter-jit", "fail_jit-once__float_output.py", "update_counter", "trace 2 happened because count was"),
        ("static-lr", "fail_lr-dynamic__static_argnames_lr.py", "jitted_momentum_update", "trace 2 happened because"),
    ],
)
def test_the_panel_shows_each_trace_and_why_at_80x24_when_asked(home, sandbox, tui, exercise, case, function, why):
    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    shutil.copy(CASES / exercise / case, workspace / f"{exercise}.py")

    async def body():
        app = tutor_app(home, sandbox)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await tui.open_exercise(pilot, exercise)
            panel = screen.query_one(TracePanel)
            assert not panel.display  # off at 80 columns: the editor needs them
            await pilot.press("f10")
            assert panel.display
            await pilot.press("f5")
            await tui.until(pilot, lambda: screen.verdict is not None, RUN_DEADLINE_S, "the verdict")
            assert not screen.verdict.passed
            seen = panel.functions[function]
            assert seen.traces >= 2 and seen.arguments
            text = tui.plain(panel.query_one("#trace-text"))
            assert function in text and "traced" in text and why in text, text
            # The panel's reason is the one the failing check gives: the checks' own facts, earlier.
            messages = " ".join(c.message.en for c in screen.verdict.checks if c.message)
            assert why in messages
            await pilot.press("ctrl+f")
            assert not panel.display

    asyncio.run(body())


def test_wide_terminals_show_it_in_chinese_with_the_control_flow(home, sandbox, tui):
    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    shutil.copy(COURSE.solution_path("welford"), workspace / "welford.py")

    async def body():
        app = tutor_app(home, sandbox, lang="zh", no_color=True)
        async with app.run_test(size=(130, 30)) as pilot:
            screen = await tui.open_exercise(pilot, "welford")
            panel = screen.query_one(TracePanel)
            assert panel.display  # room for it: on without asking
            await pilot.press("f5")
            await tui.until(pilot, lambda: screen.verdict is not None, RUN_DEADLINE_S, "the verdict")
            assert screen.verdict.passed, screen.verdict.message
            text = tui.plain(panel.query_one("#trace-text"))
            assert "online_var" in text and "程序中含有：scan" in text, text

    asyncio.run(body())
