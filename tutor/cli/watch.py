"""`watch`: re-check an exercise on every save, on a plain terminal; the loop is tutor.cli.watch_loop's,
this is its face (Rich output, Enter read from the terminal)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.cli.context import Context, UsageError
from tutor.cli.exercises import run_check
from tutor.cli.texts import say
from tutor.i18n import Bilingual, pick

if TYPE_CHECKING:
    from tutor.course.model import Exercise
    from tutor.sandbox.runner import Sandbox


def cmd_watch(ctx: Context) -> int:
    """Re-check on every save; after a pass, offer the next exercise on the path (Enter)."""
    from tutor.cli.watch_loop import watch

    if ctx.args.id:
        exercise = ctx.exercise(ctx.args.id)
    else:
        step = ctx.state.next_step(kinds=("exercise",))
        if step is None:
            print(say("all_passed", ctx.lang))
            return 0
        exercise = ctx.exercise(step.id)
    path = ctx.workspace_file(exercise)  # an unusable home is said before a worker starts
    sandbox = ctx.sandbox(keep_spare=True)
    sandbox.warm_up()
    try:
        watch(ctx.state, exercise, path, TerminalFace(ctx, sandbox), ctx.args.interval)
    except KeyboardInterrupt:
        return 130  # Ctrl+C: what a shell expects from a program stopped by SIGINT
    finally:
        sandbox.close()
    return 0


def enter_pressed(timeout: float) -> bool:
    """Whether a line was typed on a terminal's stdin within `timeout` seconds (consumes it)."""
    import select

    if not sys.stdin.isatty():
        time.sleep(timeout)
        return False
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    if ready:
        sys.stdin.readline()
        return True
    return False


class TerminalFace:
    """The watch loop's face on a terminal (tutor.cli.watch_loop.Face)."""

    def __init__(self, ctx: Context, sandbox: Sandbox):
        self.ctx, self.sandbox, self.con = ctx, sandbox, ctx.console()

    def file_for(self, exercise: Exercise) -> Path:
        return self.ctx.workspace_file(exercise)

    def watching(self, path: Path) -> None:
        self.con.print(say("watching", self.ctx.lang, path=path))

    def check(self, exercise: Exercise, path: Path) -> bool:
        self.con.rule(f"{exercise.id} {time.strftime('%H:%M:%S')}")
        try:
            return run_check(self.ctx, self.sandbox, exercise, path, False, self.ctx.args.timeout) == 0
        except UsageError as exc:
            self.con.print(str(exc), markup=False, highlight=False)
            return False

    def offer(self, next_exercise: Exercise | None) -> None:
        lang = self.ctx.lang
        self.con.print(
            say("watch_next", lang, id=next_exercise.id, title=next_exercise.title.get(lang))
            if next_exercise is not None
            else say("watch_last", lang)
        )

    def put_back(self, path: Path, why_not: Bilingual | str | None) -> None:
        lang = self.ctx.lang
        self.con.print(
            say("file_vanished", lang, path=path)
            if why_not is None
            else say("file_vanished_lost", lang, path=path, why=pick(why_not, lang)),
            highlight=False,
        )

    def checked_elsewhere(self, path: Path) -> None:
        self.con.print(say("watch_checked_elsewhere", self.ctx.lang, path=path), highlight=False)

    def enter_pressed(self, timeout: float) -> bool:
        return enter_pressed(timeout)
