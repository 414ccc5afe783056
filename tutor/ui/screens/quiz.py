"""The quiz, or one lesson's checkpoint: one question at a time, immediate feedback, a score
that keeps the first try apart, and a retry of the wrong ones.

A lettered question answered before shows its options in a new random order, so that a retry
tests the idea, not the memory of a letter; progress records the authored letter. A template
question asks for a number: each try draws a variant the learner has not seen, and its answer
is what a worker prints when it runs that variant (started as the question is shown, so it is
ready by the time the learner has thought it through).
"""

from __future__ import annotations

import random
import re

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Header, Markdown, Static

from tutor.course.model import Question
from tutor.course.predict import OPTION_LETTERS, number_text, parse_number, same_number
from tutor.i18n import pick
from tutor.progress import changes
from tutor.progress.asking import answered_right, draw_variant, option_order
from tutor.progress.path import Step
from tutor.progress.reports import checkpoint_scores, score_text
from tutor.sandbox.events import Verdict
from tutor.ui.runs import RunView
from tutor.ui.screens.base import TutorScreen, footer
from tutor.ui.texts import KEY_LABELS, bold_label, spaced
from tutor.ui.widgets.cell_view import CellView
from tutor.ui.widgets.markup import hanging, inline, set_markdown

LETTERS = OPTION_LETTERS  # as authored; a retry shows them in another order
SUMMARY_CHARS = 160  # of a question's first paragraph, in the list of questions to review
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)


def review_parts(prompt: str) -> tuple[str, str]:
    """A question as the review lists it: its first paragraph of prose, shortened, and its code."""
    code = "\n\n".join(m.group(0) for m in FENCE.finditer(prompt))
    paragraphs = [" ".join(p.split()) for p in FENCE.sub("", prompt).split("\n\n") if p.strip()]
    prose = paragraphs[0] if paragraphs else ""
    if len(prose) > SUMMARY_CHARS:
        prose = prose[:SUMMARY_CHARS].rsplit(" ", 1)[0]  # at a word's end
        if prose.count("`") % 2:  # never inside `code`: an open backtick would swallow the rest
            prose = prose[: prose.rindex("`")].rstrip()
        prose += " …"
    return prose, code


MAX_TYPED = 12


