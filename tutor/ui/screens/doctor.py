"""Doctor: run the learner's own script through the session's sandbox (the probe runs in the
worker; this process never imports JAX), stream its output, list the findings; Enter on a finding
opens the lesson that teaches the fix, at its demo cell. Esc stops a running script gracefully
(the report of what was seen still comes), else goes back."""

from __future__ import annotations

import shlex
from pathlib import Path

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Header, Input, Log, OptionList, Static
from textual.widgets.option_list import Option

from tutor.doctor import options, wording
from tutor.doctor.findings import Report
from tutor.doctor.options import DoctorOptions
from tutor.doctor.running import report_of, start_doctor
from tutor.doctor.teaching import teaching
from tutor.i18n import pick, table
from tutor.sandbox.events import Output, Verdict
from tutor.ui.runs import RunView
from tutor.ui.screens.base import TutorScreen, footer

TEXTS = table(
    {
        "title": {"en": "Doctor: check your own script", "zh": "诊断：检查你自己的脚本"},
        "placeholder": {
            "en": "path/to/train.py [arguments] [--nans] [--timeout S]  (Enter runs it)",
            "zh": "path/to/train.py [参数] [--nans] [--timeout 秒]（按 Enter 运行）",
        },
        "intro": {
            "en": "Runs your script with instrumentation on and lists retraces, reused keys, side effects "
            "under tracing, donation problems and host syncs in hot loops.",
            "zh": "带着检测运行你的脚本，列出重新追踪、重复使用的 key、追踪时的副作用、捐赠问题和热循环里的主机同步。",
        },
        "running": {
            "en": "Running {script}... (Esc stops it and still reports)",
            "zh": "正在运行 {script}……（按 Esc 停止，仍会出报告）",
        },
        "stopping": {
            "en": "Stopping {script}; the report of what was seen is on its way...",
            "zh": "正在停止 {script}；已看到的情况马上给出报告……",
        },
        "no_report": {"en": "No report: {why}", "zh": "没有报告：{why}"},
        "pick": {
            "en": "Enter on a finding opens the lesson that teaches the fix.",
            "zh": "在某个问题上按 Enter，打开讲解修法的那一课。",
        },
        "gap": {"en": " ", "zh": ""},  # after a sentence's full stop or colon: none after "：" or "。"
        "no_lesson": {
            "en": "No lesson is about this one: its message says what to look at.",
            "zh": "没有专门讲这个问题的课：看它的说明即可。",
        },
        "off_served": {
            "en": "Doctor is off in a class's served tutor: it would run a script with no file fence, as the "
            "server's user, who owns every learner's home, so a script could change another learner's progress. "
            "Run `jaxstate-tutor doctor SCRIPT` in a terminal of your own instead.",
            "zh": "班级网页版教程里不能用诊断：它会以服务器用户的身份、在没有文件围栏的情况下运行脚本，而这个用户拥有每位学习者的"
            "主目录，脚本就能改动别人的进度。请在你自己的终端里运行 `jaxstate-tutor doctor 脚本`。",
        },
        "busy": {"en": "A doctor run is still going: Esc stops it first.", "zh": "诊断还在运行：先按 Esc 停止它。"},
        "run": {"en": "Run", "zh": "运行"},
        "stop": {"en": "Stop", "zh": "停止"},
        "back": {"en": "Back", "zh": "返回"},
        "open": {"en": "Open lesson", "zh": "打开课程"},
    }
)


text = TEXTS.say


