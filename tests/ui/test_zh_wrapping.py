"""Chinese on screen wraps as Chinese is set: every zh text of the course and of the UI, laid out
by the TUI's own text layout (Textual) and the CLI's (Rich) at the widths of an 80- and a
120-column terminal, and the lessons as the lesson screen shows them.

The rules are checked on the laid-out lines, knowing nothing of how the breaks were chosen: no
line ends on an opening bracket or quote, none after the first of a paragraph starts with
closing punctuation, and none starts with a Chinese character (or is a Latin word alone) that
the line before had room for.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("textual")

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.content import Content

from tutor.cli import texts as cli_texts
from tutor.course import read_course
from tutor.course.checks_source import chinese_strings
from tutor.doctor import options as doctor_options
from tutor.doctor import wording as doctor_wording
from tutor.i18n import Bilingual
from tutor.progress import reports
from tutor.terminal import render
from tutor.ui import texts as ui_texts
from tutor.ui.app import make_app
from tutor.ui.screens import doctor as doctor_screen

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(ROOT)

NO_END = "（“《"
NO_START = "，。、；：？！）”》"
CLOSING = NO_START + "」』】…—·"  # none of these may start a line: the character before goes with them
IDEOGRAPH = re.compile("[\u4e00-\u9fff]")
LATIN_WORD = re.compile(r"[\x21-\x7e]+")
# Text widths in the lesson body, a cell, a list item and the results at 80 and 120 columns.
WIDTHS = (72, 74, 76, 78, 112, 114, 116, 118)


def wrap_faults(lines: list[str], width: int) -> list[str]:
    """What is wrong with one paragraph laid out as `lines` in `width` cells."""
    faults = []
    for i, line in enumerate(lines):
        shown = line.rstrip()
        if shown.endswith(tuple(NO_END)):
            faults.append(f"line ends on an opening mark: {shown!r}")
        if i == 0:
            continue
        start = shown.lstrip()
        room = width - cell_len(lines[i - 1].rstrip())
        if start.startswith(tuple(NO_START)):
            faults.append(f"line starts with closing punctuation: {start!r}")
        elif IDEOGRAPH.match(start):
            first = re.match(f"[\u4e00-\u9fff](?: ?[{CLOSING}])*", start).group()
            # After Latin text (`count 来`) there was a space between, which also needs its cell.
            space = 0 if re.search("[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]$", lines[i - 1].rstrip()) else 1
            if room >= cell_len(first) + space:
                faults.append(f"{first!r} had room on the line before ({room} cells): {lines[i - 1]!r}")
        elif LATIN_WORD.fullmatch(start) and room > cell_len(start):
            faults.append(f"Latin word alone where the line before had room: {start!r}")
    return faults


# ---- every zh text -------------------------------------------------------------------------


def bilinguals(value, seen: set[int]):
    """Every Bilingual inside a course object (dataclasses, tuples, lists, dicts)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Bilingual):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from bilinguals(getattr(value, f.name), seen)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from bilinguals(item, seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from bilinguals(item, seen)


def filled(template: str) -> str:
    """A message with its {placeholders} filled as they would be: a short name or number."""
    return re.sub(r"\{[^{}]*\}", "x1", template)


def zh_texts() -> list[tuple[str, str]]:
    """(where, text) for every Chinese text the learner can be shown."""
    found = [("course", b.zh) for b in bilinguals(COURSE, set())]
    for ex in COURSE.exercises:
        checks = ROOT / "lessons" / "exercises" / ex.id / "checks.py"
        if checks.is_file():
            found += [(f"{ex.id}/checks.py", s) for _, s in chinese_strings(checks.read_text(encoding="utf-8"))]
    tables = {
        "ui": ui_texts.UI,
        "keys": ui_texts.KEY_LABELS,
        "doctor screen": doctor_screen.TEXTS,
        "doctor wording": doctor_wording.WORDS,
        "doctor options": doctor_options.MSG,
        "cli": cli_texts.MSG,
        "render": render.WORDS,
        "reports": reports.WORDS,
    }
    for name, table in tables.items():
        found += [(f"{name}:{key}", filled(b.zh)) for key, b in table.items()]
    return found


def paragraphs(text: str) -> list[str]:
    """The lines of a text that wrap on their own (Markdown markers and fences kept: the rules
    hold for them too)."""
    return [line for line in text.split("\n") if IDEOGRAPH.search(line) and cell_len(line) > min(WIDTHS)]


ZH_PARAGRAPHS = sorted({(where, p) for where, text in zh_texts() for p in paragraphs(text)})


def test_there_are_long_chinese_paragraphs_to_wrap():
    assert len(ZH_PARAGRAPHS) > 100


def tui_layout():
    make_app(Path("/nonexistent"), "zh")  # the app sets up the TUI's text layout
    return lambda text, width: [line.plain for line in Content(text).wrap(width)]


def cli_layout():
    import argparse

    from tutor.cli.context import Context

    Context(argparse.Namespace(lang="zh", home="/nonexistent")).console()  # as every CLI command gets it
    return lambda text, width: [
        line.plain for line in Text(text).wrap(Console(width=width, file=io.StringIO(), color_system=None), width)
    ]


@pytest.mark.parametrize("setup", [tui_layout, cli_layout], ids=["tui", "cli"])
def test_every_chinese_text_wraps_by_the_rules_at_80_and_120_columns(setup):
    layout = setup()
    faults = []
    for where, text in ZH_PARAGRAPHS:
        for width in WIDTHS:
            faults += [f"{where} at {width}: {f}" for f in wrap_faults(layout(text, width), width)]
    assert not faults, f"{len(faults)} faults, e.g.\n" + "\n".join(faults[:15])


# ---- the lesson screen -------------------------------------------------------------------------


async def _lesson_faults(home: Path, size: tuple[int, int]) -> list[str]:
    from textual.geometry import Region
    from textual.widgets._markdown import MarkdownBlock

    from tutor.progress.path import Step

    app = make_app(home, "zh", course=COURSE)
    faults: list[str] = []
    async with app.run_test(size=size) as pilot:
        for lesson in COURSE.lessons:
            app.open_step(Step("lesson", lesson.id))
            deadline = time.monotonic() + 60  # a ceiling: a lesson not laid out would be checked blank
            while time.monotonic() < deadline:
                await pilot.pause(0.05)
                texts = list(app.screen.query(".lesson-text"))
                if texts and all(t.source and t.children for t in texts):
                    break
            else:
                raise AssertionError(f"lesson {lesson.id}'s texts never laid out at {size}")
            await pilot.pause()
            for block in app.screen.query(MarkdownBlock):
                if block.children or not block.size.width:
                    continue  # a container of blocks (a list): its own children are checked
                width = block.content_region.width
                strips = block.render_lines(Region(0, 0, block.size.width, block.size.height))
                lines = [s.text[block.styles.padding.left :] for s in strips]
                lines = [line for line in lines if line.strip()]
                faults += [f"{lesson.id} {size}: {f}" for f in wrap_faults(lines, width)]
    return faults


@pytest.mark.slow  # lays out all ten lessons (~20 s on a busy machine); every text is checked fast above
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_lessons_on_screen_wrap_chinese_by_the_rules(tmp_path, size):
    faults = asyncio.run(_lesson_faults(tmp_path, size))
    assert not faults, f"{len(faults)} faults, e.g.\n" + "\n".join(faults[:15])
