"""The home screen: the course as one path (each lesson with its checkpoint and exercises, then
the quiz) with progress marks, and "continue"."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from tutor.i18n import pick
from tutor.progress.path import Step, course_path
from tutor.progress.reports import checkpoint_scores, drill_scores, score_text
from tutor.ui.screens.base import TutorScreen, footer

BAR_WIDTH = 20
DRILLS_ROW = "drills:"  # a lesson's spot-the-bug row (not a step of the path)


class OutlineScreen(TutorScreen):
    BINDINGS = [
        Binding("c", "continue", "Continue"),
        Binding("p", "progress", "Progress"),
        Binding("z", "quiz", "Quiz"),
        Binding("v", "review", "Review", show=False),  # its line says [v]: the bar is full at 80 columns
        Binding("b", "drills", "Spot bug", show=False),  # its rows say so: the bar is full at 80 columns
        Binding("d", "doctor", "Doctor"),
        Binding("ctrl+q", "app.quit", "Quit", priority=True),  # priority: shown here, not hidden by the app's
    ]

    _warned = 0  # store warnings already shown

    def compose(self):
        yield Header()
        yield Static(id="summary")
        yield Static(id="continue")
        yield Static(id="review")
        yield OptionList(id="outline")
        yield footer(palette=True)

    def on_screen_resume(self) -> None:
        self.render_texts()  # marks change while the learner is away in a lesson or exercise
        if self.session.course is not None:  # another tutor or `check` may have saved meanwhile
            self.run_worker(self._look_for_outside_changes, thread=True, group="progress-poll", exit_on_error=False)

    def _look_for_outside_changes(self) -> None:
        """In a thread: re-read progress.json if it changed, then redraw."""
        if self.session.state.refresh_if_changed():
            self.app.call_from_thread(self.render_texts)

    def render_texts(self) -> None:
        self.set_title(self.app.course_title(), self.say("outline"))
        course = self.session.course
        options = self.query_one("#outline", OptionList)
        if course is None:
            self.query_one("#summary", Static).update(self.say("loading"))
            self.query_one("#continue", Static).update("")
            options.clear_options()
            return
        progress = self.session.progress
        for warning in progress.warnings[self._warned :]:  # a damaged progress file, say
            self.notify(pick(warning, self.lang), severity="warning", timeout=10, markup=False)
        self._warned = len(progress.warnings)
        self._render_summary(course, progress)
        self._render_options(course, progress, options)

    def _render_summary(self, course, progress) -> None:
        summary = progress.summary()
        total, done = summary.steps, summary.steps_done
        filled = round(BAR_WIDTH * done / total) if total else 0
        full, empty = ("#", ".") if self.marks.ascii else ("█", "░")
        line = Text()
        line.append(full * filled, style=self.marks.style("bar"))
        line.append(empty * (BAR_WIDTH - filled), style="dim")
        said = self.say(
            "summary" if course.quiz else "summary_no_quiz",
            ld=summary.lessons_done,
            ln=summary.lessons,
            ep=summary.exercises_passed,
            en=summary.exercises,
            qb=score_text(
                summary.quiz_first, summary.quiz_now, summary.quiz_questions, summary.quiz_answered, self.lang
            ),
        )
        pct = f" {round(100 * done / total) if total else 0:>3}%  "
        line.append(pct + said)
        self.query_one("#summary", Static).update(line)
        step = self.app.continue_step()
        go_on = (
            self.say("continue_to", what=self.app.step_title(step)) + "  [c]"
            if step.kind != "progress"
            else self.say("all_done")
        )
        self.query_one("#continue", Static).update(Text(go_on, style="bold"))
        due = progress.reviews_due_count()
        review = self.query_one("#review", Static)
        review.update(Text(self.say("review_today", n=due), style="bold") if due else "")
        review.display = bool(due)  # no empty line at 80x24 when nothing is due
        self.query_one("#continue", Static).set_class(bool(due), "with-review")
        self.refresh_bindings()

    def _label(self, course, step: Step, progress) -> Text:
        """One row: lessons and the quiz at the margin, a lesson's checkpoint and exercises under it."""
        lang, mark = self.lang, self.marks[progress.step_status(step)]
        if step.kind == "lesson":
            row = Text(f"{mark} {step.id:<5} {course.lesson(step.id).title.get(lang)}")
        elif step.kind == "exercise":
            ex = course.exercise(step.id)
            row = Text(f"    {mark} {ex.title.get(lang)}  ")
            row.append(f"({ex.id})", style="dim")
        elif step.kind == "checkpoint":
            first, now, n, answered = checkpoint_scores(progress, step.id)
            score = score_text(first, now, n, answered, lang)
            row = Text(f"    {mark} " + self.say("checkpoint_item", n=n, score=score))
        else:
            s = progress.summary()
            score = score_text(s.quiz_first, s.quiz_now, s.quiz_questions, s.quiz_answered, lang)
            row = Text(f"{mark} " + self.say("quiz_item", n=len(course.quiz), answered=s.quiz_answered, score=score))
        row.no_wrap, row.overflow = True, "ellipsis"
        return row

    def _drill_label(self, lesson_id: str, progress) -> Text:
        """A lesson's spot-the-bug row, under its checkpoint and exercises."""
        first, now, n, tried = drill_scores(progress, lesson_id)
        mark = self.marks["done" if n and now == n else ("started" if tried else "new")]
        score = score_text(first, now, n, tried, self.lang)
        row = Text(f"    {mark} " + self.say("drill_item", n=n, score=score) + "  ")
        row.append("[b]", style="dim")
        row.no_wrap, row.overflow = True, "ellipsis"
        return row

    def _render_options(self, course, progress, options: OptionList) -> None:
        items = []
        path = course_path(course)
        for i, step in enumerate(path):
            items.append(Option(self._label(course, step, progress), id=step.key))
            later = path[i + 1] if i + 1 < len(path) else None
            lesson = step.id if step.kind != "exercise" else course.exercise(step.id).lesson
            if (
                step.kind != "quiz" and course.drills_of(lesson) and (later is None or later.kind in ("lesson", "quiz"))
            ):  # the last row of a lesson's part: its drills come after its exercises
                items.append(Option(self._drill_label(lesson, progress), id=f"{DRILLS_ROW}{lesson}"))
        if not course.lessons and not course.exercises:
            items.insert(0, Option(self.say("empty_course"), disabled=True))
        keep = options.highlighted_option.id if options.highlighted_option is not None else None
        options.set_options(items)
        ids = [o.id for o in items]
        if keep is not None and keep in ids:
            options.highlighted = ids.index(keep)
        else:
            options.highlighted = next((i for i, o in enumerate(items) if not o.disabled), None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        row = event.option.id or ""
        if row.startswith(DRILLS_ROW):
            from tutor.ui.screens.drill import DrillScreen

            self.app.push_screen(DrillScreen(row[len(DRILLS_ROW) :]))
            return
        step = Step.parse(event.option.id)
        if step is not None:
            self.app.open_step(step)

    def action_continue(self) -> None:
        self.app.open_step(Step("continue"))  # resolved when opened: the course may still be loading

    def action_progress(self) -> None:
        self.app.open_step(Step("progress"))

    def check_action(self, action: str, parameters) -> bool | None:
        """The quiz and the doctor are offered only by a course that has them."""
        course = self.session.course
        if action == "quiz":
            return course is None or bool(course.quiz)
        if action == "doctor":
            return course is None or course.has_doctor
        if action == "review":
            return course is not None and bool(self.session.progress.reviews_due_count())
        if action == "drills":
            return course is None or bool(course.drills)
        return True

    def action_review(self) -> None:
        """Today's review: each question due, in a form not seen before, then each drill due, as
        another drill (tutor.progress.review). The drills wait under the questions."""
        from tutor.ui.screens.drill import DrillScreen
        from tutor.ui.screens.quiz import QuizScreen

        if self.session.course is None:
            return
        progress = self.session.progress
        due, drills = progress.reviews_due(), progress.drill_reviews_due()
        if drills:
            self.app.push_screen(DrillScreen(None, review=tuple(drills)))
        if due:
            self.app.push_screen(QuizScreen(due, review=tuple(q.id for q in due)))

    def action_drills(self) -> None:
        """Spot the bug for the lesson of the highlighted row (a lesson, its checkpoint or exercise)."""
        from tutor.ui.screens.drill import DrillScreen

        lesson = self._highlighted_lesson()
        if lesson is not None:
            self.app.push_screen(DrillScreen(lesson))

    def _highlighted_lesson(self) -> str | None:
        """The lesson of the highlighted row that has drills (else the first such lesson)."""
        course = self.session.course
        if course is None or not course.drills:
            return None
        options = self.query_one("#outline", OptionList)
        row = options.highlighted_option
        if row is not None and row.id and row.id.startswith(DRILLS_ROW):
            return row.id[len(DRILLS_ROW) :]
        step = Step.parse(row.id) if row is not None else None
        lesson = None
        if step is not None and step.kind in ("lesson", "checkpoint"):
            lesson = step.id
        elif step is not None and step.kind == "exercise" and (exercise := course.exercise(step.id)):
            lesson = exercise.lesson
        if lesson is not None and course.drills_of(lesson):
            return lesson
        return course.drills[0].lesson

    def action_quiz(self) -> None:
        self.app.open_step(Step("quiz"))

    def action_doctor(self) -> None:
        from tutor.ui.screens.doctor import DoctorScreen, text

        if self.session.course is not None and not self.session.course.has_doctor:
            return
        if self.session.shared_seat:
            # A seat of `serve --learner`: every seat's tutor is the server's user, and the doctor runs
            # a script unfenced. Off, and said why, rather than a fence that would not hold. (A plain
            # `serve` or Jupyter's is one person's tutor on their own account: the doctor stays.)
            self.notify(text("off_served", self.lang), severity="warning", timeout=15, markup=False)
            return
        self.app.push_screen(DoctorScreen())
