"""A live ASCII chart of metric series (e.g. training loss), growing while points arrive."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widgets import Static

REDRAW_S = 0.1  # at most ~10 redraws a second, however fast points arrive
LOG_RATIO = 10.0  # a log y axis once positive values span this factor or more


class LossChart(Vertical):
    """Several series in one plot; plotext is imported only when the first points arrive."""

    DEFAULT_CSS = """
    LossChart { height: 12; border: round $panel; }
    LossChart > Static { height: 1; color: $text-muted; }
    LossChart > PlotextPlot { height: 1fr; }
    """

    def __init__(self, title: str, ascii_marker: bool, waiting: str, log_note: str, **kwargs):
        super().__init__(**kwargs)
        self.chart_title = title
        self.marker = "*" if ascii_marker else "braille"
        self.waiting = waiting
        self.log_note = log_note
        self.series: dict[str, tuple[list[int], list[float]]] = {}
        self._plot = None
        self._dirty = False

    def compose(self):
        yield Static(self.waiting, id="chart-note")

    def on_mount(self) -> None:
        self.border_title = self.chart_title
        self.set_interval(REDRAW_S, self._redraw_if_dirty)

    def set_texts(self, title: str, waiting: str, log_note: str) -> None:
        self.chart_title, self.waiting, self.log_note = title, waiting, log_note
        self.border_title = title
        self._dirty = True
        if not self.series:
            self.query_one("#chart-note", Static).update(waiting)

    def clear(self) -> None:
        self.series.clear()
        self._dirty = True
        self.query_one("#chart-note", Static).update(self.waiting)

    def add(self, points) -> None:
        """Take (series, step, value) triples; the chart redraws on its own timer."""
        for name, step, value in points:
            xs, ys = self.series.setdefault(name, ([], []))
            xs.append(step)
            ys.append(value)
        self._dirty = True

    def point_count(self) -> int:
        return sum(len(xs) for xs, _ in self.series.values())

    def _redraw_if_dirty(self) -> None:
        if not self._dirty or not self.series:
            return
        self._dirty = False
        if self._plot is None:
            from textual_plotext import PlotextPlot  # costly import, only once a chart has data

            self._plot = PlotextPlot()
            self.mount(self._plot)
        plt = self._plot.plt
        plt.clear_data()
        plt.clear_figure()
        values = [v for _, ys in self.series.values() for v in ys if v == v]  # drop NaN
        log = bool(values) and min(values) > 0 and max(values) / min(values) >= LOG_RATIO
        if log:
            plt.yscale("log")
        for name, (xs, ys) in self.series.items():
            plt.plot(xs, ys, label=name, marker=self.marker)
        latest = "  ".join(f"{name}: {ys[-1]:.4g}" for name, (_, ys) in self.series.items())
        self.query_one("#chart-note", Static).update(latest + (self.log_note if log else ""))
        self._plot.refresh()
