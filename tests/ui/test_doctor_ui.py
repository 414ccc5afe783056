"""The doctor screen, driven with Textual's Pilot at 80x24: opened with `d` from the outline, it
runs a real script through a real sandbox, streams its output, lists the findings;
Enter on a finding opens the lesson at its demo cell; Esc stops a running script gracefully."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)
SIZE = (80, 24)


@pytest.fixture(scope="module")
def doctor_box(tmp_path_factory):
    """A sandbox of these tests' own (as test_doctor_job has): the session's one has run hundreds
    of checks by now, and a doctor run there once ended as an error in CI (not reproduced since)."""
    from tutor.sandbox.runner import Sandbox

    box = Sandbox(tmp_path_factory.mktemp("doctor-home"), keep_spare=True, spare_early=True)
    box.warm_up()
    yield box
    box.close()


def new_app(home: Path, sandbox=None, lang: str = "en"):
    return make_app(home, lang, course=(COURSE, []), sandbox=sandbox)


async def open_doctor(tui, pilot):
    from tutor.ui.screens.doctor import DoctorScreen

    await pilot.pause()
    await pilot.press("d")
    await tui.until(pilot, lambda: isinstance(pilot.app.screen, DoctorScreen), 10, "the doctor screen")
    return pilot.app.screen


async def run_script(tui, pilot, screen, command: str):
    before = screen.handle
    screen.query_one("#doctor-command").value = command
    screen.query_one("#doctor-command").focus()
    await pilot.press("enter")
    await tui.until(pilot, lambda: screen.handle is not None and screen.handle is not before, 10, "the run to start")


def test_d_opens_the_doctor_from_the_outline_and_says_so_in_footer_and_help(tmp_path, tui):
    async def go():
        app = new_app(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            keys = {k: v.binding.description for k, v in app.screen.active_bindings.items()}
            assert keys.get("d") == "Doctor"  # in the footer
            screen = await open_doctor(tui, pilot)
            screen.query_one("#doctor-command").value = str(tmp_path / "missing.py")
            await pilot.press("enter")
            await pilot.pause()
            assert screen.handle is None  # nothing started for a script that is not there
            assert any("does not exist" in n.message for n in app._notifications)
            await pilot.press("escape")
            await pilot.pause()
            assert type(app.screen).__name__ == "OutlineScreen"
            from tutor.ui.texts import say

            assert "**d** doctor" in say("help_body", "en") and "**d** 诊断" in say("help_body", "zh")

    asyncio.run(go())


def test_the_command_line_takes_the_doctors_own_options_as_the_cli_does(tmp_path, fake_sandbox, tui):
    """`--nans` and `--timeout S` are the doctor's, wherever they stand; what follows `--` and
    everything else are the script's. A bad --timeout starts nothing and says why."""
    script = tmp_path / "train.py"
    script.write_text("print('hi')\n", encoding="utf-8")
    fake_sandbox.script("doctor:train.py", fake_sandbox.verdict("ok", kind="doctor"))

    async def go():
        app = new_app(tmp_path, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_doctor(tui, pilot)
            screen.query_one("#doctor-command").value = f"{script} --timeout 0"
            screen.query_one("#doctor-command").focus()
            await pilot.press("enter")
            await pilot.pause()
            assert screen.handle is None and fake_sandbox.doctor_options == []
            assert any("--timeout" in n.message for n in app._notifications)
            await run_script(tui, pilot, screen, f"{script} --epochs 3 --nans --timeout 30 -- --nans")
            assert fake_sandbox.doctor_options == [{"args": ["--epochs", "3", "--nans"], "timeout": 30.0, "nans": True}]
            await tui.until(pilot, lambda: screen.verdict is not None, 10, "the report")
            await run_script(tui, pilot, screen, str(script))
            from tutor.doctor.options import DEFAULT_TIMEOUT_S

            assert fake_sandbox.doctor_options[-1] == {"args": [], "timeout": DEFAULT_TIMEOUT_S, "nans": False}

    asyncio.run(go())


def test_the_ui_shares_the_doctor_with_the_cli_but_never_imports_the_cli():
    """Options, running and wording are tutor.doctor's; tutor.cli.doctor and tutor.cli.main are the
    command line's own glue (read from the source: every import, also inside functions)."""
    import ast

    imported = set()
    for path in (ROOT / "tutor" / "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                imported |= {a.name for a in node.names}
    assert "tutor.doctor.options" in imported and "tutor.doctor.wording" in imported
    assert not {"tutor.cli.doctor", "tutor.cli.main"} & imported


def test_a_worker_that_cannot_be_spawned_is_an_error_on_screen_not_a_crash(tmp_path, fake_sandbox, tui):
    """/tmp full or no processes left: the run is taken in a thread, and its failure is the verdict."""
    script = tmp_path / "train.py"
    script.write_text("print('hi')\n", encoding="utf-8")

    def no_room(*args, **kwargs):
        raise OSError(28, "No space left on device")

    fake_sandbox.run_doctor = no_room

    async def go():
        app = new_app(tmp_path, fake_sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_doctor(tui, pilot)
            await run_script(tui, pilot, screen, str(script))
            await tui.until(pilot, lambda: screen.verdict is not None, 10, "the verdict")
            assert (screen.verdict.status, screen.verdict.kind) == ("error", "spawn")
            status = tui.plain(screen.query_one("#doctor-status"))
            assert "No space left on device" in status and "failed" in status, status
            assert not screen.running and app.is_running
            await pilot.press("escape")  # back, as after any run
            await tui.until(pilot, lambda: type(app.screen).__name__ == "OutlineScreen", 10, "the outline")

    asyncio.run(go())


@pytest.mark.slow
def test_a_script_runs_its_output_streams_and_enter_on_a_finding_opens_its_lesson_cell(tmp_path, doctor_box, tui):
    from tutor.ui.screens.lesson import LessonScreen
    from tutor.ui.widgets.cell_view import CellView

    script = ROOT / "tests" / "doctor" / "side_effect_global_counter.py"

    async def go():
        app = new_app(tmp_path, doctor_box)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_doctor(tui, pilot)
            await run_script(tui, pilot, screen, str(script))
            await tui.until(pilot, lambda: screen.verdict is not None, what="the report")
            v = screen.verdict
            assert screen.report.status == "findings", (v.status, v.kind, v.message.en, v.stderr[-2000:])
            assert [(f.kind, f.line) for f in screen.report.findings] == [("side-effect", 11)]
            log = "\n".join(str(line) for line in screen.query_one("#doctor-output").lines)
            assert screen.report.stdout.strip().splitlines()[0] in log  # streamed while it ran
            assert app.focused is screen.query_one("#doctor-findings")
            # At 80x24 the findings get the room: the intro goes once a run started, the output shrinks.
            await pilot.pause()
            assert not screen.query_one("#doctor-intro").display
            rows = screen.query_one("#doctor-findings").size.height
            assert rows >= 10, f"the findings have {rows} rows at 80x24"
            await pilot.press("enter")
            await tui.until(pilot, lambda: isinstance(app.screen, LessonScreen), 10, "the lesson")
            lesson = app.screen
            assert lesson.lesson.id == "6.3"
            await tui.until(
                pilot,
                lambda: isinstance(app.focused, CellView) and app.focused.cell.id == "l63-functional-counter",
                10,
                "the demo cell focused",
            )
            # on screen once the text above it has laid out, not just focused
            y, top, height = await tui.where_shown(pilot, lesson, app.focused)
            assert top <= y < top + height, (y, top)
            assert y > 0  # not the lesson's first block: the scroll did something
            await pilot.press("escape")
            await tui.until(pilot, lambda: app.screen is screen, 10, "back to the findings")

    asyncio.run(go())


@pytest.mark.slow
def test_escape_stops_a_running_script_and_the_report_of_what_was_seen_still_comes(tmp_path, doctor_box, tui):
    ready = tmp_path / "ready"
    script = tmp_path / "spin.py"
    script.write_text(
        "import pathlib, time\nimport jax\nimport jax.numpy as jnp\nx = jnp.ones(4)\n"
        "for i in range(4):\n    x = jax.jit(lambda v: v + 1)(x)\n"
        f"pathlib.Path({str(ready)!r}).write_text('ready')\nprint('ready', flush=True)\n"
        "while True:\n    time.sleep(0.05)\n",
        encoding="utf-8",
    )

    async def go():
        app = new_app(tmp_path, doctor_box, lang="zh")
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_doctor(tui, pilot)
            await run_script(tui, pilot, screen, f"{script} --fast")
            await tui.until(pilot, ready.exists, what="the script to get going")
            await pilot.press("escape")  # stop, not back: the run is going
            assert app.screen is screen and screen.stopping
            await tui.until(pilot, lambda: screen.verdict is not None, 30, "the partial report")
            assert screen.report.exit_code == 130
            assert [(f.kind, f.line) for f in screen.report.findings] == [("retrace", 6)]
            status = str(screen.query_one("#doctor-status").render())
            assert "停止" in status and "发现 1 个问题" in status
            await pilot.press("escape")
            await tui.until(pilot, lambda: type(app.screen).__name__ == "OutlineScreen", 10, "the outline")

    asyncio.run(go())
