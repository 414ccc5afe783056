"""The live loss chart: its tick and thinning functions (pure), the widget under Textual's Pilot
at 80x24, what a finished run without points says, and a re-check through the real exercise
screen. The end-to-end "visibly live" test is tests/e2e/test_chart_tmux.py."""

from __future__ import annotations

import asyncio
import math
import random
import shutil
from pathlib import Path

import pytest
from textual.app import App

from tutor.course import read_course
from tutor.i18n import Bilingual
from tutor.protocol import CheckResult, MetricPoints
from tutor.sandbox.events import Verdict
from tutor.ui.mark_styles import Marks
from tutor.ui.session import Session
from tutor.ui.texts import say
from tutor.ui.widgets.loss_chart import LossChart, linear_ticks, log_ticks, thin, tick_label

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
COURSE, _ = read_course(ROOT)
SIZE = (80, 24)
RUN_DEADLINE_S = 180  # a check may have to wait for a worker's JAX import on a busy machine


# ---- ticks and thinning: pure functions -------------------------------------------------------


def mantissa(value: float) -> float:
    return round(value / 10.0 ** math.floor(math.log10(value) + 1e-9), 6)


def test_log_ticks_are_1_2_5_in_every_decade_when_they_fit():
    ticks, bottom, top = log_ticks(0.0107, 0.9, max_ticks=7)
    assert [tick_label(t) for t in ticks] == ["0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1"]
    assert (bottom, top) == (ticks[0], ticks[-1])
    ticks, _, _ = log_ticks(3.1e-3, 0.047, max_ticks=8)
    assert [tick_label(t) for t in ticks] == ["0.002", "0.005", "0.01", "0.02", "0.05"]
    # The ends are widened to the nearest 1-2-5 values around the data, so both are labelled.
    assert log_ticks(0.3, 3, 6) == ([0.2, 0.5, 1, 2, 5], 0.2, 5)


def test_log_ticks_fall_back_to_powers_of_ten_then_to_every_kth():
    ticks, bottom, top = log_ticks(1.07e-4, 0.33, max_ticks=6)
    assert [tick_label(t) for t in ticks] == ["1e-4", "0.001", "0.01", "0.1", "1"]
    ticks, _, _ = log_ticks(1e-12, 1e12, max_ticks=6)
    assert [tick_label(t) for t in ticks] == ["1e-20", "1e-10", "1", "1e10", "1e20"]


def test_log_ticks_whatever_the_range():
    rng = random.Random(7)
    for _ in range(1000):
        lo = 10.0 ** rng.uniform(-300, 290)
        hi = min(lo * 10.0 ** rng.choice([rng.uniform(1, 3), rng.uniform(0, 40), rng.uniform(0, 1)]), 1e300)
        max_ticks = rng.randint(2, 12)
        ticks, bottom, top = log_ticks(lo, hi, max_ticks)
        case = f"log_ticks({lo!r}, {hi!r}, {max_ticks}) = {ticks}"
        assert 1 <= len(ticks) <= max_ticks, case
        assert ticks == sorted(ticks) and len(set(ticks)) == len(ticks), case
        assert bottom <= lo * (1 + 1e-9) and top >= hi * (1 - 1e-9), case
        assert ticks[0] == bottom and ticks[-1] == top, case
        assert all(mantissa(t) in (1, 2, 5) for t in ticks), case
        assert all(len(tick_label(t)) <= 6 for t in ticks), case


def test_log_ticks_reject_what_no_log_axis_can_show():
    for lo, hi in ((0, 1), (-1, 1), (1, math.inf), (math.nan, 1)):
        with pytest.raises(ValueError):
            log_ticks(lo, hi)


def test_tick_labels_are_compact():
    cases = {
        0.05: "0.05",
        0.002: "0.002",
        0.0005: "5e-4",
        2e-5: "2e-5",
        1000: "1000",
        1e5: "1e5",
        2.5: "2.5",
        0.30000000000000004: "0.3",
        0: "0",
        -0.5: "-0.5",
        12345: "12300",
        1e-300: "1e-300",
    }
    assert {v: tick_label(v) for v in cases} == cases


