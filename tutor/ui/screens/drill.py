"""Spot the bug: a lesson's drills, one at a time. The learner points at the line that holds the
mistake (arrows and Enter, or its number typed), then picks the belief behind it; the first try
is scored and feeds the same belief tracking as the checkpoints. Then the tutor runs the program
in a worker, as any learner code, and shows what the failing check says. Today's review asks
drills here too: each drill answered wrong comes back as another (tutor.progress.review)."""

from __future__ import annotations

import random

from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from tutor.i18n import pick
from tutor.progress import changes
from tutor.progress.asking import belief_choices
from tutor.progress.reports import drill_scores, score_text
from tutor.sandbox.events import Verdict
from tutor.ui.runs import RunView
from tutor.ui.screens.base import TutorScreen, footer

BLANK = "\u00a0"  # no mark: a space that is not trimmed away, so the letters stay in one column


def _hanging(mark: str, letter: str, text: str) -> Table:
    """A belief as an option: its mark and letter, then its words, wrapped lines under the words
    (not under the letter, where at 80 columns they read as a line of their own)."""
    grid = Table.grid(padding=(0, 1, 0, 0), expand=True)
    grid.add_column(no_wrap=True, width=1)
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(mark, letter, text)
    return grid


class DrillScreen(RunView, TutorScreen):
    BINDINGS = [
        Binding("enter", "pick", "Pick", show=False),
        Binding("n", "next_drill", "Next"),
        Binding("escape", "back", "Back"),
    ]

    def runs_code(self) -> bool:
        return True

    def __init__(self, lesson_id: str | None, rng: random.Random | None = None, review: tuple = ()):
        super().__init__()
        self.lesson_id = lesson_id
        # today's review (tutor.progress.review.DrillReview): the drills asked, each for one answered wrong
        self.review = review
        self.rng = rng or random.Random()
        self.drills: list = []
        self.index = 0
        self.stage = "line"  # line -> belief -> done
        self.typed = ""  # a line number being typed
        self.line: int | None = None
        self.belief: str | None = None
        self.choices: list = []
        self.verdict: Verdict | None = None

    @property
    def drill(self):
        return self.drills[self.index] if self.index < len(self.drills) else None

    def compose(self):
        if self.review:
            self.drills = [r.drill for r in self.review]
        else:
            self.drills = list(self.session.course.drills_of(self.lesson_id or ""))
        yield Header()
        with VerticalScroll(id="drill-body"):
            yield Static(id="drill-intro")
            yield OptionList(id="drill-code")
            yield Static(id="drill-ask")
            yield OptionList(id="drill-beliefs")
            yield Static(id="drill-result")
        yield footer()

    def on_mount(self) -> None:
        self._show_drill()
        # The run's words arrive after the answer and make the page taller; its new size is known
        # only once laid out, a refresh or two later, so the result is shown again then.
        self.watch(self.query_one("#drill-body"), "virtual_size", self._page_grew, init=False)

    def _page_grew(self) -> None:
        if self.stage == "done":
            self._show_result()

    def check_action(self, action: str, parameters) -> bool | None:
        if action == "next_drill":
            return self.stage == "done" and self.index + 1 < len(self.drills)
        return True

    # ---- showing ----------------------------------------------------------------------------

    def _show_drill(self) -> None:
        self.stage, self.typed, self.line, self.belief, self.verdict = "line", "", None, None, None
        drill = self.drill
        code = self.query_one("#drill-code", OptionList)
        beliefs = self.query_one("#drill-beliefs", OptionList)
        beliefs.clear_options()
        beliefs.display = False
        if drill is None:
            code.display = False
            return
        lines = drill.code.splitlines()
        width = len(str(len(lines)))
        code.set_options(
            [
                Option(Text(f"{i:>{width}} ", style="dim") + Text(line or " "), id=str(i))
                for i, line in enumerate(lines, 1)
            ]
        )
        code.display = True
        code.highlighted = 0
        code.focus()
        self.choices = belief_choices(self.session.loaded, drill, self.rng)
        self.render_texts()

    def render_texts(self) -> None:
        drill = self.drill
        title = self.say("drill_review_title") if self.review else self.say("drill_title", lesson=self.lesson_id)
        if drill is None:
            self.set_title(title)
            self.query_one("#drill-intro", Static).update(self.say("drill_none"))
            return
        self.set_title(title, self.say("drill_of", i=self.index + 1, n=len(self.drills)))
        exercise = self.session.loaded.exercise(drill.exercise)
        what = exercise.title.get(self.lang) if exercise else drill.exercise
        self.query_one("#drill-intro", Static).update(Text(self.say("drill_intro", exercise=what)))
        self._render_ask()
        self._render_beliefs()
        self._render_result()

    def _render_ask(self) -> None:
        ask = self.query_one("#drill-ask", Static)
        if self.stage == "line":
            typed = f"  {self.say('drill_typed', n=self.typed)}" if self.typed else ""
            ask.update(Text(self.say("drill_ask_line") + typed, style="bold"))
            return
        m, drill = self.marks, self.drill
        right = self.line == drill.line
        said = (
            f"{m['right']} " + self.say("drill_line_right", n=drill.line)
            if right
            else f"{m['wrong']} " + self.say("drill_line_wrong", picked=self.line, n=drill.line)
        )
        text = Text()
        text.append(said, style=m.style("right" if right else "wrong"))
        if self.stage == "belief":
            text.append("\n" + self.say("drill_ask_belief"), style="bold")
        ask.update(text)

    def _render_beliefs(self) -> None:
        beliefs = self.query_one("#drill-beliefs", OptionList)
        if self.stage == "line":
            return
        m = self.marks
        options = []
        for i, belief in enumerate(self.choices):
            mark = BLANK
            if self.stage == "done":
                mark = (
                    m["right"]
                    if belief.id == self.drill.belief
                    else (m["wrong"] if belief.id == self.belief else BLANK)
                )
            options.append(Option(_hanging(mark, f"{'ABCD'[i]}.", belief.text.get(self.lang)), id=belief.id))
        keep = beliefs.highlighted
        beliefs.set_options(options)
        beliefs.highlighted = keep if keep is not None else 0
        beliefs.display = True

    def _render_result(self) -> None:
        result = self.query_one("#drill-result", Static)
        if self.stage != "done":
            result.update("")
            return
        m, drill = self.marks, self.drill
        right = self.belief == drill.belief
        belief = self.session.loaded.misconception(drill.belief)
        lines = Text()
        if right:
            lines.append(f"{m['right']} {self.say('drill_belief_right')}\n", style=m.style("right"))
        else:
            lines.append(f"{m['wrong']} {self.say('drill_belief_wrong')}\n", style=m.style("wrong"))
        if belief is not None:
            lines.append(self.say("drill_review", lesson=belief.lesson) + "\n")
        lines.append("\n")
        lines.append_text(self._verdict_text())
        if self.index + 1 < len(self.drills):
            lines.append("\n" + self.say("drill_next_keys"))
        elif self.review:
            lines.append("\n\n" + self._review_end(), style="bold")
            lines.append("\n" + self.say("drill_end_keys"))
        else:
            first, now, n, tried = drill_scores(self.session.progress, self.lesson_id or "")
            score = score_text(first, now, n, tried, self.lang)
            lines.append("\n\n" + self.say("drill_score", score=score), style="bold")
            lines.append("\n" + self.say("drill_end_keys"))
        result.update(lines)

    def _review_end(self) -> str:
        """Today's drills: how many came back right, and when the next review is."""
        from tutor.progress.review import next_due

        progress = self.session.progress
        right = sum(1 for d in self.drills if progress.drill(d.id).correct)
        said = self.say("review_done", score=right, n=len(self.drills))
        later = next_due(progress, progress.clock())
        return said + ("\n" + self.say("review_next", day=later) if later else "")

    def _verdict_text(self) -> Text:
        """What the failing check says, once the run is in."""
        if self.verdict is None:
            return Text(self.say("drill_running"), style="italic")
        failed = [c for c in self.verdict.checks if c.status == "fail"]
        if not failed:
            why = pick(self.verdict.message, self.lang) or self.verdict.status
            return Text(self.say("drill_run_said", why=why))
        check = failed[0]
        name = pick(check.name, self.lang) if check.name else check.id
        text = Text(self.say("drill_check_failed", name=name) + "\n", style="bold")
        text.append(pick(check.message, self.lang) if check.message else "")
        return text

    # ---- keys -------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """Digits type the number of a line; Backspace takes one back."""
        if self.stage != "line" or self.drill is None:
            return
        char = event.character or ""
        if char.isdigit() and len(self.typed) < 2:
            self.typed += char
        elif event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
        else:
            return
        event.stop()
        event.prevent_default()
        number = int(self.typed) if self.typed else 0
        code = self.query_one("#drill-code", OptionList)
        if 1 <= number <= code.option_count:
            code.highlighted = number - 1
        self._render_ask()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The beliefs in view while one is chosen: each list is as tall as its options, so its own
        scrolling never moves, and at 80x24 a fourth belief sat below the page's fold, where Down
        chose it unseen. The page shows the list whole (it fits: four beliefs take about 8 rows)."""
        if event.option_list.id == "drill-beliefs" and self.stage == "belief":
            event.option_list.scroll_visible(animate=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "drill-code" and self.stage == "line":
            number = int(self.typed) if self.typed else int(event.option.id or "0")
            self._pick_line(number)
        elif event.option_list.id == "drill-beliefs" and self.stage == "belief":
            self._pick_belief(event.option.id or "")

    def action_pick(self) -> None:
        """Enter: the line highlighted (or typed), then the belief highlighted."""
        if self.stage == "line":
            code = self.query_one("#drill-code", OptionList)
            number = int(self.typed) if self.typed else (code.highlighted or 0) + 1
            self._pick_line(number)
        elif self.stage == "belief":
            beliefs = self.query_one("#drill-beliefs", OptionList)
            if beliefs.highlighted is not None:
                self._pick_belief(self.choices[beliefs.highlighted].id)

    def _pick_line(self, number: int) -> None:
        code = self.query_one("#drill-code", OptionList)
        if not 1 <= number <= code.option_count:
            self.typed = ""
            self._render_ask()
            return
        self.line, self.typed, self.stage = number, "", "belief"
        code.highlighted = self.drill.line - 1  # the line that holds the mistake, shown
        self.render_texts()
        beliefs = self.query_one("#drill-beliefs", OptionList)
        beliefs.focus()
        beliefs.scroll_visible(animate=False)  # every belief on screen as the question is asked

    def _pick_belief(self, belief_id: str) -> None:
        drill = self.drill
        self.belief, self.stage = belief_id, "done"
        correct = self.line == drill.line and belief_id == drill.belief
        reviewing = self.review[self.index].item if self.review else None
        today = self.session.progress.clock()
        self.record(changes.drill, drill.id, self.line, belief_id, correct, today, reviewing)
        session = self.session
        exercise = session.loaded.exercise(drill.exercise)
        if exercise is not None:
            self.start_run(lambda: session.sandbox.run_exercise(exercise, drill.code, "drill.py"))
        self.render_texts()
        self.refresh_bindings()
        # The answer is given: the keys scroll the page now (in the beliefs' list, PgDn and End
        # stayed in the list, and a long drill's result below the fold could not be reached).
        self.query_one("#drill-body", VerticalScroll).focus()
        self._show_result()

    def _show_result(self) -> None:
        """The result from its top, once laid out (the check's words arrive after the answer)."""
        body = self.query_one("#drill-body", VerticalScroll)
        result = self.query_one("#drill-result")
        self.call_after_refresh(lambda: body.scroll_to_widget(result, animate=False, top=True))

    def run_finished(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self._render_result()

    def action_next_drill(self) -> None:
        if self.stage == "done" and self.index + 1 < len(self.drills):
            self.forget_run()
            self.index += 1
            self._show_drill()
            self.query_one("#drill-body", VerticalScroll).scroll_home(animate=False)
            self.refresh_bindings()

    def action_back(self) -> None:
        self.app.pop_screen()