class DoctorScreen(RunView, TutorScreen):
    BINDINGS = [
        Binding("escape", "stop_or_back", "Back"),
    ]
    DEFAULT_CSS = """
    DoctorScreen #doctor-intro { height: auto; color: $text-muted; }
    DoctorScreen #doctor-status { height: auto; text-style: bold; }
    DoctorScreen #doctor-output { height: 1fr; min-height: 4; border: round $primary-darken-2; }
    DoctorScreen #doctor-findings { height: 1fr; min-height: 4; scrollbar-gutter: stable; }
    DoctorScreen.reported #doctor-output { height: 1fr; max-height: 8; }
    DoctorScreen.reported #doctor-findings { height: 3fr; }
    """
    # Once a run has started the intro has done its job: its rows go to the output and, with a
    # report in, mostly to the findings (at 80x24 they had 6 rows, the script's output as many).

    def runs_code(self) -> bool:
        return True

    def __init__(self, command: str = ""):
        super().__init__()
        self.command = command
        self.stopping = False
        self.verdict: Verdict | None = None
        self.report: Report | None = None
        self._script = ""

    def compose(self):
        yield Header()
        yield Static(id="doctor-intro")
        yield Input(value=self.command, id="doctor-command")
        yield Static(id="doctor-status")
        yield Log(id="doctor-output", max_lines=2000)
        yield OptionList(id="doctor-findings")
        yield footer()

    def on_mount(self) -> None:
        self.query_one("#doctor-command", Input).focus()

    def key_labels(self) -> dict[str, str]:
        return {"stop_or_back": text("stop" if self.running else "back", self.lang)}

    @property
    def running(self) -> bool:
        return self.run_going

    def render_texts(self) -> None:
        lang = self.lang
        self.set_title(text("title", lang))
        intro = self.query_one("#doctor-intro", Static)
        intro.update(text("intro", lang))
        intro.display = self.handle is None
        self.set_class(bool(self.report and self.report.findings), "reported")
        self.query_one("#doctor-command", Input).placeholder = text("placeholder", lang)
        self._render_status()
        self._render_findings()

    # ---- running -----------------------------------------------------------------------------

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.running:
            self.notify(text("busy", self.lang), timeout=4)
            return
        try:
            words = shlex.split(event.value)
        except ValueError as exc:  # an unclosed quote
            self.notify(str(exc), severity="error", timeout=6, markup=False)
            return
        if not words:
            return
        try:  # the doctor's own options as on the command line; the rest is the script's
            asked = options.parse(words)
        except options.OptionsError as exc:
            self.notify(pick(exc.message, self.lang), severity="error", timeout=6, markup=False)
            return
        problem = options.script_problem(asked.script)
        if problem:
            self.notify(pick(problem, self.lang), severity="error", timeout=8, markup=False)
            return
        self.start(asked)

    def start(self, asked: DoctorOptions) -> None:
        if self.session.shared_seat:  # the outline does not open this screen there; a second lock on the door
            self.notify(text("off_served", self.lang), severity="warning", timeout=15, markup=False)
            return
        self._script = asked.script.name
        self.verdict = self.report = None
        self.stopping = False
        self.query_one("#doctor-output", Log).clear()
        sandbox = self.session.sandbox
        # Taken in a thread, as every run is: a spawn that fails (no room in /tmp, no processes
        # left) comes back as an error verdict, and the UI thread never waits on it.
        self.start_run(lambda: start_doctor(sandbox, asked, Path.cwd()))
        self.apply_lang()

    def run_output(self, output: Output) -> None:
        self.query_one("#doctor-output", Log).write(output.text)

    def run_finished(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.report = report = report_of(verdict, self._script)
        self.apply_lang()
        findings = self.query_one("#doctor-findings", OptionList)
        if report.findings:
            findings.focus()
            findings.highlighted = 0

    def action_stop_or_back(self) -> None:
        if self.running:
            if not self.stopping:
                self.stopping = True
                self._render_status()
                # stop() waits for the report (a few seconds at most): not on the UI thread
                handle = self.handle
                assert handle is not None  # running
                self.run_worker(handle.stop, thread=True, group="doctor-stop", exit_on_error=False)
            return
        self.dismiss()

    # ---- showing -------------------------------------------------------------------------------

    def _render_status(self) -> None:
        lang, status = self.lang, self.query_one("#doctor-status", Static)
        if self.running:
            status.update(text("stopping" if self.stopping else "running", lang, script=self._script))
        elif self.verdict is not None and self.report is not None:  # set together, as a run ends
            line = wording.ending(self.report, lang, stopped=self.stopping)
            if self.verdict.report is None:
                line += " " + text("no_report", lang, why=self.verdict.message.get(lang))
            count = wording.how_many(self.report, lang)
            tail = text("gap", lang) + text("pick", lang) if self.report.findings else ""
            status.update(Text(f"{line}\n{count}{tail}"))
        else:
            status.update("")

    @property
    def taught(self) -> dict[str, tuple[str, str]]:
        """Where the course teaches each finding's fix (its cells' `teaches:`)."""
        course = self.session.course
        return course.teachings() if course is not None else {}

    def _render_findings(self) -> None:
        options = self.query_one("#doctor-findings", OptionList)
        keep = options.highlighted
        items: list[Option] = []
        for i, f in enumerate(self.report.findings if self.report else []):
            row = Text(f"{f.file}:{f.line} ", style="bold")
            row.append(f"[{f.kind}] ", style="yellow")
            if f.function:
                row.append(f"{f.function} ")
            row.append(wording.times(f.count, self.lang) + "\n", style="dim")
            row.append(wording.message(f, self.lang))
            t = teaching(f, self.taught)
            if t.lesson:
                row.append("\n→ " + t.lesson + (f" · {t.cell}" if t.cell else ""), style="dim")
            items.append(Option(row, id=str(i)))
        for i, f in enumerate(self.report.notes if self.report else []):  # worth a word, not a bug
            row = Text(wording.WORDS.say("notes", self.lang) + " ", style="dim bold")
            row.append(f"{f.file}:{f.line}\n", style="bold")
            row.append(wording.what(f, self.lang), style="dim")
            items.append(Option(row, id=f"note{i}"))
        options.set_options(items)
        if items:
            options.highlighted = keep if keep is not None and keep < len(items) else 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.report is None or event.option.id is None:
            return
        index = event.option.id
        chosen = self.report.notes[int(index[4:])] if index.startswith("note") else self.report.findings[int(index)]
        taught = teaching(chosen, self.taught)
        self.open_lesson(taught.lesson, taught.cell)

    def open_lesson(self, lesson_id: str | None, cell_id: str | None) -> None:
        """The lesson on top of this screen (Esc comes back to the findings), opened at the cell."""
        from tutor.progress.path import Step

        screen = self.app.screen_for(Step("lesson", lesson_id), at_cell=cell_id) if lesson_id else None
        if screen is None:
            self.notify(text("no_lesson", self.lang), timeout=5)
            return
        self.app.push_screen(screen)
