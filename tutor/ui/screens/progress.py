"""Progress at a glance: every exercise with status, attempts, hints; sections; the quiz; reset."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from tutor.i18n import pick
from tutor.progress import ProgressError
from tutor.progress.reports import misconception_report, score_text
from tutor.ui.screens.base import TutorScreen, footer
from tutor.ui.screens.confirm import ConfirmScreen


class ProgressScreen(TutorScreen):
    BINDINGS = [
        Binding("r", "reset_progress", "Reset"),
        Binding("escape", "back", "Back"),
    ]

    def compose(self):
        yield Header()
        with VerticalScroll(id="progress-body"):
            yield Static(id="progress-quiz")
            yield Static(id="progress-misconceptions")
            yield Static(id="progress-warnings")
            yield Static(id="progress-exercises")
            yield Static(id="progress-lessons")
        yield footer()

    def on_mount(self) -> None:
        self.query_one("#progress-body").focus()

    def render_texts(self) -> None:
        self.set_title(self.say("progress_title"))
        course, progress, m = self.session.course, self.session.progress, self.marks
        if course is None:
            return
        table = Table(expand=True, box=None, pad_edge=False, show_edge=False)
        table.add_column(self.say("col_exercise"), ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column(self.say("col_status"), no_wrap=True)
        table.add_column(self.say("col_attempts"), justify="right")
        table.add_column(self.say("col_hints"), justify="right")
        table.add_column(self.say("col_solution"), justify="center")
        for ex in course.exercises:
            rec = progress.exercise(ex.id)
            table.add_row(
                ex.id,
                f"{m[rec.status]} {self.say('st_' + rec.status)}",
                str(rec.attempts),
                f"{rec.hints_shown}/{len(ex.hints)}",
                self.say("yes") if rec.solution_viewed else "-",
            )
        self.query_one("#progress-exercises", Static).update(table)
        lessons = Text()
        lessons.append("\n" + self.say("lessons") + "\n", style="bold")
        for lesson in course.lessons:
            status = progress.lesson_status(lesson.id)
            lessons.append(f"{m[status]} {lesson.id:<5} {lesson.title.get(self.lang)}\n")
        self.query_one("#progress-lessons", Static).update(lessons)
        summary = progress.summary()
        best = summary.quiz_best
        score = score_text(
            summary.quiz_first, summary.quiz_now, summary.quiz_questions, summary.quiz_answered, self.lang
        )
        head = Text(
            self.say(
                "summary" if course.quiz else "summary_no_quiz",
                ld=summary.lessons_done,
                ln=summary.lessons,
                ep=summary.exercises_passed,
                en=summary.exercises,
                qb=score,
            )
            + "\n",
            style="bold",
        )
        lines = []
        if course.quiz:  # a course without a quiz has no quiz line
            lines.append(
                self.say(
                    "quiz_score",
                    score=score,
                    best="-" if best is None else best,
                    n=summary.quiz_questions,
                    attempts=summary.quiz_attempts,
                    answered=summary.quiz_answered,
                )
            )
        if summary.checkpoints:
            lines.append(self.say("checkpoints_score", done=summary.checkpoints_done, n=summary.checkpoints))
        if summary.predictions_made:
            lines.append(self.say("predictions_score", right=summary.predictions_right, n=summary.predictions_made))
        if summary.predictions_not_made:
            where = self.say("list_sep").join(
                self.say("lesson_count", id=lesson, n=n) for lesson, n in summary.predictions_not_made
            )
            lines.append(self.say("predictions_not_made", where=where))
        head.append("\n".join(lines))
        self.query_one("#progress-quiz", Static).update(head)
        self.render_misconceptions()
        warnings = self.query_one("#progress-warnings", Static)
        warnings.update(Text("\n".join(pick(w, self.lang) for w in progress.warnings), style=m.style("error")))
        warnings.display = bool(progress.warnings)

    def render_misconceptions(self) -> None:
        """The beliefs the learner's latest answers still show, each with where to look again;
        hidden until a question that tests one is answered."""
        shown = self.query_one("#progress-misconceptions", Static)
        report = misconception_report(self.session.progress, self.lang)
        shown.display = report is not None
        if report is None:
            return
        head, missed = report
        text = Text(head, style="bold")
        for belief, where in missed:
            text.append("\n" + self.marks["wrong"], style=self.marks.style("wrong"))
            text.append(f" {belief}\n  {where}")
        shown.update(text)

    def action_reset_progress(self) -> None:
        def reset(ok: bool | None) -> None:  # None: dismissed without an answer
            if ok:  # the lock wait and the rename happen in a thread, never the UI's
                self.run_worker(move_aside, thread=True, group="progress", exit_on_error=False)

        def move_aside() -> None:
            try:
                backup = self.session.state.reset()
            except ProgressError as exc:
                self.app.call_from_thread(
                    self.notify, self.say("progress_error", why=pick(exc.message, self.lang)), severity="error"
                )
                return
            self.app.call_from_thread(self._after_reset, backup)

        self.app.push_screen(ConfirmScreen("reset_progress_confirm"), reset)

    def _after_reset(self, backup) -> None:
        self.notify(self.say("progress_reset", path=self.shown_path(backup) if backup else "-"), timeout=6)
        self.render_texts()

    def action_back(self) -> None:
        self.app.pop_screen()
