"""Progress at a glance: every exercise with status, attempts, hints; sections; the quiz; reset."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from tutor.i18n import pick
from tutor.progress import ProgressError, exercise_status, lesson_status
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
            yield Static(id="progress-warnings")
            yield Static(id="progress-exercises")
            yield Static(id="progress-lessons")
        yield footer()

    def on_mount(self) -> None:
        self.query_one("#progress-body").focus()

    def render_texts(self) -> None:
        self.set_title(self.say("progress_title"))
        course, data, m = self.session.course, self.session.progress(), self.marks
        if course is None:
            return
        table = Table(expand=True, box=None, pad_edge=False, show_edge=False)
        table.add_column(self.say("col_exercise"), ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column(self.say("col_status"), no_wrap=True)
        table.add_column(self.say("col_attempts"), justify="right")
        table.add_column(self.say("col_hints"), justify="right")
        table.add_column(self.say("col_solution"), justify="center")
        for ex in course.exercises:
            rec = data["exercises"].get(ex.id, {})
            status = exercise_status(data, ex.id)
            table.add_row(ex.id, f"{m[status]} {self.say('st_' + status)}", str(rec.get("attempts", 0)),
                          f"{rec.get('hints_shown', 0)}/{len(ex.hints)}",
                          self.say("yes") if rec.get("solution_viewed") else "-")
        self.query_one("#progress-exercises", Static).update(table)
        lessons = Text()
        lessons.append("\n" + self.say("lessons") + "\n", style="bold")
        for lesson in course.lessons:
            status = lesson_status(data, lesson.id)
            lessons.append(f"{m[status]} {lesson.id:<5} {lesson.title.get(self.lang)}\n")
        self.query_one("#progress-lessons", Static).update(lessons)
        quiz = data["quiz"]
        best = quiz.get("best_score")
        answered = sum(1 for q in course.quiz if q.id in quiz.get("answers", {}))
        passed = sum(exercise_status(data, e.id) == "passed" for e in course.exercises)
        done = sum(lesson_status(data, l.id) == "done" for l in course.lessons)
        head = Text(self.say("summary", ld=done, ln=len(course.lessons), ep=passed, en=len(course.exercises),
                             qb=f"{best}/{len(course.quiz)}" if best is not None else "-") + "\n", style="bold")
        head.append(self.say("quiz_score", best="-" if best is None else best, n=len(course.quiz),
                             attempts=quiz.get("attempts", 0), answered=answered))
        made = [v for v in data.get("predictions", {}).values() if v.get("answer")]
        if made:
            head.append("\n" + self.say("predictions_score", right=sum(v.get("correct") is True for v in made),
                                         n=len(made)))
        self.query_one("#progress-quiz", Static).update(head)
        warnings = self.query_one("#progress-warnings", Static)
        warnings.update(Text("\n".join(pick(w, self.lang) for w in self.session.store.warnings), style=m.style("error")))
        warnings.display = bool(self.session.store.warnings)

    def action_reset_progress(self) -> None:
        def reset(ok: bool) -> None:
            if not ok:
                return
            try:
                backup = self.session.store.reset()
            except ProgressError as exc:
                self.notify(self.say("progress_error", why=pick(exc.message, self.lang)), severity="error")
                return
            self.notify(self.say("progress_reset", path=str(backup or "-")), timeout=6)
            self.render_texts()

        self.app.push_screen(ConfirmScreen("reset_progress_confirm"), reset)

    def action_back(self) -> None:
        self.app.pop_screen()
