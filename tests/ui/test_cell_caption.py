"""A cell's caption is one line of the author's Markdown: its `code` shows as code, never between
raw backticks (issue 52, item 10: "`pmap` 下复制的 `w`" was on screen as written), in en and zh."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.widgets.cell_view import CellView

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_caption_with_code_shows_no_backticks(home, fake_sandbox, tui, answer_every_prediction, lang):
    lesson = next(l for l in COURSE.lessons if any(c.caption and "`" in c.caption.en for c in l.cells))
    answer_every_prediction(home)

    async def body():
        app = make_app(home, lang, course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_step(Step("lesson", lesson.id))
            await tui.until(pilot, lambda: app.screen.query(CellView), 10, "the lesson's cells")
            views = [v for v in app.screen.query(CellView) if v.cell.caption and "`" in v.cell.caption.get(lang)]
            assert views
            for view in views:
                shown = view.query_one(".cell-caption").render()
                plain = getattr(shown, "plain", str(shown))
                assert "`" not in plain, plain
                code = view.cell.caption.get(lang).split("`")[1]
                assert code in plain, (code, plain)

    asyncio.run(body())
