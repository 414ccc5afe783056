"""End to end: `jaxstate-tutor serve` in headless Chromium, driven by the browser's own key events.

A lesson's demo cell with its prediction answered, then an exercise edited in the page's editor
and passed; the page never needs a first click, F9 offers what works in a browser, and the
learner's file is not shown by the server's path. Screens are read from what the page received
(tests/plugins/browser.py); every wait has a deadline, nothing waits a fixed time.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest

DEADLINE_S = 180  # a first run may wait for a worker's JAX import on a busy machine
FACES = """(async () => {
  await document.fonts.ready;
  return [...document.fonts].map((f) => [f.family, f.unicodeRange, f.status]);
})()"""


def _has_font(family: str) -> bool:
    if shutil.which("fc-list") is None:
        return False
    return bool(subprocess.run(["fc-list", family], capture_output=True, text=True).stdout.strip())


def test_a_lesson_a_prediction_and_an_exercise_in_chromium(chromium, serve, home):
    served = serve()
    chromium.open(served.url)
    chromium.wait_for("Continue:", timeout=60)
    # No click: the page gave its terminal the keyboard.
    assert chromium.evaluate("document.activeElement.className") == "xterm-helper-textarea"
    # Chinese has a font: the page names CJK fonts for CJK code points; where this machine has the
    # first of them (Debian's fonts-noto-cjk), the page loaded it.
    faces = chromium.evaluate(FACES)
    cjk = [status for family, unicode_range, status in faces if "U+4E00" in unicode_range.upper()]
    assert cjk, faces
    if _has_font("Noto Sans Mono CJK SC"):
        assert cjk == ["loaded"], faces

    chromium.key("c")  # continue: lesson 6.1
    chromium.wait_for("import contextlib", timeout=60)  # its first demo cell, drawn
    chromium.key("Tab")  # to the cell
    chromium.wait_for("e Edit", timeout=60)  # the cell's own keys in the footer: it has the focus
    chromium.key("Enter")  # run it: it asks for a prediction first
    chromium.wait_for("Predict first", timeout=60)
    chromium.key("a")
    shown = chromium.wait_for("Right!", "Not quite", timeout=DEADLINE_S)
    assert "You predicted A)" in shown

    chromium.key("p", ctrl=True)  # the palette finds the exercise by name
    chromium.wait_for("Search", timeout=30)
    chromium.type("counter-jit")
    chromium.wait_for("counter-jit:", timeout=30)
    chromium.key("Enter")
    shown = chromium.wait_for("— counter-jit", timeout=60)
    assert str(home) not in shown  # the file is on the server: no path shown as if it were the viewer's

    chromium.key("F9")  # in a terminal: $EDITOR; here: the page's own editor
    shown = chromium.wait_for("1  def update_counter", timeout=30)
    assert "$VISUAL" not in shown and "$EDITOR" not in shown and "suspend" not in shown
    # The starter returns `count, increment`: make it `count + 1, increment`.
    for key in ("Down", "Down", "Down", "End", *["Left"] * len(", increment")):
        chromium.key(key)
    chromium.type(" + 1")
    chromium.wait_for("return count + 1, increment", timeout=30)
    chromium.key("F5")
    shown = chromium.wait_for("PASS", "FAIL", "ERROR", "TIMEOUT", timeout=DEADLINE_S)
    assert "PASS" in shown, shown

    assert served.stop() == 0  # Ctrl+C on the server: the tab's tutor saves and quits first
    data = json.loads((home / "progress.json").read_text(encoding="utf-8"))
    assert data["exercises"]["counter-jit"]["status"] == "passed"
    assert data["predictions"]["l61-pure-or-not"]["answer"] == "A"
    assert (home / "workspace" / "counter-jit.py").read_text(encoding="utf-8").count("count + 1, increment") == 1


def test_chinese_is_drawn_with_the_shipped_font_where_the_viewer_has_none(chromium_without_fonts, serve):
    served = serve(lang="zh")
    chromium_without_fonts.open(served.url)
    chromium_without_fonts.wait_for("继续：", timeout=60)
    faces = chromium_without_fonts.evaluate(FACES)
    # No local() font exists on this "machine": a loaded CJK face is the shipped file.
    assert [status for _, unicode_range, status in faces if "U+4E00" in unicode_range.upper()] == ["loaded"], faces


def test_arrows_and_enter_work_on_a_freshly_opened_outline_and_the_footer_offers_what_works(chromium, serve):
    """Textual's web driver starts the app blurred, and the page's "focus" reached it before that:
    the outline came up with nothing focused, and arrows and Enter did nothing (3 of 3 tries)."""
    served = serve()
    chromium.open(served.url)
    shown = chromium.wait_for("Continue:", timeout=60)
    # The footer offers no key the browser keeps for itself (Ctrl+Q quits Firefox; Ctrl+N, Ctrl+T
    # and Ctrl+W never reach a page in Chromium): Quit is closing the tab.
    assert "^Q" not in shown.splitlines()[-1] and "Help" in shown.splitlines()[-1], shown
    chromium.key("Down")  # 6.1 -> its checkpoint
    chromium.key("Down")  # -> its first exercise
    chromium.key("Enter")
    shown = chromium.wait_for("— pure-scale", timeout=60)
    assert "^N" not in shown and "^T" not in shown, shown


def show_the_trace_panel(chromium) -> None:
    """F10 unless the panel is on already: the exercise shows it where the page is wide when the
    exercise opens (TRACE_PANEL_MIN_WIDTH), and the page's size may come before or after that (under
    CI's load it came before, and F10 hid the panel the test then waited for)."""
    chromium.wait_for("F5 Check", timeout=60)
    time.sleep(1.0)  # a frame for the panel, if the width gives it one
    for _ in range(3):
        if "Traces (F10)" in chromium.text():
            return
        chromium.key("F10")
        try:
            chromium.wait_for("Traces (F10)", timeout=20)
            return
        except AssertionError:
            continue
    raise AssertionError(f"F10 never showed the trace panel:\n{chromium.text()}")


