"""`jaxstate-tutor` with no command: open the terminal UI, or say why it cannot run here."""

from __future__ import annotations

import os
import sys

from tutor.cli.context import Context
from tutor.cli.texts import say
from tutor.serve.app import under_web_driver


def cmd_tui(ctx: Context) -> int:
    term = os.environ.get("TERM", "")
    why = None
    if under_web_driver():
        pass  # under textual-serve (ours or anyone's): pipes and Textual's web driver, no terminal needed
    elif term == "dumb":
        why = "TERM=dumb"
    elif not sys.stdout.isatty() or not sys.stdin.isatty():
        why = say("not_a_terminal", ctx.lang)
    if why is None:
        try:
            from tutor.ui.app import run_app
        except ModuleNotFoundError as exc:
            if exc.name != "textual" and not (exc.name or "").startswith("textual."):
                raise  # a bug in the tutor: show it as the bug it is
            why = say("no_textual", ctx.lang)
    if why is not None:
        print(say("no_tui", ctx.lang, why=why), file=sys.stderr)
        return 2
    return run_app(
        home=ctx.home,
        lang=ctx.lang,
        mouse=not ctx.args.no_mouse,
        accelerator=ctx.accelerator,
        course_root=ctx.settings.course,
        clock=ctx.clock,  # the learner's day, as `progress` and `review` take it (tests move it)
    )
