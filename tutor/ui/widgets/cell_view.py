"""A runnable demo cell: its code, a run action, and what the run printed or raised. A cell with
a `predict:` asks for the learner's guess first, then sets it beside what the run showed, and
only then explains the result (`predict.explain`, kept out of sight until the run is over). A
lesson shows nothing after a cell whose question is open; QuestionClosed tells it to go on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Markdown, Static

from tutor.course.predict import number_text, parse_number
from tutor.i18n import pick
from tutor.progress import changes
from tutor.protocol import MetricPoints
from tutor.sandbox.events import Output, Verdict
from tutor.sandbox.noise import without_noise
from tutor.ui.keys import translate_bindings
from tutor.ui.runs import RunView
from tutor.ui.saving import record
from tutor.ui.texts import bold_label, say, spaced
from tutor.ui.widgets.code import code_view
from tutor.ui.widgets.markup import hanging, inline, set_markdown
from tutor.ui.widgets.own_focus_style import OwnFocusStyle

if TYPE_CHECKING:
    from tutor.ui.app_protocol import TutorAppLike

MAX_SHOWN_CHARS = 20_000  # of output kept on screen; the rest is elided from the top


class CellView(RunView, OwnFocusStyle, Vertical, can_focus=True):
    """One cell; Enter (or r) runs it in the sandbox. Output streams in as it is printed.
    e opens a copy of it to change and run (the scratch screen). A cell with a question asks
    it before its first run (a letter, or a number and Enter; Esc skips)."""

    BINDINGS = [Binding("enter,r", "run_cell", "Run"), Binding("e", "scratch", "Edit")]

    if TYPE_CHECKING:  # the tutor's app, named by what widgets use of it (tutor.ui.app imports them)
        app: TutorAppLike

    class QuestionClosed(Message):
        """The cell's question was answered or skipped: what comes after it in a lesson may show."""

        def __init__(self, view: CellView):
            super().__init__()
            self.view = view

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        self.cell = cell
        self.verdict: Verdict | None = None
        self.chunks: list[tuple[str, str]] = []
        self.chart = None
        self.asking = False  # the predict question is open: keys answer it
        self.typed = ""  # a number guess being typed
        self.skipped = False  # Esc: this view runs without asking again (nothing is recorded)
        self.guess: str | None = None  # the learner's guess: recorded earlier, or made now
        self.shown: str | None = None  # what the last finished run showed for the question

    @property
    def question_open(self) -> bool:
        """Its question is neither answered (now or in an earlier session) nor skipped."""
        if self.cell.predict is None or self.skipped or self.guess is not None:
            return False
        return self.app.session.progress.prediction(self.cell.id) is None

    @property
    def running(self) -> bool:
        return self.run_going

    def compose(self):
        yield Static(classes="cell-caption")
        yield Static(code_view(self.cell.code), classes="cell-code")
        yield Static(classes="cell-status")
        yield Static(classes="cell-predict")
        yield Static(classes="cell-output")

    def on_mount(self) -> None:
        if self.cell.predict is not None:
            earlier = self.app.session.progress.prediction(self.cell.id)
            self.guess = earlier.answer if earlier else None
        self.render_texts()

    def render_texts(self) -> None:
        lang = self.app.lang
        translate_bindings(self, lang)  # its footer keys (Run, Edit) in the learner's language
        title = say("cell", lang, id=self.cell.id)
        if self.cell.caption:
            title += " — " + self.cell.caption.get(lang)
        # A caption's `code` is shown as code, not between backticks (issue 52, item 10)
        self.query_one(".cell-caption", Static).update(inline(title, style="bold"))
        self._render_status()
        self._render_predict()
        self._render_output()
        if self.query(".cell-explain"):
            self._render_explain()
        if self.chart is not None:
            self.chart.set_texts(say("chart_title", lang), say("chart_waiting", lang), say("chart_log", lang))

    # ---- running ---------------------------------------------------------------------------

    def action_run_cell(self) -> None:
        if self.running or self.asking:
            return
        if self.cell.predict is not None and self.guess is None and not self.skipped:
            self._ask()
            return
        self._start_run()

    def _start_run(self) -> None:
        self.verdict = None
        self.shown = None
        self.chunks = []
        if self.chart is not None:
            self.chart.clear()
        session = self.app.session
        self.start_run(lambda: session.sandbox.run_cell(self.cell))
        self.render_texts()
        self.call_after_refresh(self.query_one(".cell-status").scroll_visible, animate=False)

    def action_scratch(self) -> None:
        """e: a copy of this cell to change and run, on a screen of its own (the lesson is not changed).
        The app opens screens: a widget that imported one would close an import cycle."""
        self.app.open_scratch(self.cell)

    def run_output(self, output: Output) -> None:
        self.chunks.append((output.stream, output.text))
        self._render_output()

    def run_metrics(self, metrics: MetricPoints) -> None:
        self._chart().add(metrics.points)

    def run_finished(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self._reveal(verdict)
        if self.chart is not None:
            self.chart.finish("chart_no_points")  # a re-run that drew nothing says so
        self.render_texts()
        self._render_explain()
        # Bring what the run produced into view; the learner just asked for it.
        shown = (
            self.query_one(".cell-output") if self.query_one(".cell-output").display else self.query_one(".cell-status")
        )
        self.call_after_refresh(shown.scroll_visible, animate=False)

    # ---- predict, then run -------------------------------------------------------------------

    def _ask(self) -> None:
        self.asking, self.typed = True, ""
        self.focus(scroll_visible=False)
        self.render_texts()
        self.call_after_refresh(self.query_one(".cell-predict").scroll_visible, animate=False)

    def on_key(self, event: events.Key) -> None:
        """While the question is open, its keys answer it and reach nothing else (c, b, Esc of
        the lesson); keys that are not text (Tab, arrows, F1, Ctrl+…) keep their usual meaning."""
        if not self.asking:
            return
        p = self.cell.predict
        key, char = event.key, event.character or ""
        if key == "escape":
            self.asking, self.skipped = False, True
            self.post_message(self.QuestionClosed(self))
            self._start_run()
        elif p.options:
            letter = option_key(char, list(p.options))
            if letter:
                self._answer(letter)
            elif not event.is_printable and key != "enter":
                return
        elif key == "enter":
            number = parse_number(self.typed)
            if number is not None:
                self._answer(number_text(number))
        elif key == "backspace":
            self.typed = self.typed[:-1]
            self._render_predict()
        elif char and char in "0123456789.-" and len(self.typed) < 12:
            self.typed += char
            self._render_predict()
        elif not event.is_printable:
            return
        event.stop()
        event.prevent_default()

    def _answer(self, answer: str) -> None:
        self.asking, self.guess = False, answer
        record(self.app, changes.prediction, self.cell.id, answer)
        self.post_message(self.QuestionClosed(self))
        self._start_run()

    def _reveal(self, verdict: Verdict) -> None:
        """What the run shows for the question, set against the guess and recorded."""
        p = self.cell.predict
        if p is None or self.guess is None:
            return
        self.shown = p.shown(verdict.stdout)
        if self.shown is not None:
            record(self.app, changes.reveal, self.cell.id, self.shown, p.is_right(self.guess, self.shown))

    def _chart(self):
        if self.chart is None:
            from tutor.ui.widgets.loss_chart import LossChart

            lang = self.app.lang
            self.chart = LossChart(
                say("chart_title", lang), self.app.marks.ascii, say("chart_waiting", lang), say("chart_log", lang)
            )
            self.mount(self.chart)
        return self.chart

    # ---- rendering -------------------------------------------------------------------------

    def _render_status(self) -> None:
        lang, marks, v = self.app.lang, self.app.marks, self.verdict
        raises = self.cell.expect.raises
        if self.running:
            line = Text(f"{marks['running']} {say('running', lang)}")
        elif v is None:
            line = Text(say("cell_hint", lang), style="dim")
            if raises:
                line = Text(say("cell_expect_raise", lang, exc=raises) + "  ") + line
        else:
            line = verdict_line(v, lang, marks, raises)
        self.query_one(".cell-status", Static).update(line)

    def _render_predict(self) -> None:
        widget = self.query_one(".cell-predict", Static)
        p = self.cell.predict
        widget.display = p is not None and (self.asking or self.guess is not None)
        if widget.display:
            widget.update(predict_text(self, p, self.app.lang, self.app.marks))

    def _render_explain(self) -> None:
        """Why the run showed what it did: a Markdown block mounted once the first run is over
        (a lesson's cells stay light until then), shown only beside a finished run."""
        p = self.cell.predict
        if p is None or p.explain is None:
            return
        mounted = self.query(".cell-explain")
        found = mounted.first(Markdown) if mounted else None
        if self.verdict is None or self.running:
            if found is not None:
                found.display = False
            return
        text = bold_label(say("predict_why", self.app.lang), p.explain.get(self.app.lang))
        if found is not None:
            found.display = True
            set_markdown(found, text)
        else:
            self.mount(Markdown(text, classes="cell-explain"), after=self.query_one(".cell-output"))

    def _render_output(self) -> None:
        out = output_text(self.chunks, self.verdict, self.app.lang, self.app.marks)
        widget = self.query_one(".cell-output", Static)
        widget.update(out)
        widget.display = bool(out)


# ---- shared with the scratch screen (a learner's edited copy of a cell) ----------------------


def verdict_line(v: Verdict, lang: str, marks, raises: str | None = None, judged: bool = True) -> Text:
    """The status line of a finished run: what the cell did and, if `judged`, whether that is
    what the lesson says it does (a scratch copy has no such claim: raised or finished)."""
    what = say("cell_raised", lang, exc=v.cell.raised) if v.cell and v.cell.raised else say("cell_ok", lang)
    if not judged and v.cell is not None:
        status = "fail" if v.cell.raised else "pass"
        line = Text(f"{marks[status]} {what}", style=marks.style(status))
    elif v.status == "pass":
        line = Text(
            f"{marks['pass']} {what}" + (say("cell_as_expected", lang) if raises else ""),
            style=marks.style("pass"),
        )
    elif v.status == "fail":
        line = Text(
            f"{marks['fail']} {what} — " + say("cell_not_as_expected", lang, why=pick(v.message, lang)),
            style=marks.style("fail"),
        )
    else:
        line = Text(f"{marks[v.status]} {pick(v.message, lang)}", style=marks.style(v.status, "bold"))
    line.append(f"  ({v.duration_s:.2f} s)", style="dim")
    return line


def output_text(chunks: list[tuple[str, str]], v: Verdict | None, lang: str, marks) -> Text:
    """What a run printed (stderr dimmed, the oldest cut beyond MAX_SHOWN_CHARS), then the
    traceback of what it raised; "(no output)" once it is over; empty while nothing came yet."""
    out = Text()
    for stream, chunk in chunks:
        if stream == "stderr":
            out.append(without_noise(chunk), style="dim")  # no runtime start-up chatter
        else:
            out.append(chunk)
    if len(out) > MAX_SHOWN_CHARS:
        out = out[-MAX_SHOWN_CHARS:]
    if v is not None and v.cell is not None and v.cell.raised:
        if out and not out.plain.endswith("\n"):
            out.append("\n")
        out.append((v.cell.traceback or f"{v.cell.raised}: {v.cell.message}").rstrip(), style=marks.style("traceback"))
    if v is not None and not out:
        out = Text(say("no_output", lang), style="dim")
    return out


# ---- the predict line ---------------------------------------------------------------------------


def option_key(char: str, letters: list[str]) -> str | None:
    """The option a key picks: a-d or 1-4, as in the quiz."""
    if len(char) != 1:
        return None
    if char.isdigit() and 1 <= int(char) <= len(letters):
        return letters[int(char) - 1]
    return char.upper() if char.upper() in letters else None


def predict_text(view: CellView, p, lang: str, marks) -> RenderableType:
    """The question with its keys while it is open; afterwards the guess beside what the run showed."""
    if view.asking:
        text = Text()
        # the question in the plain style, so that its `code` stands out (under NO_COLOR too)
        text.append(spaced(say("predict_ask", lang)), style="bold")
        text.append_text(inline(p.question.get(lang)))
        # Options in a column of their own: a long one wraps under its own text, not under its letter.
        options = hanging([(Text(f"  {letter}) "), inline(option.label(lang))) for letter, option in p.options.items()])
        if p.numeric:
            text.append("\n  " + spaced(say("predict_typed", lang)))
            text.append(view.typed + "▏" if not marks.ascii else view.typed + "_", style="bold")
            keys = say("predict_keys_number", lang)
        else:
            letters = list(p.options)
            keys = say("predict_keys_options", lang, first=letters[0].lower(), last=letters[-1].lower(), n=len(letters))
        return Group(text, options, Text(keys, style="dim")) if p.options else Group(text, Text(keys, style="dim"))
    answer = p.describe(view.guess, lang)
    if view.running or view.verdict is None:
        key = "predict_running" if view.running else "predict_made"
        return inline(say(key, lang, answer=answer), style="bold")  # an option's `code` as in the question
    if view.shown is None:
        return inline(say("predict_unseen", lang, answer=answer), style="bold")
    right = p.is_right(view.guess, view.shown)
    status = "pass" if right else "fail"
    # Right: the printed value is enough (the option was just named); wrong: name the option it is.
    line = say(
        "predict_right" if right else "predict_wrong",
        lang,
        answer=answer,
        shown=view.shown if right else p.describe_shown(view.shown, lang),
    )
    return inline(f"{marks[status]} {line}", style=marks.style(status, "bold"))