def test_the_trace_panel_the_reference_curve_and_the_comparison_in_chromium(chromium, serve, home):
    """Issue 56, items 3-5 in the browser: F10's trace panel with counter-jit's retrace reason; rnn's
    chart with the reference's value beside the learner's; after the pass, F4 sets them side by side."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    workspace = home / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    shutil.copy(
        root / "tests" / "cases" / "counter-jit" / "fail_jit-once__float_output.py", workspace / "counter-jit.py"
    )
    shutil.copy(root / "solutions" / "rnn.py", workspace / "rnn.py")
    served = serve()
    chromium.open(served.url)
    chromium.wait_for("Continue:", timeout=60)

    chromium.key("p", ctrl=True)
    chromium.wait_for("Search", timeout=30)
    chromium.type("counter-jit")
    chromium.wait_for("counter-jit:", timeout=30)
    chromium.key("Enter")
    chromium.wait_for("— counter-jit", timeout=60)
    show_the_trace_panel(chromium)
    chromium.key("F5")
    chromium.wait_for("FAIL", timeout=DEADLINE_S)
    chromium.wait_for("trace 2 happened", timeout=30)  # in the panel as in the check's message
    chromium.key("Escape")

    chromium.key("p", ctrl=True)
    chromium.wait_for("Search", timeout=30)
    chromium.type("rnn")
    chromium.wait_for("rnn:", timeout=30)
    chromium.key("Enter")
    chromium.wait_for("— rnn", timeout=60)
    chromium.key("F5")
    chromium.wait_for("PASS", timeout=DEADLINE_S)
    shown = chromium.wait_for("reference: ", timeout=DEADLINE_S)  # the reference's value on the chart's line
    assert "F4: see your code beside the reference" in shown
    chromium.key("F4")
    shown = chromium.wait_for("Yours and the reference", timeout=30)
    assert "Reference" in shown and "0 rows differ" in shown
    assert served.stop() == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_todays_review_and_a_drill_in_chromium(chromium, serve, home, lang):
    """Issue 56 in the browser: yesterday's wrong answer is on the outline and v asks it again; the
    lesson's spot-the-bug drill is done with keys, and the failing check's words come from a real
    worker run."""
    from datetime import date, timedelta

    from tutor.progress import ProgressStore, changes

    ProgressStore(home).apply(changes.answer, "1", "A", False, True, date.today() - timedelta(days=1))
    say = {
        "en": ("1 to review today", "Review", "Review: ", "Spot the bug", "Line 5: right.", "says:"),
        "zh": ("今天有 1 道题要复习", "复习", "复习：", "找错", "第 5 行：对了。", "的说法："),
    }[lang]
    served = serve(lang=lang)
    chromium.open(served.url)
    chromium.wait_for(say[0], timeout=60)
    chromium.key("v")
    chromium.wait_for(say[1], timeout=60)
    chromium.key("b")  # an option's letter, then Enter twice: answer, then on to the end
    chromium.key("Enter")
    chromium.key("Enter")
    chromium.wait_for(say[2], timeout=60)
    chromium.key("c")
    chromium.key("b")  # the highlighted row is lesson 6.1: its drills
    chromium.wait_for(say[3], timeout=60)
    chromium.key("5")
    chromium.key("Enter")
    chromium.wait_for(say[4], timeout=60)
    chromium.key("Enter")
    shown = chromium.wait_for(say[5], timeout=DEADLINE_S)
    assert "history" in shown, shown
    assert served.stop() == 0
    data = json.loads((home / "progress.json").read_text(encoding="utf-8"))
    assert data["drills"]["pure-scale/history"]["line"] == 5
    assert data["questions"]["1"]["tries"] == 2