class QuizScreen(RunView, TutorScreen):
    BINDINGS = [
        *(Binding(k, f"choose('{LETTERS[i % 4]}')", show=False) for i, k in enumerate("1234abcd")),
        Binding("enter", "answer", "Answer"),
        Binding("e", "evidence", "Evidence"),
        Binding("r", "retry", "Retry"),
        Binding("c", "go_on", "Continue"),  # only once finished: before that, c chooses option C
        Binding("o", "review_off", "Review off"),  # only at the end of today's review
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self,
        questions=None,
        checkpoint: str | None = None,
        rng: random.Random | None = None,
        review: tuple[str, ...] | None = None,
    ):
        super().__init__()
        # Today's review (tutor.progress.review): the ids of the questions due, whatever part of the
        # course they come from; None for the quiz or a checkpoint.
        self.review = review
        # The questions asked: the whole quiz's are read in compose(), where the session is at hand.
        self.questions: list[Question] = list(questions) if questions is not None else []
        self._whole_quiz = questions is None
        self.checkpoint = checkpoint  # the lesson id when this is a lesson's checkpoint
        self.rng = rng or random.Random()
        self.orders: dict[str, tuple[str, ...]] = {}  # question id -> authored letters in shown order
        self.index = 0
        self.chosen: str | None = None  # the authored letter of the chosen option
        self.typed = ""  # a number being typed, for a template question
        self.given: str | None = None  # the number given
        self.answered = False
        self.finished = False
        self.score: int | None = None
        # The current template question: its variant and the run that answers it.
        self.variant = 0
        self.verdict: Verdict | None = None
        self.computed: str | None = None  # the number the run printed
        self.graded: bool | None = None  # right or wrong, once both the answer and the run are in

    @property
    def question(self):
        """The current question as asked: for a lettered question, the sibling drawn for it."""
        if not self.questions or self.index >= len(self.questions):
            return None
        return self.questions[self.index].asked(self.variant)

    @property
    def here(self) -> Step:
        return Step("checkpoint", self.checkpoint) if self.checkpoint else Step("quiz")

    def shown(self, letter: str) -> str:
        """The letter an authored option is shown under in this attempt."""
        return LETTERS[self.orders[self.question.id].index(letter)]

    def compose(self):
        if self._whole_quiz:
            self.questions = list(self.session.course.quiz)
        progress = self.session.progress
        self.orders = {q.id: option_order(q, progress.question(q.id).answered, self.rng) for q in self.questions}
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
        self._ask()

    def key_labels(self) -> dict[str, str]:
        return {"answer": pick(KEY_LABELS["next_question"], self.lang)} if self.answered else {}

    def check_action(self, action: str, parameters) -> bool | None:
        q = self.question
        if action == "evidence":
            return self.answered and q is not None and (q.evidence is not None or q.numeric)
        if action == "retry":
            return self.finished and bool(self._wrong()) and self.review is None  # a wrong review comes back tomorrow
        if action == "go_on":
            return self.finished
        if action == "review_off":
            return self.finished and self.review is not None
        if action == "choose":
            return not self.finished and q is not None and not q.numeric
        if action == "answer":
            return not self.finished
        return True

    # ---- asking a template question -----------------------------------------------------------

    def _ask(self) -> None:
        """Draw the form the current question is asked in (a retry asks one not seen, never the
        one just answered); for a template, start the run that answers it."""
        self.variant = 0
        q = self.question
        self.forget_run()  # the run for a question left, if it is still going
        self.verdict = self.computed = self.graded = None
        if q is None:
            return
        if q.variants() > 1:
            self.variant = draw_variant(q, self.session.progress, self.rng)
            self.record(changes.question_drawn, q.id, self.variant)
        if not q.numeric:
            return
        session = self.session
        cell = q.template.cell(q.id, self.variant)
        self.start_run(lambda: session.sandbox.run_cell(cell))

    def run_finished(self, verdict: Verdict) -> None:
        self.verdict = verdict
        q = self.question
        self.computed = q.template.shown(verdict.stdout) if verdict.status == "pass" else None
        if self.answered:
            self._grade()
        self.render_texts()
        if self.answered:
            self._show_feedback()

    def _grade(self) -> None:
        """Both the learner's number and the run's are in: judge and record it once."""
        q = self.question
        if self.graded is not None or self.given is None or self.computed is None:
            return
        self.graded = same_number(self.given, self.computed)
        self.record(changes.answer, q.id, self.given, self.graded, self._in_quiz(q), self.session.state.clock())

    def on_key(self, event: events.Key) -> None:
        """A template question takes a typed number: digits, '.', '-', Backspace; Enter answers."""
        q = self.question
        if q is None or not q.numeric or self.answered or self.finished:
            return
        char = event.character or ""
        if event.key == "backspace":
            self.typed = self.typed[:-1]
        elif char and char in "0123456789.-" and len(self.typed) < MAX_TYPED:
            self.typed += char
        else:
            return
        event.stop()
        event.prevent_default()
        self._render_options()

    # ---- rendering -------------------------------------------------------------------------

    def _all(self):
        """Every question this quiz is about: the lesson's own for a checkpoint, today's review's,
        else the quiz."""
        course = self.session.course
        if self.review is not None:
            return [q for q in course.questions() if q.id in self.review]
        return list(course.checkpoint(self.checkpoint)) if self.checkpoint else list(course.quiz)

    def _in_quiz(self, question) -> bool:
        """Whether an answer also goes among the quiz's answers (a review asks checkpoint questions too)."""
        if self.review is not None:
            return any(q.id == question.id for q in self.session.loaded.quiz)
        return self.checkpoint is None

    def _wrong(self):
        progress = self.session.progress
        return [q for q in self._all() if not answered_right(q, progress)]

    def _prompt(self, q, variant: int | None = None) -> str:
        variant = self.variant if variant is None else variant
        text = q.template.fill_text(q.prompt, variant) if q.numeric else q.asked(variant).prompt
        return text.get(self.lang)

    def _answered_variant(self, q) -> int:
        """The form of a question the learner was last asked (0 for a question with one form)."""
        drawn = self.session.progress.question(q.id).variants
        return drawn[-1] if drawn else 0

    def render_texts(self) -> None:
        if self.review is not None:
            title = self.say("review_title")
        else:
            title = self.say("step_checkpoint", id=self.checkpoint) if self.checkpoint else self.say("quiz")
        if self.finished or not self.questions:
            self.set_title(title)
            self._render_end()
            return
        q = self.question
        counter = self.say("question_of", i=self.index + 1, n=len(self.questions))
        self.set_title(title, counter)
        set_markdown(self.query_one("#q-prompt", Markdown), f"**{counter}**\n\n" + self._prompt(q))
        self._render_options()
        self.query_one("#q-help", Static).update(self._help(q))
        set_markdown(self.query_one("#q-feedback", Markdown), self._feedback() if self.answered else "")
        for cell in self.query(CellView):
            cell.render_texts()

    def _help(self, q) -> str:
        if not self.answered:
            return self.say("quiz_type_number" if q.numeric else "quiz_choose")
        if q.numeric and self.graded is None:
            return self.say("quiz_computing") if self.verdict is None else self.say("quiz_next_plain")
        return self.say("quiz_next" if (q.evidence or q.numeric) else "quiz_next_plain")

    def _render_options(self) -> None:
        """One line per option; the choice and, once answered, right and wrong are marked by glyph.
        For a template question, the number as it is being typed."""
        q, m = self.question, self.marks
        lines = Text()
        if q.numeric:
            lines.append(spaced(self.say("quiz_your_number")), style="bold")
            cursor = "" if self.answered else ("_" if m.ascii else "▏")
            lines.append(((self.given or "") if self.answered else self.typed) + cursor, style="bold")
            self.query_one("#q-options", Static).update(lines)
            return
        rows = []
        for shown, letter in zip(LETTERS, self.orders[q.id]):
            if self.answered and letter == q.answer:
                mark, style = m["right"], m.style("right")
            elif self.answered and letter == self.chosen:
                mark, style = m["wrong"], m.style("wrong")
            elif letter == self.chosen:
                mark, style = m["chosen"], "bold"
            else:
                mark, style = " ", ""
            label = Text(f"{mark} ", style=style)
            label.append(f"{shown}. ", style="bold")
            option = inline(q.options[letter].get(self.lang).strip(), style="bold" if letter == self.chosen else "")
            rows.append((label, option))
        self.query_one("#q-options", Static).update(hanging(rows))

    def _feedback(self) -> str:
        q, lang, m = self.question, self.lang, self.marks
        if q.numeric:
            return self._number_feedback(q)
        if self.chosen is None:  # not answered: nothing to say yet
            return ""
        right = self.chosen == q.answer
        parts = [
            f"**{m['right']} {self.say('quiz_right')}**"
            if right
            else f"**{m['wrong']} {self.say('quiz_wrong', answer=self.shown(q.answer))}**"
        ]
        your = self.say("quiz_your", letter=self.shown(self.chosen))
        parts.append(bold_label(your, q.explanations[self.chosen].get(lang)))
        if not right:
            answer = self.say("quiz_answer", letter=self.shown(q.answer))
            parts.append(bold_label(answer, q.explanations[q.answer].get(lang)))
        return "\n\n".join(parts)

    def _number_feedback(self, q) -> str:
        m = self.marks
        if self.verdict is None:
            return ""
        if self.computed is None:  # the run that answers it failed: nothing is judged or recorded
            why = pick(self.verdict.message, self.lang) or self.verdict.status
            return f"**{m['error']} {self.say('quiz_not_computed', why=why)}**"
        if self.graded:
            head = f"**{m['right']} {self.say('quiz_number_right', shown=self.computed)}**"
        else:
            head = f"**{m['wrong']} {self.say('quiz_number_wrong', given=self.given, shown=self.computed)}**"
        explain = q.template.fill_text(q.template.explain, self.variant, self.computed).get(self.lang)
        return f"{head}\n\n{explain}"

    def _render_end(self) -> None:
        everything = self._all()
        if not everything:
            set_markdown(self.query_one("#q-prompt", Markdown), self.say("quiz_empty"))
            return
        wrong = self._wrong()
        now = len(everything) - len(wrong)
        progress = self.session.progress
        if self.review is not None:
            self._render_review_end(now, len(everything), wrong)
            return
        if self.checkpoint:
            first, _, n, answered = checkpoint_scores(progress, self.checkpoint)
            head = self.say("checkpoint_done", id=self.checkpoint, score=now, n=n)
        else:
            summary = progress.summary()
            first, n, answered = summary.quiz_first, summary.quiz_questions, summary.quiz_answered
            head = self.say("quiz_done", score=now, n=n)
        lines = [f"## {head}", "", score_text(first, now, n, answered, self.lang), ""]
        if wrong:
            # Which questions to look at again, but not their letters: a retry reshuffles them.
            lines.append(f"**{self.say('quiz_review')}**")
            lines.append("")
            for q in wrong:
                # Numbered as when it was asked; its code kept, since the question is about it.
                number = self.say("question_of", i=everything.index(q) + 1, n=len(everything))
                prose, code = review_parts(self._prompt(q, self._answered_variant(q)))
                where = self.say("review_lesson", id=q.lesson) if q.lesson and not self.checkpoint else ""
                head = f"**{self.marks['wrong']} {number}**"
                lines += [self.say("review_line", head=head, where=where, prose=prose), ""]
                if code:
                    lines += [code, ""]
            if self.checkpoint:
                lines += ["", self.say("checkpoint_not_done")]
        else:
            lines.append(self.say("quiz_all_right"))
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

    def _render_review_end(self, right: int, n: int, wrong: list) -> None:
        """The end of today's review: how many came back right, and when the next ones are due."""
        from tutor.progress.review import next_due

        state = self.session.progress
        lines = [f"## {self.say('review_done', score=right, n=n)}", ""]
        lines.append(self.say("review_wrong_back" if wrong else "review_all_right"))
        later = next_due(state, state.clock())
        if later:
            lines += ["", self.say("review_next", day=later)]
        set_markdown(self.query_one("#q-prompt", Markdown), "\n".join(lines))
        self.query_one("#q-options", Static).update("")
        self.query_one("#q-help", Static).update(self.say("review_end_keys"))
        set_markdown(self.query_one("#q-feedback", Markdown), "")

    # ---- actions ---------------------------------------------------------------------------

    def action_choose(self, shown: str) -> None:
        q = self.question
        if self.answered or self.finished or q is None or q.numeric:
            return
        self.chosen = self.orders[q.id][LETTERS.index(shown)]
        self._render_options()

    def action_answer(self) -> None:
        q = self.question
        if self.finished or q is None:
            return
        if self.answered:
            if q.numeric and self.graded is None and self.verdict is None:
                return  # the answer is still being worked out: Enter waits for it
            self._next_question()
            return
        if q.numeric:
            number = parse_number(self.typed)
            if number is None:
                self.query_one("#q-help", Static).update(Text(self.say("quiz_type_number"), style="bold"))
                return
            self.given = number_text(number)
            self.answered = True
            self._grade()
        else:
            if self.chosen is None:
                self.query_one("#q-help", Static).update(Text(self.say("quiz_choose"), style="bold"))
                return
            self.answered = True
            self.record(
                changes.answer, q.id, self.chosen, self.chosen == q.answer, self._in_quiz(q), self.session.state.clock()
            )
        self.apply_lang()  # feedback, and "Answer" becomes "Next" in the footer
        self._show_feedback()

    def _show_feedback(self) -> None:
        """Bring the verdict into view: at 80x24 it is often below the options."""
        feedback = self.query_one("#q-feedback")
        self.call_after_refresh(lambda: feedback.scroll_visible(animate=False))

    def _next_question(self) -> None:
        self.query_one("#q-evidence").remove_children()
        self.index += 1
        self.chosen, self.given, self.typed, self.answered = None, None, "", False
        if self.index >= len(self.questions):
            self._finish()
        else:
            self._ask()
        self.apply_lang()
        self.query_one("#quiz-body", VerticalScroll).scroll_home(animate=False)

    def _finish(self) -> None:
        self.finished = True
        if self.checkpoint or self.review is not None:
            return  # answers are recorded one by one; only the full quiz counts rounds
        self.score = self.session.progress.summary().quiz_now
        if {q.id for q in self.questions} == {q.id for q in self.session.loaded.quiz}:
            # A round asked every question. A retry of the wrong ones is not one: "best round" is
            # one round's score, never a first try and a retry added up (5/8 then 3/3 is not 8/8).
            self.record(changes.quiz_result, self.score)

    def action_evidence(self) -> None:
        """The evidence cell; for a template question, the very run that answered it, to read and rerun."""
        q = self.question
        if not self.answered or q is None:
            return
        cell = q.template.cell(q.id, self.variant) if q.numeric else q.evidence
        if cell is None:
            return
        box = self.query_one("#q-evidence")
        cells = list(box.query(CellView))
        if cells:
            cells[0].action_run_cell()
            return
        view = CellView(cell)
        box.mount(view)
        self.call_after_refresh(view.action_run_cell)

    def action_retry(self) -> None:
        wrong = self._wrong()
        if not self.finished or not wrong:
            return
        self.app.switch_screen(QuizScreen(wrong, checkpoint=self.checkpoint, rng=self.rng))

    def action_review_off(self) -> None:
        """Turn the review off (the schedule is kept: `jaxstate-tutor review --on` brings it back)."""
        from tutor.progress.review import turn

        if self.finished and self.review is not None:
            self.record(turn, False)
            self.notify(self.say("review_turned_off"), timeout=10)
            self.app.pop_screen()

    def action_go_on(self) -> None:
        if self.finished and self.review is not None:
            self.app.pop_screen()  # back to the outline, its count of reviews now lower
        elif self.finished:
            self.app.go_on_from(self.here)

    def action_back(self) -> None:
        self.app.pop_screen()