def test_linear_ticks_have_a_1_2_5_step_and_cover_the_data():
    assert linear_ticks(0, 2999, 7, integer=True)[0] == [0, 500, 1000, 1500, 2000, 2500, 3000]
    assert [tick_label(t) for t in linear_ticks(0.12, 0.19, 5)[0]] == ["0.12", "0.14", "0.16", "0.18", "0.2"]
    ticks, bottom, top = linear_ticks(5, 5, 5)  # one value: a range around it
    assert bottom < 5 < top and len(ticks) >= 2
    assert linear_ticks(0, 3, 7, integer=True)[0] == [0, 1, 2, 3]  # steps never go below 1


def test_thin_keeps_the_envelope_and_the_order():
    xs = list(range(20000))
    ys = [math.exp(-x / 500) + (0.5 if x == 12345 else 0) for x in xs]
    tx, ty = thin(xs, ys, 70)
    assert len(tx) <= 140 and tx == sorted(tx)
    assert max(ty) == max(ys) and min(ty) == min(ys) and 12345 in tx
    assert thin(xs[:100], ys[:100], 70) == (xs[:100], ys[:100])


# ---- the widget -------------------------------------------------------------------------------


class ChartApp(App):
    def __init__(self, ascii_marker=False, no_color=False):
        super().__init__()
        self.lang = "en"
        self.marks = Marks(ascii_only=ascii_marker, no_color=no_color)
        self.ascii_marker = ascii_marker

    def compose(self):
        yield LossChart("loss", ascii_marker=self.ascii_marker, waiting="waiting…", log_note=" (log)")


def falling(n: int, start: int = 0):
    return [("loss", i, 0.3 * math.exp(-i / 40) + 1e-4) for i in range(start, start + n)]


def test_the_chart_draws_under_no_color_where_textual_filters_every_row(monkeypatch, tui):
    """NO_COLOR makes Textual pass every row through its Monochrome filter, which reads each
    segment's style: the plot's blank rows (before its first picture, below it, a wider widget's
    padding) had none, and the tutor ended with AttributeError on the first points of rnn (seen
    in tmux and in the browser, zh NO_COLOR: the page stayed at "waiting for the first points")."""
    monkeypatch.setenv("NO_COLOR", "1")  # read by Textual when the app is made

    async def body():
        app = ChartApp(no_color=True)
        async with app.run_test(size=SIZE) as pilot:
            chart = app.query_one(LossChart)
            chart.add(falling(500))
            await tui.until(pilot, lambda: chart.redraws >= 1, timeout=10, what="the first plot")
            plot = chart._plot
            rows = [plot.render_line(y) for y in range(plot.size.height + 2)]  # and past the picture
            plot.rows = []  # as before its first picture
            rows.append(plot.render_line(0))
            assert all(seg.style is not None for row in rows for seg in row), rows
            await pilot.resize_terminal(100, 24)  # wider than the picture: padded until redrawn
            await pilot.pause()

    asyncio.run(body())


def test_a_resized_chart_is_drawn_again_at_the_size_it_is_shown(tui):
    """A picture drawn for one width and shown at another is cut or padded: after a pass at 80x24
    the checks mounted under the chart brought a scrollbar, and the x axis's last label read '100'
    (CI, the NO_COLOR snapshot). A size the picture was not drawn for draws it again."""

    async def body():
        app = ChartApp()
        async with app.run_test(size=SIZE) as pilot:
            chart = app.query_one(LossChart)
            chart.add(falling(1000))
            await tui.until(pilot, chart.settled, timeout=10, what="the first plot")
            drawn = chart.redraws
            for width in (70, 90):
                await pilot.resize_terminal(width, 24)
                await tui.until(pilot, lambda: chart._plot.size.width == width - 2, 10, "the resize")
                await tui.until(pilot, chart.settled, timeout=10, what=f"the plot at {width} columns")
                assert chart._plot.drawn_for == (chart._plot.size.width, chart._plot.size.height)
                axis = "".join(seg.text for seg in chart._plot.rows[-1]).rstrip()
                assert axis.endswith("1000"), axis  # the last label whole, at the right edge
            assert chart.redraws == drawn + 2  # once per size, not on every tick

    asyncio.run(body())


