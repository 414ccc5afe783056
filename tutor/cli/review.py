"""`review`: today's review in the terminal, without the TUI (a quick SSH session): each question
due (tutor.progress.review) asked in a form not seen before, then each drill due as another drill
(the program shown, the line asked, then the belief, then the program run for the check's words),
judged and recorded as the TUI does; `--off` / `--on` turn the review off and back on."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from tutor.cli.context import Context
from tutor.cli.texts import say
from tutor.progress import changes, review
from tutor.progress.asking import draw_variant, option_order

if TYPE_CHECKING:
    from tutor.course.model import Question
    from tutor.sandbox.runner import Sandbox


def cmd_review(ctx: Context) -> int:
    state, lang = ctx.state, ctx.lang
    ctx.warn_progress()
    if ctx.args.off or ctx.args.on:
        ctx.record(state.change(review.turn, bool(ctx.args.on)))
        print(say("review_turned_on" if ctx.args.on else "review_turned_off", lang))
        return 0
    if not state.review_on():
        print(say("review_is_off", lang))
        return 0
    due, drills = state.reviews_due(), state.drill_reviews_due()
    if not due and not drills:
        print(say("review_nothing", lang))
        _say_next(ctx)
        return 0
    rng, right, asked = random.Random(), 0, 0
    sandbox = None
    try:
        n = len(due) + len(drills)
        items: list[Question | review.DrillReview] = [*due, *drills]
        for i, item in enumerate(items):
            if sandbox is None and (isinstance(item, review.DrillReview) or item.numeric):
                sandbox = ctx.sandbox()  # a drill runs, and so does a number's template
            if isinstance(item, review.DrillReview):
                outcome = _ask_drill(ctx, item, i + 1, n, rng, sandbox)
            else:
                outcome = _ask(ctx, item, i + 1, n, rng, sandbox)
            if outcome is None:  # end of input (Ctrl+D) or Ctrl+C: the rest stays due
                print("\n" + say("review_stopped", lang))
                return 0
            if outcome != "unjudged":
                asked += 1
                right += outcome == "right"
    finally:
        if sandbox is not None:
            sandbox.close()
    print(say("review_done", lang, score=right, n=asked))
    if right < asked:
        print(say("review_wrong_back", lang))
    _say_next(ctx)
    return 0


def _say_next(ctx: Context) -> None:
    later = review.next_due(ctx.state, ctx.state.clock())
    if later:
        print(say("review_next", ctx.lang, day=later))


def _ask(ctx: Context, question: Question, i: int, n: int, rng: random.Random, sandbox: Sandbox | None) -> str | None:
    """Ask one question; "right", "wrong", "unjudged" (its answer could not be worked out), or
    None when the learner ended the input."""
    from rich.markdown import Markdown

    state, lang = ctx.state, ctx.lang
    variant = draw_variant(question, state, rng)
    if question.variants() > 1:
        ctx.record(state.change(changes.question_drawn, question.id, variant))
    in_quiz = any(q.id == question.id for q in ctx.course.quiz)
    where = say("review_in_quiz", lang) if in_quiz else say("review_in_checkpoint", lang, lesson=question.lesson)
    con = ctx.console()
    con.print("\n" + say("review_head", lang, i=i, n=n, where=where), style="bold")
    template = question.template
    if template is not None:  # a number to work out: its run starts before the learner reads
        assert sandbox is not None  # cmd_review made one before the first such question
        run = sandbox.run_cell(template.cell(question.id, variant))
        con.print(Markdown(template.fill_text(question.prompt, variant).get(lang)))
        typed = _read(say("review_number", lang), lambda t: _number(t) is not None)
        if typed is None:
            run.cancel()
            return None
        print(say("review_computing", lang))
        verdict = run.result()
        computed = template.shown(verdict.stdout) if verdict.status == "pass" else None
        if computed is None:
            from tutor.i18n import pick

            print(say("review_not_computed", lang, why=pick(verdict.message, lang) or verdict.status))
            return "unjudged"
        from tutor.course.predict import same_number

        given = _number(typed) or typed  # valid: _read took only a number
        correct = same_number(given, computed)
        ctx.record(state.change(changes.answer, question.id, given, correct, in_quiz, state.clock()))
        print(say("review_right", lang) if correct else say("review_wrong", lang, answer=computed))
        con.print(Markdown(template.fill_text(template.explain, variant, computed).get(lang)))
        return "right" if correct else "wrong"
    asked = question.asked(variant)
    order = option_order(question, True, rng)  # answered before: reshuffled, a test of the idea
    shown = "ABCD"[: len(order)]
    con.print(Markdown(asked.prompt.get(lang)))
    for letter, authored in zip(shown, order):
        con.print(f"  {letter}. {asked.options[authored].get(lang).strip()}", markup=False)
    letters = "/".join(shown)
    typed = _read(say("review_letter", lang, letters=letters), lambda t: t.strip().upper() in shown)
    if typed is None:
        return None
    chosen = order[shown.index(typed.strip().upper())]
    correct = chosen == asked.answer
    ctx.record(state.change(changes.answer, question.id, chosen, correct, in_quiz, state.clock()))
    right_shown = shown[order.index(asked.answer)]
    print(say("review_right", lang) if correct else say("review_wrong", lang, answer=right_shown))
    con.print(Markdown(asked.explanations[chosen].get(lang)))
    if not correct:
        con.print(Markdown(asked.explanations[asked.answer].get(lang)))
    return "right" if correct else "wrong"


def _ask_drill(
    ctx: Context, item: review.DrillReview, i: int, n: int, rng: random.Random, sandbox: Sandbox | None
) -> str | None:
    """Ask one drill as the TUI does: the line with the mistake, then the belief behind it; then
    the program runs and the failing check's words show. "right", "wrong", or None at the end of input."""
    from tutor.i18n import pick
    from tutor.progress.asking import belief_choices

    state, lang, drill = ctx.state, ctx.lang, item.drill
    exercise = ctx.course.exercise(drill.exercise)
    assert sandbox is not None  # cmd_review made one before the first drill
    run = sandbox.run_exercise(exercise, drill.code, "drill.py") if exercise is not None else None
    con = ctx.console()
    con.print(
        "\n" + say("review_head", lang, i=i, n=n, where=say("review_in_drill", lang, lesson=drill.lesson)), style="bold"
    )
    what = exercise.title.get(lang) if exercise is not None else drill.exercise
    print(say("review_drill_intro", lang, exercise=what))
    lines = drill.code.splitlines()
    width = len(str(len(lines)))
    for number, text in enumerate(lines, 1):
        print(f"{number:>{width}}  {text}")
    typed = _read(
        say("review_drill_line", lang, n=len(lines)), lambda t: t.strip().isdigit() and 1 <= int(t) <= len(lines)
    )
    if typed is None:
        if run is not None:
            run.cancel()
        return None
    line = int(typed)
    if line == drill.line:
        print(say("review_drill_line_right", lang, n=drill.line))
    else:
        print(say("review_drill_line_wrong", lang, picked=line, n=drill.line, code=lines[drill.line - 1].strip()))
    choices = belief_choices(ctx.course, drill, rng)
    shown = "ABCD"[: len(choices)]
    print(say("review_drill_belief", lang))
    for letter, choice in zip(shown, choices):
        con.print(f"  {letter}. {choice.text.get(lang)}", markup=False)
    typed = _read(say("review_letter", lang, letters="/".join(shown)), lambda t: t.strip().upper() in shown)
    if typed is None:
        if run is not None:
            run.cancel()
        return None
    belief = choices[shown.index(typed.strip().upper())].id
    correct = line == drill.line and belief == drill.belief
    ctx.record(state.change(changes.drill, drill.id, line, belief, correct, state.clock(), item.item))
    right_letter = next((shown[k] for k, b in enumerate(choices) if b.id == drill.belief), "?")
    print(say("review_right", lang) if correct else say("review_wrong", lang, answer=right_letter))
    if run is not None:
        print(say("review_computing_drill", lang))
        verdict = run.result()
        failed = [c for c in verdict.checks if c.status == "fail"]
        if failed:
            check = failed[0]
            name = pick(check.name, lang) if check.name else check.id
            print(say("review_drill_check", lang, name=name))
            print(pick(check.message, lang) if check.message else "")
        else:
            print(say("review_drill_run_said", lang, why=pick(verdict.message, lang) or verdict.status))
    return "right" if correct else "wrong"


def _number(text: str) -> str | None:
    from tutor.course.predict import number_text, parse_number

    number = parse_number(text.strip())
    return None if number is None else number_text(number)


def _read(prompt: str, valid: Callable[[str], bool]) -> str | None:
    """A line from the learner, asked again until `valid`; None at the end of input or Ctrl+C."""
    while True:
        try:
            line = input(prompt)
        except (EOFError, KeyboardInterrupt):
            return None
        if valid(line):
            return line
