"""A scratch copy of a lesson cell: change its code and run it, without changing the lesson.

`e` on a focused cell opens it. The copy runs in a worker like the cell itself, with no
expectation attached: what it printed, and what it raised (with the traceback) or "finished".
Nothing is saved; the course and the learner's progress are untouched.
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from tutor.i18n import pick
from tutor.protocol import Expect, MetricPoints
from tutor.sandbox.events import Output, Verdict
from tutor.ui.runs import RunView
from tutor.ui.screens.base import TutorScreen, footer
from tutor.ui.texts import KEY_LABELS
from tutor.ui.widgets.cell_view import output_text, verdict_line
from tutor.ui.widgets.editor import CodeEditor, make_editor


class ScratchScreen(RunView, TutorScreen):
    BINDINGS = [
        Binding("f5,ctrl+r", "run_cell", "Run"),
        Binding("f2,ctrl+t", "view", "View"),
        Binding("f8", "reset", "Reset"),
        Binding("escape", "back", "Back"),
        Binding("ctrl+l", "app.toggle_lang", show=False),
    ]

    def runs_code(self) -> bool:
        return True

    def __init__(self, cell):
        super().__init__()
        self.cell = cell
        self.verdict: Verdict | None = None
        self.chunks: list[tuple[str, str]] = []
        self.chart = None

    def compose(self):
        yield Header()
        yield Static(id="scratch-note")
        yield make_editor(self.cell.code, id="scratch-editor")
        yield Static(id="scratch-status")
        with VerticalScroll(id="scratch-output-box"):
            yield Static(id="scratch-output")
        yield footer()

    @property
    def editor(self) -> CodeEditor:
        return self.query_one("#scratch-editor", CodeEditor)

    @property
    def running(self) -> bool:
        return self.run_going

    def on_mount(self) -> None:
        self.editor.focus()

    # ---- texts -----------------------------------------------------------------------------

    def key_labels(self) -> dict[str, str]:
        return {"run_cell": pick(KEY_LABELS["cancel"], self.lang)} if self.running else {}

    def render_texts(self) -> None:
        self.title = self.say("scratch_title", id=self.cell.id)
        self.sub_title = self.cell.caption.get(self.lang) if self.cell.caption else ""
        self.query_one("#scratch-note", Static).update(Text(self.say("scratch_note"), style="dim"))
        if self.chart is not None:
            self.chart.set_texts(self.say("chart_title"), self.say("chart_waiting"), self.say("chart_log"))
        self._render_status()
        self._render_output()

    def _render_status(self) -> None:
        marks, v = self.marks, self.verdict
        if self.running:
            line = Text(f"{marks['running']} {self.say('scratch_running')}")
        elif v is None:
            line = Text(self.say("scratch_idle"), style="dim")
        elif v.kind == "cancelled":
            line = Text(f"{marks['skipped']} {pick(v.message, self.lang)}", style="bold")
        else:
            line = verdict_line(v, self.lang, marks, judged=False)
        self.query_one("#scratch-status", Static).update(line)

    def _render_output(self) -> None:
        out = output_text(self.chunks, self.verdict, self.lang, self.marks)
        if not out and not self.running:
            out = Text(self.say("scratch_no_run"), style="dim")
        self.query_one("#scratch-output", Static).update(out)
        box = self.query_one("#scratch-output-box", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False)  # the latest lines, as in a terminal

    # ---- running ---------------------------------------------------------------------------

    def action_run_cell(self) -> None:
        """F5: run the editor's code as a copy of the cell; pressed while running, cancel."""
        if self.running:
            self.cancel_run()
            return
        copy = replace(self.cell, code=self.editor.text, expect=Expect())
        self.verdict = None
        self.chunks = []
        if self.chart is not None:
            self.chart.clear()
        session = self.session
        self.start_run(lambda: session.sandbox.run_cell(copy))
        self.apply_lang()  # Run becomes Cancel in the footer

    def run_output(self, output: Output) -> None:
        self.chunks.append((output.stream, output.text))
        self._render_output()

    def run_metrics(self, metrics: MetricPoints) -> None:
        self._chart().add(metrics.points)

    def run_finished(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.apply_lang()  # status, output, Cancel -> Run

    def _chart(self):
        if self.chart is None:
            from tutor.ui.widgets.loss_chart import LossChart

            self.chart = LossChart(
                self.say("chart_title"), self.marks.ascii, self.say("chart_waiting"), self.say("chart_log")
            )
            self.query_one("#scratch-output-box").mount(self.chart, before=0)
        return self.chart

    # ---- keys ------------------------------------------------------------------------------

    def on_code_editor_leave(self, message: CodeEditor.Leave) -> None:
        """Esc in the editor: to the output; Esc again goes back to the lesson."""
        self.query_one("#scratch-output-box").focus()

    def action_view(self) -> None:
        """F2: between the editor and the output."""
        if self.focused is self.editor:
            self.query_one("#scratch-output-box").focus()
        else:
            self.editor.focus()

    def action_reset(self) -> None:
        """F8: the lesson's code again, as one edit (Ctrl+Z brings the learner's back)."""
        editor = self.editor
        if editor.text == self.cell.code:
            return
        editor.history.checkpoint()
        editor.replace(self.cell.code, (0, 0), editor.document.end, maintain_selection_offset=False)
        editor.history.checkpoint()
        editor.move_cursor((0, 0))
        editor.focus()
        self.notify(self.say("scratch_reset"), timeout=4)

    def action_back(self) -> None:
        self.app.pop_screen()
