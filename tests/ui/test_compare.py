"""After a pass, the reference beside the learner's code (issue 56, item 5): offered on the verdict,
shown only when asked (F4), recorded as viewing the solution, the differences marked in the gutter
so that they read without colour too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rich.cells import cell_len

from tutor.course import read_course
from tutor.ui.mark_styles import Marks
from tutor.ui.screens.compare import CompareScreen, fit, render_rows, side_by_side
from tutor.ui.texts import say

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)
RUN_DEADLINE_S = 180


def test_rows_face_each_other_and_the_gutter_says_how_they_differ():
    yours = "a = 1\nb = 2\nc = 3\nextra = 0\n"
    reference = "a = 1\nb = 20\nc = 3\n"
    rows = side_by_side(yours, reference)
    assert rows == [("a = 1", " ", "a = 1"), ("b = 2", "|", "b = 20"), ("c = 3", " ", "c = 3"), ("extra = 0", "<", "")]
    assert side_by_side("x\n", "x\ny\n")[-1] == ("", ">", "y")
    plain = render_rows(rows, 40, colour=False).plain.splitlines()
    assert all(len(line) == len(plain[0]) for line in plain)  # two columns, aligned
    assert plain[1].split(" | ") == [fit("b = 2", 18), fit("b = 20", 18)]
    assert cell_len(fit("一二三四五", 6)) == 6 and fit("一二三四五", 6).endswith("…")  # wide characters counted


@pytest.mark.parametrize("lang,no_color", [("en", False), ("zh", True)])
def test_after_a_pass_f4_offers_the_reference_beside_your_code(home, sandbox, tui, lang, no_color):
    from tutor.ui.app import make_app

    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    mine = COURSE.solution_path("pure-scale").read_text() + "\n# my own note\n"
    (workspace / "pure-scale.py").write_text(mine)

    async def body():
        app = make_app(home, lang, course=(COURSE, []), sandbox=sandbox)
        app.marks = Marks(ascii_only=no_color, no_color=no_color)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await tui.open_exercise(pilot, "pure-scale")
            await pilot.press("f5")
            await tui.until(pilot, lambda: screen.verdict is not None, RUN_DEADLINE_S, "the verdict")
            assert screen.verdict.passed, screen.verdict.message
            assert say("compare_offer", lang) in tui.plain(screen.query_one("#verdict"))
            assert not app.session.progress.exercise("pure-scale").solution_viewed  # offered, not shown
            await pilot.press("f4")
            await tui.until(pilot, lambda: isinstance(app.screen, CompareScreen), 10, "the comparison")
            compare = app.screen
            assert compare.differences() >= 1  # the note only the learner's file has
            rows = tui.plain(compare.query_one("#compare-rows"))
            assert "# my own note" in rows and " < " in rows
            await tui.until(
                pilot, lambda: app.session.progress.exercise("pure-scale").solution_viewed, 10, "the record"
            )
            await pilot.press("escape")
            assert app.screen is screen

    asyncio.run(body())
