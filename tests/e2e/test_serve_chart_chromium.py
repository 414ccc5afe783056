"""Issue 56's rnn walk in the browser at 80x24: the learner's loss and the reference solution's
dimmer series in one chart, en in colour and zh under NO_COLOR (the server's environment, which
each tab's tutor inherits), where the reference has a glyph of its own ('.', the learner's '*').

The learner's file is a passing rnn of its own (tests/cases/rnn/pass_column_orientation.py: `Wh @ h`,
which the checks accept), so its training leaves the reference's. Every wait is on an event (the
page's size settled, the run's verdict, the reference's numbers in the chart's note) with a
generous ceiling: a first run may wait for a worker's JAX import on a loaded machine. Screenshots
of the page are left under the test's tmp_path/shots for a person to look at.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from tutor.course import read_course
from tutor.settings import course_of
from tutor.terminal.render import verdict_head

ROOT = Path(__file__).resolve().parents[2]
COURSE, _ = read_course(course_of())
LEARNER = ROOT / "tests" / "cases" / "rnn" / "pass_column_orientation.py"
RUN_S = 600  # the check and the reference's training, each maybe after a worker's JAX import, at load 20
WALKS = [("en", False), ("zh", True)]
IDS = ["en", "zh-no-color"]
SAY = {
    "en": {"outline": "Continue:", "search": "Search", "latest": "latest: ", "reference": "reference: "},
    "zh": {"outline": "继续：", "search": "搜索", "latest": "最新：", "reference": "参考解："},
}
BRAILLE = re.compile("[\u2801-\u28ff]")
NUMBER = r"(-?[0-9.]+(?:e-?[0-9]+)?)"


def chart_rows(shown: str) -> list[str]:
    """The rows inside the chart's border (its note first), as far as the screen shows them."""
    lines = shown.splitlines()
    top = next((i for i, line in enumerate(lines) if "╭" in line and ("loss" in line or "损失" in line)), None)
    if top is None:
        return []
    rows = []
    for line in lines[top + 1 :]:
        if "╰" in line or "│" not in line:
            break
        rows.append(line.strip().strip("│"))
    return rows


def note_values(shown: str, lang: str) -> tuple[float, float] | None:
    """(the learner's latest loss, the reference's at the same step) from the chart's note."""
    rows = chart_rows(shown)
    if not rows:
        return None
    say = SAY[lang]
    mine = re.search(re.escape(say["latest"]) + NUMBER, rows[0])
    theirs = re.search(re.escape(say["reference"]) + NUMBER, rows[0])
    return (float(mine.group(1)), float(theirs.group(1))) if mine and theirs else None


def until(condition, what: str, timeout: float):
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.2)
    return found


@pytest.mark.parametrize("lang,no_color", WALKS, ids=IDS)
def test_both_curves_in_rnn_in_chromium_at_80x24(chromium, serve, home, tmp_path, lang, no_color):
    say = SAY[lang]
    workspace = home / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    shutil.copy(LEARNER, workspace / "rnn.py")
    served = serve(lang=lang, no_color=no_color)
    chromium.open(served.url)
    chromium.wait_for(say["outline"], timeout=120)
    chromium.fit(80, 24)
    chromium.wait_for(say["outline"], timeout=60)

    chromium.key("p", ctrl=True)
    chromium.wait_for(say["search"], "🔎", timeout=60)
    chromium.type("rnn")
    chromium.wait_for("rnn:", timeout=60)
    chromium.key("Enter")
    chromium.wait_for(COURSE.exercise("rnn").title.get(lang)[:20], timeout=60)
    chromium.key("F5")
    verdicts = [verdict_head(status, lang) for status in ("pass", "fail", "error", "timeout")]
    shown = chromium.wait_for(*verdicts, timeout=RUN_S)
    assert verdicts[0] in shown, shown  # a learner's own rnn that passes
    # The page's size once more (a late resize is laid out again at 80x24 before it is read), then
    # the reference's numbers in the note: trained in a worker from the course's solution,
    # they may come after the learner's verdict.
    chromium.fit(80, 24)
    values = until(lambda: note_values(chromium.text(), lang), "the reference's value in the chart's note", RUN_S)
    shown = chromium.text()
    chromium.screenshot(tmp_path / "shots" / f"rnn-{lang}.png")
    assert verdicts[0] in shown, shown  # the verdict still heads the results
    mine, theirs = values
    assert mine != theirs, shown  # the learner's training left the reference's
    rows = chart_rows(shown)
    plot = rows[1:]
    if no_color:
        # each series in a glyph of its own: the learner's '*' and the reference's '.', on several rows
        assert "." in rows[0], rows[0]  # the note names the reference by its glyph
        assert sum("*" in r for r in plot) >= 3 and sum("." in r.split("┤")[-1] for r in plot) >= 3, shown
    else:
        assert sum(bool(BRAILLE.search(r)) for r in plot) >= 4, shown  # a curve over several rows
        # the learner's colour and the reference's grey
        assert len(chromium.colours(BRAILLE.match)) >= 2, shown
    assert len(plot) >= 8, shown  # the whole plot on screen, not two rows of it
    assert served.stop() == 0
