"""The exercise workspace: the task, an editor on the learner's file, checks streamed from the sandbox.

Keys are F-keys and Ctrl combinations so that none of them steals typing in the editor.
The workspace file is the source of truth: a check saves the editor first, and edits made
in another editor (or via F9) are picked up by polling it. How the file is read, saved,
watched and rescued is tutor.files.edited_file's; this screen lays out the views and wires keys to it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Header, Markdown, Static, TabbedContent, TabPane, TextArea

from tutor.files.edited_file import EditedFile
from tutor.files.external_editor import editor_command, run_editor
from tutor.files.workspace import LearnerFileError
from tutor.i18n import Bilingual, pick
from tutor.progress import changes, passing
from tutor.progress.path import Step
from tutor.protocol import CheckResult, MetricPoints, TraceFacts
from tutor.sandbox.events import Output, Verdict
from tutor.ui.runs import RunView
from tutor.ui.screens.base import TutorScreen, footer
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.widgets.editor import highlighting_available, make_editor
from tutor.ui.widgets.markup import set_markdown
from tutor.ui.widgets.own_focus_style import ReadingScroll
from tutor.ui.widgets.run_results import RunResults
from tutor.ui.widgets.trace_panel import TracePanel

TRACE_PANEL_MIN_WIDTH = 120  # a terminal this wide shows the trace panel unless asked not to

POLL_S = 0.5  # how often the workspace file is checked for outside edits
VIEWS = ("task", "code", "results")


class ExerciseScreen(RunView, TutorScreen):
    BINDINGS = [
        Binding("f5,ctrl+r", "check", "Check"),
        Binding("f7", "cancel_check", "Cancel"),  # shown only while a check runs
        Binding("f2,ctrl+t", "view", "View"),
        Binding("f6", "other_view", "Task/Results", show=False),
        Binding("f3,ctrl+g", "hint", "Hint"),
        Binding("f4", "solution", "Solution"),
        Binding("f8", "reset", "Reset"),
        Binding("f9,ctrl+o", "editor", "$EDITOR"),
        # Ctrl+F, not Ctrl+Y: the editor keeps Ctrl+Y for redo, so there it never reached the panel
        Binding("f10,ctrl+f", "trace_panel", "Traces", show=False),
        Binding("ctrl+n", "next_exercise", "Next"),
        Binding("c", "next_exercise", show=False),  # outside the editor, like everywhere else on the path
        Binding("ctrl+s", "save", "Save", show=False),
        Binding("escape", "back", "Back"),
        # Still works here, but its footer room goes to the exercise's own keys (80 columns).
        Binding("ctrl+l", "app.toggle_lang", show=False),
    ]

    def runs_code(self) -> bool:
        return True

    def __init__(self, exercise):
        super().__init__()
        self.exercise = exercise
        self.file: EditedFile  # the learner's file, opened in compose()
        # The latest "saved" / "reloaded" / "passed" note on the status line, made in the current
        # language each time it is drawn (Ctrl+L redraws it).
        self.notice: Callable[[], Text] | None = None
        self.typed: str | None = None  # the editor's text as last changed: still there once the editor is gone
        # Keys typed while the screen opens wait (tutor.ui.key_order) until its view has the focus.
        self.ready_for_keys = False

    # ---- layout ----------------------------------------------------------------------------

    def compose(self):
        self.file = EditedFile.open(self.session.workspace, self.exercise)
        first = "task" if self._status() == "new" else "code"
        yield Header()
        yield Static(id="ex-status")
        with Horizontal(id="ex-row"):
            with TabbedContent(id="ex-tabs", initial=first):
                with TabPane("Task", id="task"):
                    with ReadingScroll(id="task-scroll"):
                        yield Static(id="file-note")
                        yield Markdown(id="prompt")
                        yield Markdown(id="hints")
                with TabPane("Code", id="code"):
                    yield make_editor(self.file.saved_text, id="editor")
                with TabPane("Results", id="results"):
                    yield RunResults(self.exercise, id="results-view")
            # Beside the editor and the results, live while a check runs. Off at 80 columns (the
            # editor needs them), on where there is room; F10 / Ctrl+F shows or hides it.
            yield TracePanel(id="trace-panel")
        yield footer()

    @property
    def path(self) -> Path:
        return self.file.path

    @property
    def load_problem(self) -> Bilingual | None:
        """Why the file could not be read: both languages, picked when shown (Ctrl+L)."""
        return self.file.load_problem

    @property
    def editor(self) -> TextArea:
        return self.query_one("#editor", TextArea)

    @property
    def results(self) -> RunResults:
        return self.query_one("#results-view", RunResults)

    @property
    def verdict(self) -> Verdict | None:
        return self.results.verdict

    @property
    def running(self) -> bool:
        return self.results.running

    @property
    def trace_panel(self) -> TracePanel:
        return self.query_one("#trace-panel", TracePanel)

    def on_mount(self) -> None:
        self.trace_panel.display = self.app.size.width >= TRACE_PANEL_MIN_WIDTH
        self.trace_panel.render_facts()
        self.results.problem = self.load_problem
        self.set_interval(POLL_S, self._poll_file)
        self._poll_progress()  # progress saved elsewhere since it was last read, looked at in a thread
        self.set_interval(POLL_S, self._poll_progress)
        self.call_after_refresh(self._focus_view)
        if self.results.chart is not None:
            self._fetch_reference()

    reference_state = "none"  # "computing", "ready" or "none": the reference curve (tests, bench)

    def _fetch_reference(self) -> None:
        """The course solution's loss on the same data, for the chart (tutor.sandbox.reference_curve):
        from the home if computed before, else trained in a worker now, in a thread. Numbers only
        reach this screen, never the solution's code."""
        from tutor.sandbox import reference_curve

        session, exercise, chart = self.session, self.exercise, self.results.chart
        self.reference_state = "computing"

        def fetch() -> None:
            try:
                points = reference_curve.compute(session.sandbox, session.home, session.course, exercise)
            except Exception:  # noqa: BLE001 - no reference is a chart with the learner's curve alone
                points = None
            self.app.call_from_thread(shown, points)

        def shown(points) -> None:
            self.reference_state = "ready" if points else "none"
            if points and chart is not None:
                chart.set_reference(points)

        self.run_worker(fetch, thread=True, group="reference", exit_on_error=False)

    def on_unmount(self) -> None:  # RunView cancels a check still going
        if not self.save(quiet=True):  # never lose typing by leaving the screen
            self._rescue()
        elif self.file.kept_other is not None:  # quitting: said again once the terminal is back
            self.session.after_exit.append(self.say("kept_other", path=str(self.file.kept_other)))

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.typed = event.text_area.text

    def _editor_text(self) -> str | None:
        """What the learner has in the editor; when leaving, the editor is unmounted before the screen."""
        try:
            return self.editor.text
        except Exception:  # noqa: BLE001 - the editor is already gone (screen closing)
            return self.typed

    def _rescue(self) -> None:
        """Leaving with text that could not be saved: keep a copy in the temporary folder, and say
        where both now (if the app goes on) and after the app has exited (quit)."""
        text = self._editor_text()
        if text is None:
            return
        why = self._save_problem()
        try:
            where = self.file.rescue(text)
            note = self.say("unsaved_rescued", path=str(self.path), why=why, rescue=str(where))
        except LearnerFileError as exc:
            note = self.say("unsaved_lost", path=str(self.path), why=why, why_copy=pick(exc.message, self.lang))
            self.session.after_exit.append(note + "\n" + text)  # the last place the text can go
            self.app.notify(note, severity="error", timeout=15, markup=False)
            return
        self.session.after_exit.append(note)
        self.app.notify(note, severity="error", timeout=15, markup=False)

    # ---- texts -----------------------------------------------------------------------------

    @property
    def here(self) -> Step:
        return Step("exercise", self.exercise.id)

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "cancel_check":
            return self.running
        if action == "next_exercise":
            return self._status() == "passed"
        return True

    def served_file(self) -> str:
        """The name of the learner's file, for the served page's download and upload."""
        return self.path.name

    def render_texts(self) -> None:
        ex, lang = self.exercise, self.lang
        self.set_title(ex.title.get(lang), ex.id)
        tabs = self.query_one("#ex-tabs", TabbedContent)
        for view in VIEWS:
            tabs.get_tab(view).label = self.say(view)
        set_markdown(self.query_one("#prompt", Markdown), ex.prompt.get(lang))
        self.trace_panel.render_facts()
        if self.app.is_web:  # served (`serve`): the file is on the server, not where the page is shown
            note = Text(self.say("your_file_web", name=self.path.name), style="dim")
        else:
            note = Text(self.say("your_file", path=str(self.path)), style="dim")
        if not highlighting_available():
            note = Text(self.say("no_highlight") + "  ", style="italic") + note
        self.query_one("#file-note", Static).update(note)
        self.render_status()
        self.results.after_pass = self._passed_prompt()
        self.results.compare_offer = self.session.loaded.solution_path(ex.id).is_file()
        self.results.render_all()

    def _passed_prompt(self) -> str:
        nxt = self.app.step_after(self.here)
        return (
            self.say("check_passed_web" if self.app.is_web else "check_passed", what=self.app.step_title(nxt))
            if nxt.kind != "progress"
            else self.say("check_passed_last")
        )

    def _status(self) -> str:
        return self.session.progress.exercise_status(self.exercise.id)

    def render_status(self) -> None:
        rec = self.session.progress.exercise(self.exercise.id)
        status = rec.status
        line = Text(
            self.say(
                "status_line",
                mark=self.marks[status],
                status=self.say(f"st_{status}"),
                attempts=rec.attempts,
                hints=rec.hints_shown,
                total=len(self.exercise.hints),
            ),
            style=self.marks.style(status, "bold") if status == "passed" else "bold",
        )
        if self.notice is not None:
            line.append("  ")
            line.append_text(self.notice())
        line.no_wrap, line.overflow = True, "ellipsis"
        # One row whatever it says (CSS): a repaint, not a layout of the screen.
        self.query_one("#ex-status", Static).update(line, layout=False)
        self._render_hints(rec.hints_shown)

    def say_status(self, key: str, style: str = "", **fields) -> None:
        """A short note on the status line (saved, reloaded, cancelled, passed): never over the work."""
        self.notice = lambda: Text(self.say(key, **fields), style=style)
        self.render_status()

    def _render_hints(self, shown: int) -> None:
        total = len(self.exercise.hints)
        parts = [
            f"**{self.say('hint_n', n=i + 1, total=total)}**\n\n{hint.get(self.lang)}"
            for i, hint in enumerate(self.exercise.hints[:shown])
        ]
        self._hints_update = set_markdown(self.query_one("#hints", Markdown), "\n\n".join(parts))

    # ---- views -----------------------------------------------------------------------------

    _reading = "task"  # the non-code view F2 returns to

    def show_view(self, view: str) -> None:
        if view != "code":
            self._reading = view
        self.query_one("#ex-tabs", TabbedContent).active = view
        self._focus_view()

    def _focus_view(self) -> None:
        view = self.query_one("#ex-tabs", TabbedContent).active
        target = {"task": "#task-scroll", "code": "#editor", "results": "#results-view"}.get(view)
        if target:
            self.set_focus(self.query_one(target))  # now, not after the keys already on their way
        self.ready_for_keys = True

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        active = self.query_one("#ex-tabs", TabbedContent).active
        if active in ("task", "results"):
            self._reading = active
        self._focus_view()

    def action_view(self) -> None:
        """F2: from the code to what you were reading (task or results) and back: after a
        failed check, one key returns to the editor."""
        current = self.query_one("#ex-tabs", TabbedContent).active
        self.show_view(self._reading if current == "code" else "code")

    def action_other_view(self) -> None:
        """F6: switch the reading view between task and results."""
        current = self.query_one("#ex-tabs", TabbedContent).active
        self.show_view("results" if current == "task" else "task")

    # ---- the file --------------------------------------------------------------------------

    def _save_problem(self) -> str:
        """Why the last save failed, in the language on screen now."""
        problem = self.file.save_problem
        return pick(problem, self.lang) if problem is not None else ""

    def save(self, quiet: bool = False) -> bool:
        """Write the editor's text to the workspace file if it changed; False if that failed.
        A newer version saved by another view is kept first, and where is said (even if quiet)."""
        if self.file.save(self._editor_text()):
            if self.file.kept_other is not None:
                self.app.notify(
                    self.say("kept_other", path=self.shown_path(self.file.kept_other)),
                    severity="warning",
                    timeout=15,
                    markup=False,
                )
            return True
        if not quiet:
            self.notify(
                self.say("save_failed_kept", why=self._save_problem()), severity="error", timeout=10, markup=False
            )
        return False

    def action_save(self) -> None:
        if self.save():
            self.say_status("saved", path=self.path.name)

    def _poll_file(self) -> None:
        """Outside edits: reload and re-check, unless the editor holds unsaved typing."""
        edit = self.file.outside_edit(self.editor.text)
        if edit is None:
            return
        if edit.kind == "deleted":  # by the learner's own program, say: the editor still has the text
            self.say_status("file_deleted", style=self.marks.style("problem", "bold"), name=self.path.name)
        elif edit.kind == "kept":
            self.say_status("file_changed_kept", style=self.marks.style("problem", "bold"))
        else:
            self.editor.load_text(edit.text)
            if edit.replaced_kept is not None:  # another view wrote over this one's text and kept it
                self.notify(
                    self.say("replaced_kept", path=self.shown_path(edit.replaced_kept)),
                    severity="warning",
                    timeout=15,
                    markup=False,
                )
            if edit.checked_elsewhere:  # its check (and attempt) is that view's: not counted twice
                self.results.clear(running=False)  # they judged the text just replaced
                self.say_status("file_changed_checked_elsewhere")
            else:
                self.say_status("file_changed")
                self.start_check()

    def _poll_progress(self) -> None:
        """A pass recorded elsewhere (`check` in another terminal) shows here too; the file is
        looked at in a thread, never on the UI's."""
        state = self.session.state

        def look() -> None:
            if state.refresh_if_changed():
                self.app.call_from_thread(self._progress_changed)

        self.run_worker(look, thread=True, group="progress-poll", exclusive=True, exit_on_error=False)

    def _progress_changed(self) -> None:
        self.render_status()
        self.results.after_pass = self._passed_prompt()
        self.refresh_bindings()  # Next appears once passed

    # ---- checking --------------------------------------------------------------------------

    def action_check(self) -> None:
        """F5: check the editor's text now; a check already running is replaced by this one."""
        self.start_check()

    def action_cancel_check(self) -> None:
        if self.running:
            self.cancel_run()

    def start_check(self) -> None:
        """Save, then run the checks in the sandbox; events stream in as RunMessages."""
        self.forget_run()  # a newer version of the file replaces the run in flight
        text = self._editor_text()
        if text is not None:
            self.file.checking(text)  # before the save: a view that sees it does not check it again
        if not self.save():
            return
        source = self.file.read()
        results = self.results
        results.problem = self.load_problem
        results.clear(running=source is not None)
        self.trace_panel.clear()
        self.show_view("results")
        if source is None:
            return
        ex, session, filename = self.exercise, self.session, str(self.path.resolve())

        def record_attempt(verdict: Verdict) -> None:  # in the run's thread: saved before it is shown
            passing.keep(session.home, ex.id, source, verdict.passed)  # the file `export` hands in
            results.problem = session.record(changes.attempt, ex.id, verdict.passed)

        self.start_run(lambda: session.sandbox.run_exercise(ex, source, filename), before_verdict=record_attempt)
        self.notice = None
        # Cancel appears in the footer. Not apply_lang(): re-rendering every text (title, tabs) laid
        # out the whole screen as the check started.
        self.render_status()
        self.refresh_bindings()

    # The run on show only (RunView lets no replaced or cancelled run through).
    def run_output(self, output: Output) -> None:
        self.results.add_output(output)

    def run_metrics(self, metrics: MetricPoints) -> None:
        self.results.add_metrics(metrics)

    def run_check(self, check: CheckResult) -> None:
        self.results.add_check(check)

    def run_trace(self, facts: TraceFacts) -> None:
        self.trace_panel.add(facts)

    def action_trace_panel(self) -> None:
        """F10 / Ctrl+F: the trace panel beside the editor and the results, shown or hidden."""
        panel = self.trace_panel
        panel.display = not panel.display
        if panel.display:
            self.say_status("trace_shown")
        else:
            self.notice = None
            self.render_status()

    def run_finished(self, verdict: Verdict) -> None:
        self.results.finish(verdict)
        self.notice = None
        if verdict.kind == "cancelled":
            self.notice = lambda: Text(pick(verdict.message, self.lang))  # the verdict's one wording of it
            self.render_status()
        elif verdict.passed:
            passed = "passed_note_web" if self.app.is_web else "passed_note"
            self.notice = lambda: Text(self.say(passed), style=self.marks.style("pass", "bold"))
        self.render_status()  # status line, footer (Cancel goes, Next appears): the rest is unchanged
        self.refresh_bindings()

    # ---- hints, solution, reset, outside editor, next ---------------------------------------

    _hints_update: Any = None  # the hints' Markdown being rebuilt, to await before scrolling to one

    async def action_hint(self) -> None:
        shown, total = self.session.progress.exercise(self.exercise.id).hints_shown, len(self.exercise.hints)
        if shown >= total:
            self.show_view("task")
            self.say_status("no_more_hints")
            return
        self.record(changes.hint, self.exercise.id, shown + 1)
        # The hint goes into the task view, under the prompt, and the view scrolls to it once its
        # blocks exist (scrolling before the Markdown was rebuilt left the new hint below the fold).
        self.show_view("task")
        self.say_status("hint_shown", n=shown + 1, total=total)
        if self._hints_update is not None:
            await self._hints_update
        self.call_after_refresh(self._scroll_to_hint, self.say("hint_n", n=shown + 1, total=total))

    def _scroll_to_hint(self, title: str) -> None:
        hints = self.query_one("#hints", Markdown)
        # A block's text is Textual's `_content` (Textual is pinned in pyproject.toml).
        block = next((b for b in hints.children if str(getattr(b, "_content", "")).strip() == title), hints)
        self.query_one("#task-scroll", VerticalScroll).scroll_to_widget(block, top=True, animate=False)

    def action_solution(self) -> None:
        if self._status() == "passed":
            self.show_solution()
        else:
            self.app.push_screen(ConfirmScreen("solution_confirm"), self._solution_confirmed)

    def _solution_confirmed(self, ok: bool | None) -> None:
        if ok:
            self.show_solution()

    def show_solution(self) -> None:
        from tutor.ui.screens.solution import SolutionScreen

        path = self.session.loaded.solution_path(self.exercise.id)
        try:
            code = path.read_text(encoding="utf-8")
        except OSError:
            self.notify(self.say("solution_missing", path=str(path)), severity="error")
            return
        self.record(changes.solution_viewed, self.exercise.id)  # asked for: recorded, after a pass too
        yours = self._editor_text()
        if self._status() == "passed" and yours is not None:
            from tutor.ui.screens.compare import CompareScreen

            self.app.push_screen(CompareScreen(self.exercise.id, yours, code))  # side by side, marked
            return
        self.app.push_screen(SolutionScreen(self.exercise.id, code))

    def action_reset(self) -> None:
        def reset(ok: bool | None) -> None:
            if not ok:
                return
            try:
                backup, text = self.file.reset(self.session.workspace, self.exercise)
            except LearnerFileError as exc:  # the old code is still in place, and in the editor
                self.notify(
                    self.say("save_failed_kept", why=pick(exc.message, self.lang)),
                    severity="error",
                    timeout=10,
                    markup=False,
                )
                return
            self.editor.load_text(text)
            self.results.clear(running=False)  # they judged the old file
            self.show_view("code")
            self.say_status("reset_done", path=self.shown_path(backup))

        self.app.push_screen(ConfirmScreen("reset_confirm"), reset)

    def action_editor(self) -> None:
        """Edit in $VISUAL / $EDITOR with the TUI suspended; check what comes back. An editor
        that is missing or fails gives the TUI back with a message, and nothing is checked.
        In a browser there is no terminal to hand over: F9 goes to the editor here."""
        if self.app.is_web:
            self.show_view("code")
            self.notify(self.say("editor_in_browser"), timeout=8, markup=False)
            return
        if not self.save():
            return
        cmd = editor_command()
        try:
            with self.app.suspend():
                # Must not raise: Textual gives the terminal back only when this block ends normally.
                problem = run_editor(cmd, self.path)
        except Exception as exc:  # noqa: BLE001 - a terminal that cannot suspend (Textual's SuspendNotSupported)
            problem = Bilingual.same(str(exc))
        text = self.file.reload()  # what the editor saved, even if it then failed
        if text is not None:
            self.editor.load_text(text)
        if problem is not None:
            self.notify(
                self.say("no_editor", cmd=cmd, why=pick(problem, self.lang)), severity="error", timeout=10, markup=False
            )
            return
        self.start_check()

    def action_next_exercise(self) -> None:
        """c / Ctrl+N once passed: the next step of the path (a lesson, a checkpoint or an exercise)."""
        if self._status() != "passed":
            self.say_status("not_passed_yet")
            return
        self.app.go_on_from(self.here)

    def on_code_editor_leave(self, message) -> None:
        """Esc in the editor: back to what the learner was reading (Esc again leaves the screen)."""
        message.stop()
        self.show_view(self._reading)

    _leave_unsaved = False  # Esc pressed once after a failed save: the next Esc leaves anyway

    def action_back(self) -> None:
        """Esc: save and leave; if the save fails, stay (the text is in the editor) until Esc again."""
        if not self.save(quiet=True) and not self._leave_unsaved:
            self._leave_unsaved = True
            self.notify(self.say("leave_unsaved", why=self._save_problem()), severity="error", timeout=10, markup=False)
            return
        self.app.pop_screen()
