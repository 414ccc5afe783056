"""A live ASCII chart of metric series (e.g. training loss), growing while points arrive.

The picture is drawn in a thread (plotext's figure, its ANSI text, the rows of segments): on the
event loop a redraw only swaps finished rows in (ChartPicture), so keys stay live while the loss
streams in."""

from __future__ import annotations

import io
import math
import os
import queue
import threading
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.containers import Vertical
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from tutor.ui.texts import say

REDRAW_S = 0.05  # at most ~20 redraws a second, however fast points arrive
LOG_RATIO = 10.0  # a log y axis once positive values span this factor or more
# One colour per series, the plot's and the note's (plotext's own sequence: blue, green, red, ...).
COLOURS = [(0, 130, 200), (60, 180, 75), (230, 25, 75), (245, 130, 48), (145, 30, 180)]
ASCII_MARKERS = ["*", "+", "o", "x", "#"]  # shapes tell series apart where colours cannot
# The course's reference solution on the same data: dimmer, drawn first (under the learner's), and
# a glyph of its own where colours cannot tell it apart.
REFERENCE_COLOUR = (128, 128, 128)
REFERENCE_ASCII = "."
PLAIN = Style()  # the style of a segment that has none of its own


def tick_label(value: float) -> str:
    """A tick value in few characters: 0.05, 0.002, 2e-4, 1000, 1e5, 2.5. Plain digits unless
    the power-of-ten form is shorter by two characters or more."""
    if value == 0:
        return "0"
    value = float(f"{value:.3g}")  # no float noise such as 0.30000000000000004
    exponent = math.floor(math.log10(abs(value)))
    fixed = f"{value:.{max(0, 2 - exponent)}f}"
    if "." in fixed:
        fixed = fixed.rstrip("0").rstrip(".")
    mantissa, power = f"{value:.2e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    scientific = f"{mantissa}e{int(power)}"
    return fixed if len(fixed) <= len(scientific) + 1 else scientific


