"""`jaxstate-tutor serve`: the TUI in a browser (its body is tutor.serve's; this is the command line's glue)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tutor.cli.arguments import Subcommands
from tutor.cli.context import Context
from tutor.i18n import Bilingual


def add_parser(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    s = sub.add_parser(
        "serve",
        parents=[common],
        help="the tutor in a browser (textual-serve), on 127.0.0.1 with a token in the address",
        description="Serve the tutor to a browser: each tab gets its own tutor process on this machine, on the "
        "home of the address's token. Every request needs the printed token (403 without it). Needs the "
        "[serve] extra (textual-serve). From another machine: ssh -L PORT:127.0.0.1:PORT, then the address.",
    )
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this machine only)")
    s.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000; 0: any free one)")
    s.add_argument(
        "--learner",
        action="append",
        default=[],
        metavar="NAME",
        help="one address and one home (HOME/learners/NAME) per learner; repeat for a class "
        "(default: one address, on HOME)",
    )
    s.add_argument(
        "--worker-idle",
        type=_minutes,
        default=None,
        metavar="MINUTES",
        help="a learner's Python/JAX processes end after this many minutes with no code run, on any screen "
        "(default: 5); their next run starts them again, a few seconds' wait",
    )


def _minutes(text: str) -> float:
    value = float(text)
    if not value >= 0:  # also NaN
        raise argparse.ArgumentTypeError(f"{text!r}: minutes, 0 or more / 分钟数，0 或更大")
    return value


def cmd_serve(ctx: Context) -> int:
    from tutor.serve.command import serve

    args = ctx.args
    return serve(
        ctx.home.absolute(),
        args.learner,
        args.host,
        args.port,
        ctx.lang,
        accelerator=ctx.accelerator,
        browser_lang=not ctx.settings.lang_said,  # no --lang nor $JAXSTATE_TUTOR_LANG: each tab in its browser's
        course=ctx.settings.course,
        token=ctx.settings.serve_token,
        worker_idle_s=None if args.worker_idle is None else args.worker_idle * 60,
        title=_course_title(ctx.settings.course),
    )


def _course_title(root: Path) -> Bilingual | None:
    """The page's title: the course's own (a course with problems still has one; the tab shows
    them), or None where the course cannot be read at all."""
    from tutor.course import read_course

    try:
        return read_course(root)[0].title
    except Exception:  # noqa: BLE001 - the page must still be served; the tab says what is wrong
        return None
