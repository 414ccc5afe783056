"""The quiz, whole or as one lesson's checkpoint: one question at a time, immediate feedback, a
score, and a retry of the wrong ones.

A question the learner has answered before shows its options in a new random order, so that a
retry tests the idea, not the memory of a letter. Progress always records the authored letter.
"""

from __future__ import annotations

import random

from rich.text import Text
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Header, Markdown, Static

from tutor.i18n import pick
from tutor.progress import changes
from tutor.progress.path import Step
from tutor.ui.screens.base import TutorScreen, footer
from tutor.ui.texts import KEY_LABELS
from tutor.ui.widgets.cell_view import CellView
from tutor.ui.widgets.markup import inline, set_markdown

LETTERS = ("A", "B", "C", "D")
SUMMARY_CHARS = 90  # of a question's first paragraph, in the list of questions to review


def latest_score(questions, answers: dict) -> int:
    """Questions whose most recent answer is right: a retry round adds to the earlier ones."""
    return sum(1 for q in questions if answers.get(q.id) == q.answer)


def option_order(question, answered_before: bool, rng: random.Random) -> tuple[str, ...]:
    """The authored letters in the order they are shown: as written the first time, shuffled
    (and never left as written) once the learner has seen the answer."""
    if not answered_before:
        return LETTERS
    order = list(LETTERS)
    while tuple(order) == LETTERS:
        rng.shuffle(order)
    return tuple(order)