def log_ticks(lo: float, hi: float, max_ticks: int = 7) -> tuple[list[float], float, float]:
    """Ticks for a log axis showing positive values from lo to hi: 1-2-5 in every decade
    (0.01 0.02 0.05 0.1 ...) while they fit in max_ticks, else powers of ten, else every
    k-th power of ten. Returns (ticks, bottom, top): the axis is widened to the nearest
    1-2-5 values around the data, so that both ends are labelled."""
    lo, hi = min(lo, hi), max(lo, hi)
    if not (lo > 0 and math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError(f"a log axis needs finite positive bounds, got {lo!r}, {hi!r}")
    lo, hi = max(lo, 1e-300), min(max(hi, lo), 1e300)  # 10.0 ** e stays a normal float
    max_ticks = max(max_ticks, 2)

    def values(mantissas, first, last):
        return [m * 10.0**e for e in range(first, last + 1) for m in mantissas]

    first, last = math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1
    tolerance = 1e-9  # 0.3 * 10 ** -1 is not exactly 0.03
    for mantissas in ((1, 2, 5), (1,)):
        candidates = values(mantissas, first, last)
        bottom = max(v for v in candidates if v <= lo * (1 + tolerance))
        top = min(v for v in candidates if v >= hi * (1 - tolerance))
        ticks = [v for v in candidates if bottom * (1 - tolerance) <= v <= top * (1 + tolerance)]
        if len(ticks) <= max_ticks:
            return ticks, bottom, top
    # Too many decades even for one tick each: every k-th power of ten (k divides 300, so the
    # rounded ends stay within 1e-300..1e300), at worst just the two ends.
    low_e, high_e = math.floor(math.log10(lo) + tolerance), math.ceil(math.log10(hi) - tolerance)
    for every in (2, 5, 10, 20, 50, 100, 150, 300):
        bottom_e, top_e = low_e - low_e % every, high_e + (-high_e) % every
        if (top_e - bottom_e) // every + 1 <= max_ticks:
            break
    else:
        bottom_e, top_e, every = low_e, high_e, max(high_e - low_e, 1)
    ticks = [10.0**e for e in range(bottom_e, top_e + 1, every)]
    return ticks, ticks[0], ticks[-1]


def linear_ticks(lo: float, hi: float, max_ticks: int = 5, integer: bool = False) -> tuple[list[float], float, float]:
    """Evenly spaced ticks with a 1-2-5 step covering lo..hi; (ticks, bottom, top) as for log_ticks."""
    lo, hi = min(lo, hi), max(lo, hi)
    if hi == lo:
        pad = abs(lo) * 0.1 or 1.0
        lo, hi = lo - pad, hi + pad
    max_ticks = max(max_ticks, 2)
    step = 10.0 ** math.floor(math.log10((hi - lo) / max_ticks))
    for factor in (1, 2, 5, 10, 20, 50, 100):
        size = step * factor
        if integer:
            size = max(round(size), 1)
        bottom, top = math.floor(lo / size + 1e-9) * size, math.ceil(hi / size - 1e-9) * size
        if round((top - bottom) / size) + 1 <= max_ticks:
            break
    count = round((top - bottom) / size)
    return [bottom + i * size for i in range(count + 1)], bottom, top


def thin(xs: list, ys: list, buckets: int) -> tuple[list, list]:
    """At most 2 points per bucket (its lowest and highest), in order: the curve's shape and its
    noise band survive, and drawing costs the same after 200 steps or 20000."""
    n = len(xs)
    if n <= 2 * buckets:
        return xs, ys
    out_x, out_y = [], []
    for b in range(buckets):
        segment = range(b * n // buckets, (b + 1) * n // buckets)
        low = min(segment, key=ys.__getitem__)
        high = max(segment, key=ys.__getitem__)
        for i in sorted({low, high}):
            out_x.append(xs[i])
            out_y.append(ys[i])
    return out_x, out_y


def draw(plt, series: dict, markers: list[str], width: int, height: int, reference: dict | None = None) -> bool:
    """Draw every series on a plotext figure of width x height; return whether the y axis is log.
    No legend (it would sit on the data): the chart's note line names the series. `reference`:
    series drawn first and dimmer (the course's solution on the same data)."""
    reference = reference or {}
    plt.clear_data()
    plt.clear_figure()
    plt.xaxes(True, False)  # the lower and left axes only: one more row and column for data
    plt.yaxes(True, False)
    shown: dict[str, tuple[list, list]] = {}
    under: dict[str, tuple[list, list]] = {}
    for into, source in ((shown, series), (under, reference)):
        for name, (xs, ys) in source.items():
            pairs = [(x, y) for x, y in zip(xs, ys) if math.isfinite(y)]
            into[name] = ([x for x, _ in pairs], [y for _, y in pairs])
    values = [y for _, ys in [*shown.values(), *under.values()] for y in ys]
    if not values:
        return False
    log = min(values) > 0 and max(values) / min(values) >= LOG_RATIO
    columns = max(width - 10, 10)  # minus the y tick labels
    rows = max(height - 2, 2)  # minus the x axis and its tick labels
    all_x = [x for xs, _ in [*shown.values(), *under.values()] for x in xs]
    # A log axis is drawn as log10 of the values on a linear one, labelled with the values:
    # plotext's own yscale("log") transforms its data in place, so a second render of the same
    # figure (a resize, a repaint) would take the log of the log.
    scale = math.log10 if log else float
    dim = REFERENCE_ASCII if markers[0] != "braille" else "braille"
    for xs, ys in under.values():
        xs, ys = thin(xs, ys, columns)
        if xs:
            plt.plot(xs, [scale(y) for y in ys], marker=dim, color=REFERENCE_COLOUR)
    for i, (xs, ys) in enumerate(shown.values()):
        xs, ys = thin(xs, ys, columns)
        if xs:
            plt.plot(xs, [scale(y) for y in ys], marker=markers[i % len(markers)], color=COLOURS[i % len(COLOURS)])
    if log:
        ticks, bottom, top = log_ticks(min(values), max(values), rows)
    else:
        ticks, bottom, top = linear_ticks(min(values), max(values), min(rows, 5))
    plt.ylim(scale(bottom), scale(top))
    plt.yticks([scale(t) for t in ticks], [tick_label(t) for t in ticks])
    xticks, left, right = linear_ticks(min(all_x), max(max(all_x), min(all_x) + 1), max(columns // 10, 2), integer=True)
    plt.xticks(xticks, [str(int(t)) for t in xticks])
    plt.xlim(left, right)
    return log


def _import_plotext() -> None:
    try:
        import textual_plotext  # noqa: F401 - imported early, off the UI thread, for its import cost
    except Exception:  # noqa: BLE001 - the first redraw imports it again and reports
        pass


def picture(
    plt, series: dict, markers: list[str], width: int, height: int, theme: str, reference: dict | None = None
) -> tuple[bool, list[Strip]]:
    """The chart as rows of segments, width x height, and whether its y axis is log. Runs in a
    thread: plotext's build and the ANSI decoding cost 5-50 ms a redraw, which on the event loop
    were the longest stalls while a training check streamed its loss."""
    log = draw(plt, series, markers, width, height, reference)
    plt.plotsize(width, height)
    plt._set_size(width, height)  # as textual_plotext does: plotsize alone does not always resize
    plt.theme(theme)
    text = Text.from_ansi(plt.build())
    console = Console(width=width, color_system="truecolor", force_terminal=True, file=io.StringIO())
    lines = console.render_lines(text, console.options.update(width=width, height=height), pad=False)
    # Every segment with a style: under NO_COLOR Textual's Monochrome filter reads each one's.
    return log, [Strip(Segment.apply_style(line, PLAIN)) for line in lines]


class ChartPicture(Widget):
    """The drawn chart: rows made in a thread (`picture`), shown as they are (Textual's line API)."""

    DEFAULT_CSS = "ChartPicture { width: 1fr; height: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        from textual_plotext.plot import Plot  # imported by now, in LossChart.on_mount's thread

        self.plt = Plot()  # drawn on by one thread at a time (LossChart waits for each picture)
        self.rows: list[Strip] = []
        self.drawn_for = (0, 0)  # the size the last picture asked for was drawn at

    def stale(self) -> bool:
        """Whether the widget's size is not the one its picture was drawn for: a scrollbar came
        when the checks mounted under the chart, and the x axis's last label was cut ('100')."""
        size = (self.size.width, self.size.height)
        return size[0] > 0 and size != self.drawn_for

    def theme_name(self) -> str:
        """The plotext theme matching the app's colours, registered here (on the event loop)."""
        from plotext._dict import themes
        from textual.color import Color
        from textual_plotext.plot import _rgbify_theme, _sequence

        name = f"textual-auto-{self.app.theme}"
        if name not in themes:
            variables = self.app.theme_variables
            surface = Color.parse(variables.get("surface", "black")).rgb
            foreground = Color.parse(variables.get("foreground", "white")).rgb
            themes[name] = _rgbify_theme(surface, surface, foreground, "default", list(_sequence))
        return name

    def show(self, rows: list[Strip]) -> None:
        self.rows = rows
        self.refresh()  # a repaint of this widget only: its size does not change

    def render_line(self, y: int) -> Strip:
        # A style on the padding and the blank rows too: NO_COLOR's Monochrome filter reads it
        # (a None there ended the tutor at rnn's first points).
        width = self.size.width
        if y < len(self.rows):
            return self.rows[y].crop_extend(0, width, PLAIN)
        return Strip.blank(width, PLAIN)


@dataclass
class ChartDrawn(Message, bubble=False):
    """A picture finished in the drawing thread, for the run it was drawn for (`generation`)."""

    generation: int
    log: bool
    rows: list[Strip]
    error: str | None = None


class LossChart(Vertical):
    """Several series in one plot, redrawn at most every REDRAW_S while points arrive. The plot
    widget is made at the first points; plotext is imported in a thread as the chart mounts,
    never before the first frame of the app."""

    DEFAULT_CSS = """
    LossChart { height: 12; border: round $panel; }
    LossChart.-ended { height: 3; }
    LossChart > Static { height: 1; color: $text-muted; }
    LossChart > ChartPicture { height: 1fr; }
    """

    def __init__(self, title: str, ascii_marker: bool, waiting: str, log_note: str, **kwargs):
        super().__init__(**kwargs)
        self.chart_title = title
        self.ascii_marker = ascii_marker
        self.marker = "*" if ascii_marker else "braille"
        self.waiting = waiting
        self.log_note = log_note
        self.series: dict[str, tuple[list[int], list[float]]] = {}
        # The course's solution on the same data (tutor.sandbox.reference_curve): kept across runs.
        self.reference: dict[str, tuple[list[int], list[float]]] = {}
        self.ended: str | None = None  # why a finished run left no curve: a key of tutor.ui.texts
        self.redraws = 0  # plots drawn since the chart was made (tests and the bench read these two)
        self.batches = 0  # calls of add()
        self._plot: ChartPicture | None = None
        self._dirty = False
        self._drawing = False  # a picture is being made in a thread: the next waits for it
        self._generation = 0  # one more at each clear(): a picture of the last run is not shown
        self._pictures: queue.SimpleQueue = queue.SimpleQueue()  # pictures to draw, for the drawing thread
        self._log = False

    def compose(self):
        yield Static(self.waiting, id="chart-note")

    def on_mount(self) -> None:
        self.border_title = self.chart_title
        self.set_interval(REDRAW_S, self._redraw_if_dirty)
        # One drawing thread for the chart's life, fed by a queue: starting a thread per picture
        # blocked the event loop until the new thread ran (Thread.start waits for it), up to 100 ms
        # on a loaded machine. It imports plotext first, off the event loop: imported at the first
        # points (~0.25 s, more on a busy machine), it froze the chart for half a training check.
        threading.Thread(target=self._drawing_thread, name="chart-picture", daemon=True).start()

    def on_unmount(self) -> None:
        self._pictures.put(None)  # the drawing thread ends

    def _drawing_thread(self) -> None:
        _import_plotext()
        while True:
            job = self._pictures.get()
            if job is None:
                return
            self._draw(*job)

    # ---- what the owner says ---------------------------------------------------------------

    def set_texts(self, title: str, waiting: str, log_note: str) -> None:
        self.chart_title, self.waiting, self.log_note = title, waiting, log_note
        self.border_title = title
        self._dirty = True
        self._render_note()

    def clear(self) -> None:
        """Forget the last run's curve at once (a new run starts)."""
        self.series.clear()
        self._generation += 1
        self.ended = None
        self._dirty = False
        if self._plot is not None:
            self._plot.display = False
        self._render_note()

    def add(self, points) -> None:
        """Take (series, step, value) triples; the chart redraws on its own timer."""
        for name, step, value in points:
            xs, ys = self.series.setdefault(name, ([], []))
            xs.append(step)
            ys.append(value)
        self.batches += 1
        self._dirty = True

    def set_reference(self, points) -> None:
        """The reference solution's (series, step, value) points, drawn under the learner's curve."""
        reference: dict[str, tuple[list[int], list[float]]] = {}
        for name, step, value in points:
            xs, ys = reference.setdefault(name, ([], []))
            xs.append(step)
            ys.append(value)
        self.reference = reference
        self._dirty = True
        if self.series:
            self._render_note()

    def reference_at(self, name: str, step: int) -> float | None:
        """The reference's value of series `name` at `step` (the last one before it)."""
        xs, ys = self.reference.get(name, ([], []))
        if not xs:
            return None
        import bisect

        return ys[max(bisect.bisect_right(xs, step) - 1, 0)]

    def finish(self, why_empty: str | None) -> None:
        """The run is over. If it left no points, `why_empty` (a texts key) says why, in place
        of waiting for points that will not come."""
        self.ended = why_empty if not self.series else None
        self._render_note()

    def point_count(self) -> int:
        return sum(len(xs) for xs, _ in self.series.values())

    # ---- drawing ---------------------------------------------------------------------------

    def _lang(self) -> str:
        return getattr(self.app, "lang", "en")

    def _markers(self) -> list[str]:
        marks = getattr(self.app, "marks", None)
        no_color = marks.no_color if marks is not None else "NO_COLOR" in os.environ
        if self.ascii_marker or no_color:
            return ASCII_MARKERS
        return ["braille"]

    def _render_note(self) -> None:
        note = self.query_one("#chart-note", Static)
        self.set_class(bool(self.ended) and not self.series, "-ended")  # no plot to make room for
        if not self.series:
            note.update(say(self.ended, self._lang()) if self.ended else self.waiting, layout=False)
            return
        markers = self._markers()
        text = Text()
        if len(self.series) == 1:
            ((name, (xs, ys)),) = self.series.items()
            text.append(say("chart_latest", self._lang(), value=f"{ys[-1]:.4g}", step=xs[-1]))
            there = self.reference_at(name, xs[-1])
            if there is not None:  # where the reference was at the same step, in its own glyph
                glyph = "·" if markers[0] == "braille" else REFERENCE_ASCII
                text.append("  ")
                text.append(glyph, style="rgb({},{},{})".format(*REFERENCE_COLOUR))
                text.append(" " + say("chart_reference", self._lang(), value=f"{there:.4g}"))
        else:
            for i, (name, (_, ys)) in enumerate(self.series.items()):
                glyph = markers[i % len(markers)]
                if glyph == "braille":
                    glyph = "●"
                if i:
                    text.append("  ")
                text.append(glyph, style="rgb({},{},{})".format(*COLOURS[i % len(COLOURS)]))
                text.append(f" {name}: {ys[-1]:.4g}")
        if self._log:
            text.append(self.log_note)
        # One row whatever it says (CSS): a repaint, not a layout of the whole screen (~30 ms at
        # 80x24 on the exercise screen, on every redraw while the loss streams in).
        note.update(text, layout=False)

    def settled(self) -> bool:
        """Drawn at least once, nothing left to draw, at the size it is shown (tests wait on it)."""
        plot = self._plot
        return self.redraws >= 1 and not self._dirty and not self._drawing and plot is not None and not plot.stale()

    def _redraw_if_dirty(self) -> None:
        stale = self._plot is not None and self._plot.stale()
        if not (self._dirty or stale) or not self.series or self._drawing:
            return
        if self._plot is None:
            self._plot = ChartPicture()
            self.mount(self._plot)
        self._plot.display = True
        width, height = self._plot.size.width, self._plot.size.height
        if not width or not height:
            return  # not laid out yet: drawn on a tick after, at the size it is shown (no wasted picture)
        self._dirty = False
        self._plot.drawn_for = (width, height)
        # Copies: points go on arriving here while the thread draws.
        series = {name: (list(xs), list(ys)) for name, (xs, ys) in self.series.items()}
        reference = {name: (list(xs), list(ys)) for name, (xs, ys) in self.reference.items()}
        markers, theme = self._markers(), self._plot.theme_name()
        args: Any = (self._generation, self._plot.plt, series, markers, width, height, theme, reference)
        self._drawing = True
        self._pictures.put(args)  # never blocks: the drawing thread takes it when it can

    def _draw(self, generation: int, *args) -> None:
        try:
            log, rows = picture(*args)
        except Exception as exc:  # noqa: BLE001 - shown as the chart's note, never raised in a thread
            self.post_message(ChartDrawn(generation, False, [], f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(ChartDrawn(generation, log, rows))

    def on_chart_drawn(self, message: ChartDrawn) -> None:
        self._drawing = False
        if message.generation != self._generation or self._plot is None or not self.series:
            return  # drawn for a run since cleared: the new run's points draw on the next tick
        if message.error is not None:
            self.query_one("#chart-note", Static).update(Text(message.error), layout=False)
            return
        self._log = message.log
        self._plot.show(message.rows)
        self._render_note()
        self.redraws += 1