def test_clear_takes_the_old_curve_off_the_screen_at_once(tui):
    async def body():
        app = ChartApp()
        async with app.run_test(size=SIZE) as pilot:
            chart = app.query_one(LossChart)
            chart.add(falling(500))
            await tui.until(pilot, lambda: chart.redraws >= 1, timeout=10, what="the first plot")
            assert chart._plot.display and "latest: 0.0001" in tui.plain(chart.query_one("#chart-note"))
            chart.clear()  # a re-check starts
            await pilot.pause()
            assert not chart._plot.display and chart.point_count() == 0
            assert tui.plain(chart.query_one("#chart-note")).strip() == "waiting…"
            drawn = chart.redraws
            await asyncio.sleep(0.2)
            assert chart.redraws == drawn  # nothing to draw until new points come
            chart.add(falling(3))
            await tui.until(pilot, lambda: chart.redraws > drawn, timeout=10, what="the new plot")
            assert chart._plot.display and "(step 2)" in tui.plain(chart.query_one("#chart-note"))

    asyncio.run(body())


def test_the_curve_grows_one_redraw_per_batch_without_a_legend_on_the_data(tui):
    async def body():
        app = ChartApp()
        async with app.run_test(size=SIZE) as pilot:
            chart = app.query_one(LossChart)
            for batch in range(5):
                chart.add(falling(100, start=100 * batch))
                await tui.until(pilot, lambda: chart.redraws == batch + 1, timeout=10, what=f"redraw {batch + 1}")
                assert f"(step {100 * batch + 99})" in tui.plain(chart.query_one("#chart-note"))
            plot = chart._plot.plt.build()
            assert "loss" not in plot  # no plotext legend box over the curve
            assert "0.001" in plot and "0.1" in plot and "0.30" not in plot  # 1-2-5 ticks, not 0.30018
            assert chart._plot.plt.build() == plot  # a repaint draws the same (no log of the log)

    asyncio.run(body())


@pytest.mark.parametrize("ascii_marker,no_color", [(True, False), (False, True)])
def test_without_colour_or_unicode_the_series_differ_by_marker(ascii_marker, no_color, tui):
    async def body():
        app = ChartApp(ascii_marker=ascii_marker, no_color=no_color)
        async with app.run_test(size=SIZE) as pilot:
            chart = app.query_one(LossChart)
            chart.add(falling(300))
            chart.add([("ema", i, 0.2 * math.exp(-i / 200) + 1e-3) for i in range(300)])
            await tui.until(pilot, lambda: chart.redraws >= 1, timeout=10, what="the plot")
            note = tui.plain(chart.query_one("#chart-note")).strip()
            assert note.startswith("* loss: ") and "+ ema: " in note and note.endswith("(log)")
            plot = chart._plot.plt.build()
            assert "*" in plot and "+" in plot
            assert not any(0x2800 <= ord(c) <= 0x28FF for c in plot)  # no braille dots

    asyncio.run(body())


# ---- what a finished run says (RunResults tells the chart) ------------------------------------


def needs_exercise(exercise_id: str):
    if COURSE.exercise(exercise_id) is None or not COURSE.solution_path(exercise_id).is_file():
        pytest.skip(f"exercise {exercise_id} is not in the course yet")
    return COURSE.exercise(exercise_id)


class ResultsApp(App):
    """The app members RunResults reads (tutor.ui.app_protocol), the session a real one on a throwaway home."""

    def __init__(self, exercise, home: Path):
        super().__init__()
        self.lang = "en"
        self.marks = Marks(ascii_only=False, no_color=False)
        self.session = Session(home, course=COURSE)
        self.exercise = exercise

    def compose(self):
        from tutor.ui.widgets.run_results import RunResults

        yield RunResults(self.exercise)


def verdict(exercise, statuses: dict, kind: str = "checks") -> Verdict:
    checks = [CheckResult(c.id, statuses.get(c.id, "pass"), Bilingual.same("")) for c in exercise.checks]
    status = "pass" if kind == "checks" and all(c.status == "pass" for c in checks) else "fail"
    return Verdict(
        status=status,
        kind=kind,
        message=Bilingual.same(""),
        checks=checks,
        stdout="",
        stderr="",
        duration_s=1.0,
        metrics={},
    )


