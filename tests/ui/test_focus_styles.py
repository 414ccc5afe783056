"""A focus change restyles only the widget that gained or lost it (tutor.ui.widgets.own_focus_style):
valid while no rule styles a descendant by an ancestor's :focus, and the focus still shows."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tutor.course import read_course
from tutor.progress.path import Step
from tutor.ui.app import make_app
from tutor.ui.widgets.cell_view import CellView
from tutor.ui.widgets.own_focus_style import OwnFocusStyle

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)


def _ancestor_focus_rules(app, type_names: set[str]) -> list[str]:
    """Rules whose selector asks for :focus on a widget that is not the one styled, where that
    widget could be one of `type_names` (or any widget: a universal, id or class selector)."""
    found = []
    for rule in app.stylesheet.rules:
        for selector_set in rule.selector_set:
            *ancestors, _styled = selector_set.selectors
            for selector in ancestors:
                if {"focus", "focus-within"} & set(selector.pseudo_classes):
                    if selector.name in type_names or selector.type.name != "TYPE":
                        found.append(rule.css)
    return found


def test_no_rule_styles_a_descendant_by_the_focus_and_the_focus_shows(home, fake_sandbox, tui):
    lesson = next(lesson for lesson in COURSE.lessons if len(lesson.cells) >= 2)
    exercise = COURSE.exercises[0]

    async def body():
        app = make_app(home, "en", course=(COURSE, []), sandbox=fake_sandbox)
        async with app.run_test(size=tui.size) as pilot:
            app.open_step(Step("lesson", lesson.id))
            await tui.until(pilot, lambda: getattr(app.screen, "revealed", False), 10, "the lesson shown")
            screen = app.screen
            reading, cells = screen.query_one("#lesson-body"), list(screen.query(CellView))
            names = {cls.__name__ for widget in (reading, cells[0]) for cls in type(widget).__mro__}
            for target in (cells[0], cells[1], reading):
                target.focus(scroll_visible=False)
                await pilot.pause()
                for cell in cells:
                    expected = "double" if cell is target else "round"
                    assert cell.styles.border_top[0] == expected, (target, cell)
            await tui.open_exercise(pilot, exercise.id)  # its task scroll, results and editor's CSS too
            for view in ("#task-scroll", "#results-view"):  # F5 moves the focus from one to the other
                widget = app.screen.query_one(view)
                assert isinstance(widget, OwnFocusStyle), view
                names |= {cls.__name__ for cls in type(widget).__mro__}
            assert _ancestor_focus_rules(app, names) == []

    asyncio.run(body())
