"""What a check run reported, as it arrives: the verdict, each check, a live chart, the program's output."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.controls import show_controls
from tutor.i18n import Bilingual, pick
from tutor.protocol import CheckResult, MetricPoints
from tutor.sandbox.events import Output, Verdict
from tutor.sandbox.noise import without_noise
from tutor.terminal.render import verdict_head
from tutor.ui.texts import say
from tutor.ui.widgets.check_list import CheckList
from tutor.ui.widgets.own_focus_style import OwnFocusStyle

if TYPE_CHECKING:
    from tutor.ui.app_protocol import TutorAppLike

SHOWN_OUTPUT_CHARS = 4000  # of each stream; the verdict keeps more, the screen does not need it


class RunResults(OwnFocusStyle, VerticalScroll):
    """The Results view of an exercise. Feed it run events with `take()`; it renders itself."""

    if TYPE_CHECKING:  # the tutor's app, named by what widgets use of it (tutor.ui.app imports them)
        app: TutorAppLike

    def __init__(self, exercise, **kwargs):
        super().__init__(**kwargs)
        self.exercise = exercise
        self.results: dict[str, CheckResult] = {}
        self.verdict: Verdict | None = None
        self.output: list[tuple[str, str]] = []
        self.running = False
        # A file or progress problem, shown with the verdict: both languages, picked when shown (Ctrl+L).
        self.problem: Bilingual | None = None
        self.after_pass = ""  # what to do next once passed, e.g. "Ctrl+N opens the next exercise"
        self.compare_offer = False  # a pass offers the reference beside the learner's code (F4)
        self.chart = None
        self._head_shape: tuple = ()
        self._output_shown: Text | None = None  # what #output shows: the same again is not redrawn

    def compose(self):
        yield Static(id="verdict")
        if self.exercise.chart is not None:
            from tutor.ui.widgets.loss_chart import LossChart

            lang = self.app.lang
            self.chart = LossChart(
                self.exercise.chart.get(lang),
                self.app.marks.ascii,
                say("chart_waiting", lang),
                say("chart_log", lang),
                id="chart",
            )
            yield self.chart  # under the verdict while a run goes and after a pass (_place_chart)
        yield CheckList(id="checks")
        yield Static(id="output")

    def clear(self, running: bool) -> None:
        """Forget the last run (a new one starts, or the file it judged is gone)."""
        self.results, self.verdict, self.output = {}, None, []
        self.running = running
        if self.chart is not None:
            self.chart.clear()
            self._place_chart(above_checks=True)
        self.render_all()
        self.scroll_home(animate=False)  # a new run starts at its verdict line, not where the last one was read

    def add_output(self, event: Output) -> None:
        self.output.append((event.stream, event.text))
        self._render_output()

    def add_metrics(self, event: MetricPoints) -> None:
        if self.chart is not None:
            self.chart.add(event.points)

    def add_check(self, event: CheckResult) -> None:
        self.results[event.id] = event
        self._render_head()
        self._render_checks()

    def finish(self, event: Verdict) -> None:
        self.verdict, self.running = event, False
        self.results.update({c.id: c for c in event.checks})
        if not self.output and (event.stdout or event.stderr):
            self.output = [("stdout", event.stdout), ("stderr", event.stderr)]
        if self.chart is not None:
            self.chart.finish(self._why_no_curve(event))
            self._place_chart(above_checks=event.passed)
        self.render_all()
        # The verdict line in view, however far the learner scrolled while the run went on.
        self.call_after_refresh(self.query_one("#verdict", Static).scroll_visible, animate=False)

    def _place_chart(self, above_checks: bool) -> None:
        """The chart right under the verdict while a run goes and after a pass: at 80x24 the checks'
        rows above it left two rows of plot on screen, too few to see the learner's curve leave the
        reference's. After a run that did not pass, the checks come first: their messages say why."""
        checks = self.query_one("#checks", CheckList)
        if above_checks:
            self.move_child(self.chart, before=checks)
        else:
            self.move_child(self.chart, after=checks)

    def _why_no_curve(self, verdict: Verdict) -> str:
        """Why a finished run would have drawn nothing (the chart says it only if it has no points):
        the training check was skipped after an earlier check failed, the run stopped before it
        (crash, timeout, cancel: its checks are marked skipped too), or it stopped before a point."""
        plotting = [c.id for c in self.exercise.checks if c.plots]
        statuses = [self.results[i].status for i in plotting if i in self.results]
        if verdict.kind != "checks" and all(s == "skipped" for s in statuses):
            return "chart_not_reached"
        if "skipped" in statuses:
            return "chart_skipped"
        return "chart_no_points" if statuses else "chart_not_reached"

    # ---- rendering -------------------------------------------------------------------------

    def render_all(self) -> None:
        lang = self.app.lang
        if self.chart is not None:
            self.chart.set_texts(self.exercise.chart.get(lang), say("chart_waiting", lang), say("chart_log", lang))
        self._render_head()
        self._render_checks()
        self._render_output()

    def _render_head(self) -> None:
        lang, marks, v = self.app.lang, self.app.marks, self.verdict
        checks = self.exercise.checks
        if self.running:
            done = sum(1 for c in checks if c.id in self.results)
            head = Text(f"{marks['running']} " + say("checking", lang, done=done, total=len(checks)), style="bold")
            if not done and self.app.session.accelerator:  # a wait of seconds would otherwise say nothing
                head.append("\n" + say("checking_device", lang), style="dim")
        elif v is None:
            head = Text(
                pick(self.problem, lang) if self.problem else say("press_check", lang),
                style=marks.style("problem") if self.problem else "dim",
            )
        else:
            if v.kind == "cancelled":  # F7: no verdict on the learner's code, so no ERROR / FAIL word
                head = Text(f"{marks['cancelled']} ", style=marks.style("cancelled", "bold"))
            else:
                head = Text(f"{marks[v.status]} {verdict_head(v.status, lang)}", style=marks.style(v.status, "bold"))
            head.append(self._shown(pick(v.message, lang)))  # may quote the learner's exception
            head.append(f"  ({v.duration_s:.2f} s)", style="dim")
            if v.passed and self.after_pass:
                head.append("\n" + self.after_pass, style="bold")
            if v.passed and self.compare_offer:  # an offer, never a push: the reference shows only if asked
                head.append("\n" + say("compare_offer", lang), style="dim")
            if self.problem:
                head.append("\n" + pick(self.problem, lang), style=marks.style("problem"))
        # While the run goes the head is "Checking 3/7": the same rows each time, so a repaint, not a
        # layout of the screen per check.
        verdict = self.query_one("#verdict", Static)
        shape = (verdict.size.width, str(head).count("\n"), cell_len(head.plain) // max(verdict.size.width, 1))
        verdict.update(head, layout=not self.running or shape != self._head_shape)
        self._head_shape = shape

    def _render_checks(self) -> None:
        self.query_one("#checks", CheckList).show(
            self.exercise.checks, self.results, self.app.lang, self.app.marks, self.running
        )

    def _shown(self, text: str) -> str:
        """The learner's text with control sequences shown, not obeyed (a program cannot draw a PASS)."""
        return show_controls(text, unicode=not self.app.marks.ascii)

    def _render_output(self) -> None:
        lang, v = self.app.lang, self.verdict
        out = Text()
        stdout = "".join(t for s, t in self.output if s == "stdout")
        stderr = without_noise("".join(t for s, t in self.output if s == "stderr"))  # no runtime start-up chatter
        if stdout.strip():
            out.append(say("stdout", lang) + "\n", style="bold")
            out.append(self._shown(stdout.rstrip()[-SHOWN_OUTPUT_CHARS:]) + "\n")
        # stderr matters when the program itself broke; after ordinary check failures it is noise.
        if v is not None and not v.passed and v.kind != "checks" and stderr.strip():
            out.append(say("stderr", lang) + "\n", style="bold")
            out.append(
                self._shown(stderr.rstrip()[-SHOWN_OUTPUT_CHARS:]) + "\n", style=self.app.marks.style("traceback")
            )
        if v is not None and v.output_truncated:
            out.append(say("truncated", lang), style="dim")
        if out == self._output_shown:  # at each check's start and end there is no output: no layout for it
            return
        self._output_shown = out
        widget = self.query_one("#output", Static)
        widget.update(out)
        widget.display = bool(out)
