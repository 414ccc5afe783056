"""The trace panel beside the editor (issue 56, item 4): what the checks saw of each of the
learner's jitted functions as it traced in the last run, live, with the retrace reason; off at
80x24 until asked (F10), on where the terminal is wide. Real workers, real JAX."""

from __future__ import annotations

import asyncio
import io
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


@pytest.mark.parametrize(
    "lang,reason",
    [
        ("en", "trace 2 happened because count was int32[] (weak), now float32[]"),
        ("zh", "第 2 次追踪的原因：count 之前是 int32[]（弱类型），这次是 float32[]"),
    ],
    ids=["en", "zh"],
)
def test_a_reason_hangs_under_its_words_and_keeps_every_word_at_80_columns(lang, reason):
    """At 80 columns the panel's text is 28 wide and a reason takes three lines. Its wrapped lines
    start under its first word, not under the function's name; and in Chinese the line that ends
    with the argument's name kept it whole (the table column's ellipsis made it 'coun…')."""
    from rich.console import Console
    from textual.app import App
    from textual.widgets import Static

    from tutor.i18n import Bilingual
    from tutor.ui.text_layout import use_cjk_line_breaking

    use_cjk_line_breaking()  # as the tutor's app does when it is built

    class Host(App):
        def compose(self):
            yield TracePanel()

    Host.lang = lang
    facts = TraceFacts("update_counter", 2, (("count", "float32[]"),), Bilingual(en=reason, zh=reason))

    async def body():
        app = Host()
        async with app.run_test(size=(80, 24)) as pilot:
            panel = app.query_one(TracePanel)
            panel.styles.width = 32  # 40% of 80, as beside the editor
            panel.add(facts)
            await pilot.pause()
            text = panel.query_one("#trace-text", Static)
            assert text.size.width == 28
            console = Console(width=text.size.width, record=True, file=io.StringIO())
            console.print(text.content)
            lines = console.export_text().splitlines()
            at = next(i for i, line in enumerate(lines) if line.startswith("  ↻ "))
            said = [lines[at][4:]]
            for line in lines[at + 1 :]:
                if "".join(said).replace(" ", "") == reason.replace(" ", ""):
                    break
                assert line.startswith("    "), lines  # a wrapped line of the reason, under its words
                said.append(line[4:])
            assert len(said) >= 3, lines  # it wrapped
            assert "…" not in "".join(lines), lines
            assert "".join(said).replace(" ", "") == reason.replace(" ", ""), lines

    asyncio.run(body())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reason_is_in_view_above_a_states_arguments_at_80x24(lang):
    """static-lr's retrace, as its panel showed it in the browser at 80x24: a state of two dicts and
    the gradients' dict, eight arguments of two lines each. The reason is in view, not below the
    panel's fold after them (fails when the arguments come first: the reason on rows 19-20 of 18)."""
    from rich.console import Console
    from textual.app import App
    from textual.widgets import Static

    from tutor.i18n import Bilingual
    from tutor.ui.text_layout import use_cjk_line_breaking

    use_cjk_line_breaking()

    class Host(App):
        def compose(self):
            yield TracePanel()

    Host.lang = lang
    arguments = tuple(
        (f"{tree}['{leaf}']", "float32[3]" if leaf == "w" else "float32[]")
        for tree in ("state.params", "state.velocity", "gradients")
        for leaf in ("b", "w")
    ) + (("learning_rate", "static 0.09"), ("momentum", "~float32[]"))
    reason = Bilingual(
        en="trace 2 happened because learning_rate was 0.1, now 0.09",
        zh="第 2 次追踪的原因：learning_rate 之前是 0.1，这次是 0.09",
    )

    async def body():
        app = Host()
        async with app.run_test(size=(80, 24)) as pilot:
            panel = app.query_one(TracePanel)
            panel.styles.width = 32  # beside the editor at 80x24: 40% of the width,
            panel.styles.height = 20  # and the rows between the exercise's header and its footer
            panel.add(TraceFacts("jitted_momentum_update", 2, arguments, reason))
            await pilot.pause()
            text = panel.query_one("#trace-text", Static)
            console = Console(width=text.size.width, record=True, file=io.StringIO())
            console.print(text.content)
            lines = console.export_text().splitlines()
            in_view = panel.scrollable_content_region.height
            at = next(i for i, line in enumerate(lines) if "↻" in line)
            assert at + 2 < in_view, (at, in_view, lines)  # its first lines at least, unscrolled
            assert reason.get(lang)[:8] in lines[at], lines

    asyncio.run(body())