class QuizScreen(TutorScreen):
    BINDINGS = [
        *(Binding(k, f"choose('{LETTERS[i % 4]}')", show=False) for i, k in enumerate("1234abcd")),
        Binding("enter", "answer", "Answer"),
        Binding("e", "evidence", "Evidence"),
        Binding("r", "retry", "Retry"),
        Binding("c", "go_on", "Continue"),  # only once finished: before that, c chooses option C
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, questions=None, checkpoint: str | None = None, rng: random.Random | None = None):
        super().__init__()
        self.questions = list(questions) if questions is not None else None
        self.checkpoint = checkpoint  # the lesson id when this is a lesson's checkpoint
        self.rng = rng or random.Random()
        self.orders: dict[str, tuple[str, ...]] = {}  # question id -> authored letters in shown order
        self.index = 0
        self.chosen: str | None = None  # the authored letter of the chosen option
        self.answered = False
        self.finished = False
        self.score: int | None = None

    @property
    def question(self):
        return self.questions[self.index] if self.questions and self.index < len(self.questions) else None

    @property
    def here(self) -> Step:
        return Step("checkpoint", self.checkpoint) if self.checkpoint else Step("quiz")

    def shown(self, letter: str) -> str:
        """The letter an authored option is shown under in this attempt."""
        return LETTERS[self.orders[self.question.id].index(letter)]

    def compose(self):
        if self.questions is None:
            self.questions = list(self.session.course.quiz)
        answers = self.session.progress.quiz_answers()
        self.orders = {q.id: option_order(q, q.id in answers, self.rng) for q in self.questions}
        yield Header()
        with VerticalScroll(id="quiz-body"):
            yield Markdown(id="q-prompt")
            yield Static(id="q-options")
            yield Static(id="q-help")
            yield Markdown(id="q-feedback")
            yield Vertical(id="q-evidence")
        yield footer()

    def on_mount(self) -> None:
        self.query_one("#quiz-body").focus()

    def key_labels(self) -> dict[str, str]:
        return {"answer": pick(KEY_LABELS["next_question"], self.lang)} if self.answered else {}

    def check_action(self, action: str, parameters) -> bool | None:
        q = self.question
        if action == "evidence":
            return self.answered and q is not None and q.evidence is not None
        if action == "retry":
            return self.finished and bool(self._wrong())
        if action == "go_on":
            return self.finished
        if action in ("answer", "choose"):
            return not self.finished
        return True

    # ---- rendering -------------------------------------------------------------------------

    def _all(self):
        """Every question this quiz is about: the lesson's for a checkpoint, else the whole quiz."""
        course = self.session.course
        return [q for q in course.quiz if q.lesson == self.checkpoint] if self.checkpoint else list(course.quiz)

    def _wrong(self):
        answers = self.session.progress.quiz_answers()
        return [q for q in self._all() if answers.get(q.id) != q.answer]

    def render_texts(self) -> None:
        title = self.say("step_checkpoint", id=self.checkpoint) if self.checkpoint else self.say("quiz")
        if self.finished or not self.questions:
            self.set_title(title)
            self._render_end()
            return
        q = self.question
        counter = self.say("question_of", i=self.index + 1, n=len(self.questions))
        self.set_title(title, counter)
        set_markdown(self.query_one("#q-prompt", Markdown), f"**{counter}**\n\n" + q.prompt.get(self.lang))
        self._render_options()
        help_key = "quiz_choose" if not self.answered else ("quiz_next" if q.evidence else "quiz_next_plain")
        self.query_one("#q-help", Static).update(self.say(help_key))
        set_markdown(self.query_one("#q-feedback", Markdown), self._feedback() if self.answered else "")
        for cell in self.query(CellView):
            cell.render_texts()

    def _render_options(self) -> None:
        """One line per option; the choice and, once answered, right and wrong are marked by glyph."""
        q, m = self.question, self.marks
        lines = Text()
        for shown, letter in zip(LETTERS, self.orders[q.id]):
            if self.answered and letter == q.answer:
                mark, style = m["right"], m.style("right")
            elif self.answered and letter == self.chosen:
                mark, style = m["wrong"], m.style("wrong")
            elif letter == self.chosen:
                mark, style = m["chosen"], "bold"
            else:
                mark, style = " ", ""
            lines.append(f"{mark} ", style=style)
            lines.append(f"{shown}. ", style="bold")
            lines.append(
                inline(q.options[letter].get(self.lang).strip(), style="bold" if letter == self.chosen else "")
            )
            lines.append("\n")
        self.query_one("#q-options", Static).update(lines)

    def _feedback(self) -> str:
        q, lang, m = self.question, self.lang, self.marks
        right = self.chosen == q.answer
        parts = [
            f"**{m['right']} {self.say('quiz_right')}**"
            if right
            else f"**{m['wrong']} {self.say('quiz_wrong', answer=self.shown(q.answer))}**"
        ]
        parts.append(
            f"**{self.say('quiz_your', letter=self.shown(self.chosen))}** {q.explanations[self.chosen].get(lang)}"
        )
        if not right:
            parts.append(
                f"**{self.say('quiz_answer', letter=self.shown(q.answer))}** {q.explanations[q.answer].get(lang)}"
            )
        return "\n\n".join(parts)

    def _render_end(self) -> None:
        everything = self._all()
        if not everything:
            set_markdown(self.query_one("#q-prompt", Markdown), self.say("quiz_empty"))
            return
        wrong = self._wrong()
        score = len(everything) - len(wrong) if self.score is None else self.score
        head = (
            self.say("checkpoint_done", id=self.checkpoint, score=score, n=len(everything))
            if self.checkpoint
            else self.say("quiz_done", score=score, n=len(everything))
        )
        lines = [f"## {head}", ""]
        if wrong:
            # Which questions to look at again, but not their letters: a retry reshuffles them.
            lines.append(f"**{self.say('quiz_review')}**")
            lines.append("")
            for q in wrong:
                first = " ".join(q.prompt.get(self.lang).strip().split("\n\n")[0].split())
                first = first if len(first) <= SUMMARY_CHARS else first[: SUMMARY_CHARS - 1] + "…"
                lines.append(f"- {self.marks['wrong']} **{q.id}** {first}")
        else:
            lines.append(self.say("quiz_all_right"))
        if self.checkpoint:
            lines += ["", self.say("checkpoint_note")]
        nxt = self.app.step_after(self.here)
        lines += [
            "",
            f"**{self.say('next_is', what=self.app.step_title(nxt))}**"
            if nxt.kind != "progress"
            else f"**{self.say('path_done')}**",
        ]
        set_markdown(self.query_one("#q-prompt", Markdown), "\n".join(lines))
        self.query_one("#q-options", Static).update("")
        self.query_one("#q-help", Static).update(self.say("quiz_retry_hint" if wrong else "quiz_end_next"))
        set_markdown(self.query_one("#q-feedback", Markdown), "")

    # ---- actions ---------------------------------------------------------------------------

    def action_choose(self, shown: str) -> None:
        if self.answered or self.finished or self.question is None:
            return
        self.chosen = self.orders[self.question.id][LETTERS.index(shown)]
        self._render_options()

    def action_answer(self) -> None:
        q = self.question
        if self.finished or q is None:
            return
        if not self.answered:
            if self.chosen is None:
                self.query_one("#q-help", Static).update(Text(self.say("quiz_choose"), style="bold"))
                return
            self.answered = True
            self.record(changes.quiz_answer, q.id, self.chosen)
            self.apply_lang()  # feedback, and "Answer" becomes "Next" in the footer
            return
        self._next_question()

    def _next_question(self) -> None:
        self.query_one("#q-evidence").remove_children()
        self.index += 1
        self.chosen, self.answered = None, False
        if self.index >= len(self.questions):
            self._finish()
        self.apply_lang()
        self.query_one("#quiz-body", VerticalScroll).scroll_home(animate=False)

    def _finish(self) -> None:
        self.finished = True
        if self.checkpoint:
            return  # answers are recorded one by one; only the full quiz has a score
        quiz = self.session.course.quiz
        self.score = latest_score(quiz, self.session.progress.quiz_answers())
        self.record(changes.quiz_result, self.score)

    def action_evidence(self) -> None:
        q = self.question
        if not self.answered or q is None or q.evidence is None:
            return
        box = self.query_one("#q-evidence")
        cells = list(box.query(CellView))
        if cells:
            cells[0].action_run_cell()
            return
        cell = CellView(q.evidence)
        box.mount(cell)
        self.call_after_refresh(cell.action_run_cell)

    def action_retry(self) -> None:
        wrong = self._wrong()
        if not self.finished or not wrong:
            return
        self.app.switch_screen(QuizScreen(wrong, checkpoint=self.checkpoint, rng=self.rng))

    def action_go_on(self) -> None:
        if self.finished:
            self.app.go_on_from(self.here)

    def action_back(self) -> None:
        self.app.pop_screen()
