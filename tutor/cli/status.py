"""`list` and `progress`: the path with the learner's status, and what the learner has done so far."""

from __future__ import annotations

from tutor.cli.context import Context
from tutor.cli.texts import say
from tutor.terminal.render import print_json


def cmd_list(ctx: Context) -> int:
    from tutor.progress.path import course_path
    from tutor.progress.reports import checkpoint_scores, list_document, score_text

    state = ctx.state
    ctx.warn_progress()
    course, lang = ctx.course, ctx.lang
    doc = list_document(state, lang)
    if ctx.args.json:
        print_json(doc)
        return 0
    from rich.markup import escape

    from tutor.terminal.marks import marks

    m = marks()
    lessons = {l["id"]: l for l in doc["lessons"]}
    exercise_rows = {e["id"]: e for e in doc["exercises"]}
    con = ctx.console()
    con.print(course.title.get(lang), style="bold", markup=False)  # the course's own title, not this one's
    for step in course_path(course):  # the path: each lesson, its checkpoint and exercises; then the quiz
        if step.kind == "lesson":
            l = lessons[step.id]
            con.print(f"[{m[l['status']]}] [bold]{escape(l['id']):<5}[/bold] {escape(l['title'])}", markup=True)
        elif step.kind == "checkpoint":
            first, now, n, answered = checkpoint_scores(state, step.id)
            score = score_text(first, now, n, answered, lang)
            con.print(
                f"    [{m[state.step_status(step)]}] " + escape(say("checkpoint", lang, n=n, score=score)), markup=True
            )
        elif step.kind == "exercise":
            e = exercise_rows[step.id]
            con.print(f"    [{m[e['status']]}] {escape(e['id']):<20} {escape(e['title'])}", markup=True)
    q = doc["quiz"]
    if q["questions"]:  # a course of one's own may have no quiz: no "0/0" line for it
        score = score_text(q["first_score"], q["score"], q["questions"], q["answered"], lang)
        con.print(say("list_quiz", lang, a=q["answered"], n=q["questions"], s=escape(score)), markup=True)
    return 0


def cmd_progress(ctx: Context) -> int:
    from tutor.progress.reports import (
        checkpoint_scores,
        drill_scores,
        misconception_report,
        progress_document,
        score_text,
    )

    state = ctx.state
    ctx.warn_progress()
    doc = progress_document(state)
    if ctx.args.json:
        print_json(doc)
        return 0
    con, lang = ctx.console(), ctx.lang
    course, summary = ctx.course, state.summary()
    con.print(course.title.get(lang), style="bold", markup=False)
    con.print(say("exercises_passed", lang, passed=summary.exercises_passed, total=len(course.exercises)))
    for e in course.exercises:
        rec = doc["exercises"].get(e.id)
        if rec:
            con.print(
                f"  {e.id:<20} {rec['status']:<10} "
                + say("exercise_tries", lang, attempts=rec["attempts"], hints=rec["hints_shown"])
                + (say("solution_viewed", lang) if rec["solution_viewed"] else "")
            )
    q = doc["quiz"]
    if course.quiz:  # a course without a quiz has no quiz line
        score = score_text(summary.quiz_first, summary.quiz_now, summary.quiz_questions, summary.quiz_answered, lang)
        con.print(say("quiz_rounds", lang, score=score, rounds=q["attempts"]))
    for c in course.checkpoints:
        first, now, n, answered = checkpoint_scores(state, c.lesson)
        if answered:
            con.print(say("checkpoint_score", lang, lesson=c.lesson, score=score_text(first, now, n, answered, lang)))
    for lesson in dict.fromkeys(d.lesson for d in course.drills):
        first, now, n, tried = drill_scores(state, lesson)
        if tried:
            con.print(say("drill_score", lang, lesson=lesson, score=score_text(first, now, n, tried, lang)))
    made, right = summary.predictions_made, summary.predictions_right
    if made:
        con.print(say("predictions", lang, made=made, right=right))
    due = len(doc["review"]["due_today"]) + len(doc["review"]["drills_due_today"])
    if due:
        con.print(say("review_today", lang, n=due))
    report = misconception_report(state, lang)  # the beliefs the latest answers still show
    if report is not None:
        head, missed = report
        con.print(head, markup=False)
        for belief, where in missed:
            con.print(f"  - {belief}\n    {where}", markup=False)
    return 0