@pytest.mark.parametrize(
    "statuses,kind,key",
    [
        ({"carries-state": "fail", "gradients": "skipped", "trains": "skipped"}, "checks", "chart_skipped"),
        (
            {
                c: "skipped"
                for c in ("defines", "output-shape", "first-step", "carries-state", "uses-scan", "gradients", "trains")
            },
            "syntax",
            "chart_not_reached",
        ),
        ({"trains": "skipped"}, "timeout", "chart_not_reached"),
        ({"trains": "fail"}, "checks", "chart_no_points"),
    ],
)
def test_a_run_that_drew_nothing_says_why(statuses, kind, key, home, tui):
    exercise = needs_exercise("rnn")
    from tutor.ui.widgets.run_results import RunResults

    async def body():
        app = ResultsApp(exercise, home)
        async with app.run_test(size=SIZE) as pilot:
            results = app.query_one(RunResults)
            results.clear(running=True)
            await pilot.pause()
            note = results.chart.query_one("#chart-note")
            assert tui.plain(note).strip() == say("chart_waiting", "en")
            results.finish(verdict(exercise, statuses, kind))
            await pilot.pause()
            assert tui.plain(note).strip() == say(key, "en")
            app.lang = "zh"  # Ctrl+L: the note follows the language
            results.render_all()
            await pilot.pause()
            assert tui.plain(note).strip() == say(key, "zh")
            results.clear(running=True)  # the next run waits again
            await pilot.pause()
            assert tui.plain(note).strip() == say("chart_waiting", "zh")

    asyncio.run(body())


def test_a_run_with_points_keeps_its_curve_after_the_verdict(home, tui):
    exercise = needs_exercise("rnn")
    from tutor.ui.widgets.run_results import RunResults

    async def body():
        app = ResultsApp(exercise, home)
        async with app.run_test(size=SIZE) as pilot:
            results = app.query_one(RunResults)
            results.clear(running=True)
            results.add_metrics(MetricPoints(tuple(falling(200))))
            results.finish(verdict(exercise, {}))
            await tui.until(pilot, lambda: results.chart.redraws >= 1, timeout=10, what="the plot")
            assert "latest:" in tui.plain(results.chart.query_one("#chart-note"))

    asyncio.run(body())


def test_the_chart_sits_under_the_verdict_while_a_run_goes_and_after_a_pass_under_the_checks_after_a_fail(home, tui):
    """At 80x24 the checks above the chart left it two rows of plot after a pass; after a failure
    the checks' messages say why, so they come first there."""
    exercise = needs_exercise("rnn")
    from tutor.ui.widgets.run_results import RunResults

    def order(results) -> list[str]:
        return [w.id for w in results.children if w.id in ("verdict", "chart", "checks")]

    async def body():
        app = ResultsApp(exercise, home)
        async with app.run_test(size=SIZE) as pilot:
            results = app.query_one(RunResults)
            results.clear(running=True)
            assert order(results) == ["verdict", "chart", "checks"]
            results.add_metrics(MetricPoints(tuple(falling(200))))
            results.finish(verdict(exercise, {"no-hidden-state": "fail"}))
            await pilot.pause()
            assert order(results) == ["verdict", "checks", "chart"]
            results.clear(running=True)
            await pilot.pause()
            assert order(results) == ["verdict", "chart", "checks"]
            results.add_metrics(MetricPoints(tuple(falling(200))))
            results.finish(verdict(exercise, {}))
            await tui.until(pilot, lambda: results.chart.redraws >= 1, timeout=10, what="the plot")
            assert order(results) == ["verdict", "chart", "checks"]
            # the whole chart (12 rows) within the results' 24 rows, right under the verdict
            chart, head = results.chart.region, results.query_one("#verdict").region
            assert chart.y <= head.bottom + 1 and chart.bottom <= results.region.bottom, (head, chart, results.region)

    asyncio.run(body())


# ---- through the real exercise screen ---------------------------------------------------------


def tutor_app(home, sandbox):
    from tutor.ui.app import make_app

    app = make_app(home, "en", course=(COURSE, []), sandbox=sandbox)
    app.marks = Marks(ascii_only=False)
    return app


