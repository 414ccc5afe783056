"""`check`, `hint`, `solution` and `reset`: one exercise at a time, on the learner's file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.cli.context import Context, UsageError
from tutor.cli.texts import say
from tutor.i18n import pick
from tutor.progress import changes, passing
from tutor.terminal.render import print_json

if TYPE_CHECKING:
    from tutor.course.model import Exercise
    from tutor.sandbox.runner import Sandbox


def run_check(
    ctx: Context, sandbox: Sandbox, exercise: Exercise, path: Path, as_json: bool, timeout: float | None
) -> int:
    """Check the file at `path`, print the run as it goes (or its JSON at the end) and count the
    attempt before the verdict is shown; 0 if it passed, else 1 (`check` and `watch` alike)."""
    from tutor.files.workspace import LearnerFileError, read_learner_file
    from tutor.sandbox.events import Verdict
    from tutor.terminal.render import RunPrinter

    try:
        source = read_learner_file(path)
    except LearnerFileError as exc:
        raise UsageError(pick(exc.message, ctx.lang)) from None
    run = sandbox.run_exercise(exercise, source, str(path.resolve()), timeout)
    printer = None if as_json else RunPrinter(ctx.console(), ctx.lang)
    for event in run.events():
        if isinstance(event, Verdict) and event is run.verdict:  # the last event: save progress, then show it
            passing.keep(ctx.home, exercise.id, source, event.passed)  # the file `export` hands in
            ctx.record(ctx.state.change(changes.attempt, exercise.id, event.passed))
        if printer:
            printer.event(event)
    verdict = run.verdict
    assert verdict is not None  # events() ends with it
    if as_json:
        print_json(verdict.to_json(exercise.id, ctx.lang))
    return 0 if verdict.passed else 1


def cmd_check(ctx: Context) -> int:
    exercise = ctx.exercise(ctx.args.id)
    path = ctx.args.file or ctx.workspace_file(exercise)
    sandbox = ctx.sandbox()
    try:
        return run_check(ctx, sandbox, exercise, path, ctx.args.json, ctx.args.timeout)
    finally:
        sandbox.close()


def cmd_hint(ctx: Context) -> int:
    exercise = ctx.exercise(ctx.args.id)
    shown = ctx.state.exercise(exercise.id).hints_shown
    total = len(exercise.hints)
    upto = min(shown + 1, total)
    con = ctx.console()
    from rich.markup import escape

    for i in range(upto):
        con.print(
            f"[bold]{say('hint_of', ctx.lang, n=i + 1, total=total)}[/bold]: {escape(exercise.hints[i].get(ctx.lang))}",
            markup=True,
        )
    if shown >= total:
        con.print(say("no_more_hints", ctx.lang, id=exercise.id))
    ctx.record(ctx.state.change(changes.hint, exercise.id, upto))
    return 0


def cmd_solution(ctx: Context) -> int:
    exercise = ctx.exercise(ctx.args.id)
    passed = ctx.state.exercise_status(exercise.id) == "passed"
    if not passed and not ctx.args.yes:
        if not sys.stdin.isatty():
            # Nobody to ask (a pipe, a script): shown, as tools expect, and said on stderr.
            print(say("solution_unasked", ctx.lang, id=exercise.id), file=sys.stderr)
        else:
            answer = input(say("solution_confirm", ctx.lang, id=exercise.id)).strip().lower()
            if answer not in ("y", "yes", "是", "好"):
                print(say("solution_declined", ctx.lang, id=exercise.id))
                return 1
    print(ctx.course.solution_path(exercise.id).read_text(encoding="utf-8"), end="")
    ctx.record(ctx.state.change(changes.solution_viewed, exercise.id))
    return 0


def cmd_reset(ctx: Context) -> int:
    from tutor.files.workspace import LearnerFileError, Workspace

    exercise = ctx.exercise(ctx.args.id)
    ws = Workspace(ctx.home)
    try:
        backup = ws.reset(exercise)
    except LearnerFileError as exc:  # the old code is still in place
        raise UsageError(pick(exc.message, ctx.lang)) from None
    print(say("reset_done", ctx.lang, path=ws.path(exercise.id)))
    if backup:
        print(say("reset_backup", ctx.lang, path=backup))
    return 0
