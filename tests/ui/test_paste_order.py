"""A paste goes through the same ordered queue as keys (issue 40): it lands after the keys typed
just before it, never before them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events

from tutor.course import read_course
from tutor.i18n import Bilingual
from tutor.ui.app import make_app

ROOT = Path(__file__).resolve().parents[2]
COURSE, _PROBLEMS = read_course(ROOT)


def test_a_paste_lands_after_the_keys_typed_before_it(home, fake_sandbox, tui):
    ex = COURSE.exercise("pure-scale")
    if ex is None:
        pytest.skip("exercise pure-scale is not in the course")
    checks = fake_sandbox.checks(ex, failing={ex.checks[0].id: Bilingual.same("wrong")})
    fake_sandbox.script(ex.id, *checks, fake_sandbox.verdict("fail", checks))
    app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)

    async def go():
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await tui.open_exercise(pilot, ex.id)
            screen.editor.focus()
            await pilot.pause()
            screen.editor.load_text("old text\n")
            screen.editor.move_cursor((0, 0))
            # select-all, Backspace, then a paste: the learner's replacement of the whole file
            for message in (
                events.Key("ctrl+a", None),
                events.Key("backspace", None),
                events.Key("a", "a"),
                events.Key("b", "b"),
                events.Paste("PASTED"),
            ):
                app._driver.send_message(message)
            await tui.until(pilot, lambda: "PASTED" in screen.editor.text, timeout=60, what="the paste")
            for _ in range(3):
                await pilot.pause()
            assert screen.editor.text == "abPASTED"

    asyncio.run(go())