def test_a_recheck_clears_the_curve_and_a_failed_one_says_training_was_skipped(home, sandbox, tui):
    needs_exercise("rnn")
    workspace = home / "workspace"
    workspace.mkdir(parents=True)
    shutil.copy(COURSE.solution_path("rnn"), workspace / "rnn.py")

    async def body():
        app = tutor_app(home, sandbox)
        async with app.run_test(size=SIZE) as pilot:
            screen = await tui.open_exercise(pilot, "rnn")
            chart = screen.query_one(LossChart)
            await pilot.press("f5")
            await tui.until(pilot, lambda: screen.verdict is not None, RUN_DEADLINE_S, "the verdict")
            assert screen.verdict.passed, screen.verdict.message
            await tui.until(pilot, chart.settled, timeout=10, what="the last plot")
            assert chart.point_count() > 0 and chart._plot.display
            # The course's solution on the same data, under the curve: trained in a worker as the
            # screen opened, kept in the home as numbers only (issue 56, item 3).
            await tui.until(pilot, lambda: screen.reference_state != "computing", RUN_DEADLINE_S, "the reference")
            assert screen.reference_state == "ready" and len(chart.reference["loss"][0]) == chart.point_count()
            await tui.until(
                pilot, lambda: "reference: " in tui.plain(chart.query_one("#chart-note")), 10, "the reference's value"
            )
            (kept,) = (home / "reference-curves").glob("rnn-*.json")
            assert "def " not in kept.read_text() and "rnn_forward" not in kept.read_text()

            # Check again: the old curve goes at once. Seen the moment the chart is cleared: by
            # the time pilot.press returns, a warm worker may have streamed the new run's points
            # (1841 of them once, on a loaded 2-core machine).
            at_clear = []
            clear = chart.clear

            def clear_and_look():
                clear()
                note = tui.plain(chart.query_one("#chart-note")).strip()
                at_clear.append((chart.point_count(), chart._plot.display, note))

            chart.clear = clear_and_look
            await pilot.press("f5")
            await tui.until(pilot, lambda: screen.verdict is None, timeout=10, what="the re-check to start")
            assert at_clear == [(0, False, say("chart_waiting", "en"))]
            await tui.until(pilot, lambda: screen.verdict is not None, RUN_DEADLINE_S, "the second verdict")
            await tui.until(
                pilot, lambda: chart._plot.display and chart.point_count() > 0, timeout=10, what="the new curve"
            )

            # A mistake an earlier check catches: the training check is skipped, and the chart says so.
            screen.editor.text = (CASES / "rnn" / "fail_carries-state__state_not_carried.py").read_text()
            await pilot.press("f5")
            await tui.until(
                pilot,
                lambda: screen.verdict is not None and chart.ended is not None,
                RUN_DEADLINE_S,
                "the failing verdict",
            )
            assert not screen.verdict.passed
            assert not chart._plot.display
            assert tui.plain(chart.query_one("#chart-note")).strip() == say("chart_skipped", "en")

    asyncio.run(body())


# ---- the reference under the learner's curve (issue 56, item 3) --------------------------------


@pytest.mark.parametrize("ascii_marker,no_color", [(False, False), (True, False), (False, True)])
def test_the_reference_is_drawn_under_the_curve_dimmer_and_in_a_glyph_of_its_own(ascii_marker, no_color, tui):
    async def body():
        app = ChartApp(ascii_marker=ascii_marker, no_color=no_color)
        async with app.run_test(size=SIZE) as pilot:
            chart = app.query_one(LossChart)
            chart.set_reference([("loss", i, 0.1 * math.exp(-i / 100) + 1e-5) for i in range(600)])
            await pilot.pause(0.2)
            assert chart.redraws == 0  # nothing drawn before the learner's own first points
            chart.add(falling(120))
            await tui.until(pilot, lambda: chart.redraws >= 1, timeout=10, what="the plot")
            note = tui.plain(chart.query_one("#chart-note"))
            assert "latest: " in note and f"reference: {0.1 * math.exp(-119 / 100) + 1e-5:.4g}" in note
            plot = chart._plot.plt.build()
            if ascii_marker or no_color:
                assert "." in note and "*" in plot and "." in plot  # the learner's * over the reference's .
            else:
                assert "·" in note and "\x1b[38;2;128;128;128m" in plot  # the reference in grey
            # The x axis runs to the reference's last step: the learner's curve grows across it.
            assert "500" in plot or "600" in plot

    asyncio.run(body())
