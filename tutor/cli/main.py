"""The command line `jaxstate-tutor`: every command and option, and which command each runs.

The commands themselves live in tutor/cli/, a module per group, with every sentence
they print in its texts.py. Exit codes: 0 success / pass, 1 fail / error / timeout, 2 unknown
id or bad usage.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tutor import __version__
from tutor.cli import doctor
from tutor.cli.arguments import Parser, Subcommands, asked_lang_among, folder, seconds
from tutor.cli.classroom import add_parsers as add_classroom_parsers
from tutor.cli.context import Context
from tutor.cli.serve import add_parser as add_serve_parser
from tutor.cli.texts import MSG
from tutor.controls import show_controls
from tutor.errors import TutorError
from tutor.i18n import LANGS, pick
from tutor.settings import COURSE_VAR, UnknownUserHome, lang_of, resolve

if TYPE_CHECKING:
    from tutor.progress.review import Clock


def _common_options() -> Parser:
    """The options every command takes, before or after its name (each command's parser has them as a parent)."""
    common = Parser(add_help=False)
    common.add_argument(
        "--home",
        type=folder,
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="folder for progress and workspace (default: $JAXSTATE_TUTOR_HOME or the user data dir)",
    )
    common.add_argument(
        "--course",
        type=folder,
        metavar="DIR",
        default=argparse.SUPPRESS,
        help=f"the course to use: a folder holding lessons/ and solutions/ (default: ${COURSE_VAR} or the "
        "shipped course)",
    )
    common.add_argument(
        "--lang", choices=LANGS, default=argparse.SUPPRESS, help="language of all text (default: from locale)"
    )
    common.add_argument(
        "--accelerator",
        action="store_true",
        default=argparse.SUPPRESS,
        help="let workers use the GPU/TPU (default: CPU only, leaving accelerator memory to your jobs; "
        "or JAXSTATE_TUTOR_ACCELERATOR=1)",
    )
    return common


def _learner_commands(sub: Subcommands, common: Parser) -> None:
    """list, check, hint, solution, reset, progress and review: one exercise or the whole path, for the learner."""
    s = sub.add_parser("list", parents=[common], help="lessons and exercises with their status")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("check", parents=[common], help="run the checks of an exercise")
    s.add_argument("id")
    s.add_argument("--file", type=Path, help="check this file instead of your workspace file")
    s.add_argument("--json", action="store_true")
    s.add_argument("--timeout", type=seconds, help="seconds before the run is stopped")
    for name, text in (
        ("hint", "show the next hint"),
        ("solution", "show the reference solution"),
        ("reset", "put the starter code back in your workspace file"),
    ):
        s = sub.add_parser(name, parents=[common], help=text)
        s.add_argument("id")
        if name == "solution":
            s.add_argument("--yes", action="store_true", help="do not ask before showing it")
    s = sub.add_parser("progress", parents=[common], help="your progress")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser(
        "review",
        parents=[common],
        help="today's review in the terminal (questions and drills answered wrong come back after 1, 3 and 7 days)",
        description="Ask the questions due for review today, each in a form not seen before, then the "
        "spot-the-bug drills due, each as another drill, without the TUI. "
        "One answered wrong comes back a day later, then 3 and 7 days after each right answer.",
    )
    on_off = s.add_mutually_exclusive_group()
    on_off.add_argument("--off", action="store_true", help="turn the review off (its schedule is kept)")
    on_off.add_argument("--on", action="store_true", help="turn the review back on")


def _author_commands(sub: Subcommands, common: Parser) -> None:
    """verify, validate, new-exercise, new-course and schema: for whoever writes a course."""
    s = sub.add_parser(
        "verify",
        parents=[common],
        help="every reference solution passes, every starter fails",
        description="Every reference solution passes and every starter fails. With exercise ids (the author's "
        "loop): validate's problems first, then those exercises' solution, starter and red-team cases "
        "(tests/cases/ID/pass_*.py must pass, fail_CHECK__*.py must fail at CHECK).",
    )
    s.add_argument("ids", nargs="*", metavar="ID", help="only these exercises, with their cases")
    out = s.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="one document at the end (each run on stderr as it ends)")
    out.add_argument("--json-lines", action="store_true", help="each run as a JSON line as it ends, then the document")
    s = sub.add_parser("validate", parents=[common], help="lint the course YAML")
    s.add_argument("path", nargs="?", type=Path, help="course folder (holding lessons/ and solutions/)")
    s = sub.add_parser(
        "new-exercise",
        parents=[common],
        help="write a new exercise to fill in (it validates, and verify fails until it is written)",
        description="Write lessons/exercises/ID/ (exercise.yaml, checks.py, starter.py), solutions/ID.py and "
        "tests/cases/ID/ (where the course keeps its red team) into the course, each with TODOs: `validate` is clean on them and `verify ID` fails "
        "until the solution, checks and cases are written.",
    )
    s.add_argument("id", metavar="ID", help="the new exercise's id (a-z, 0-9, '.' and '-')")
    s.add_argument("--lesson", required=True, metavar="L", help="the id of the lesson it practices")
    s = sub.add_parser(
        "new-course",
        parents=[common],
        help="write a new course of one lesson and one exercise into DIR",
        description="Write a course of one lesson and one exercise (with its solution and cases) into DIR, "
        "a new or empty folder; it validates and verifies as written. Use it with --course DIR.",
    )
    s.add_argument("dir", type=Path, metavar="DIR")
    sub.add_parser(
        "schema",
        parents=[common],
        help="print the JSON Schema of the course's YAML files (for editors)",
        description="Print the JSON Schema (draft 2020-12) of a course's YAML files, made from the one declaration "
        "the loader reads (tutor/course/schema.py); docs/course.schema.json is this output.",
    )


def _parser() -> argparse.ArgumentParser:
    """Every command and option of `jaxstate-tutor`, in the order --help lists them."""
    common = _common_options()
    p = Parser(
        prog="jaxstate-tutor",
        parents=[common],
        description="An interactive terminal tutor for managing state in JAX.",
        epilog="--home, --course, --lang and --accelerator may stand before or after COMMAND "
        "(doctor: --course only before it; the others anywhere before `--`, see doctor --help).",
    )
    p.add_argument("--version", action="version", version=f"jaxstate-tutor {__version__}")
    p.add_argument("--no-mouse", action="store_true", help="TUI: do not capture the mouse (slow links)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    _learner_commands(sub, common)
    _author_commands(sub, common)
    s = sub.add_parser("watch", parents=[common], help="re-check an exercise on every save (no TUI)")
    s.add_argument("id", nargs="?")
    s.add_argument("--timeout", type=seconds)
    s.add_argument("--interval", type=seconds, default=0.5, help="seconds between polls of the file")
    add_classroom_parsers(sub, common)  # export, submit, exchange, grade: tutor/cli/classroom.py
    doctor.add_parser(sub, common)
    add_serve_parser(sub, common)  # tutor/cli/serve.py
    return p


# Each command's module is imported when that command runs: `--version`, `--help` and each
# command load only what they use (importing every command's code took ~200 ms before any work).
COMMANDS: dict[str | None, tuple[str, str]] = {
    "list": ("status", "cmd_list"),
    "check": ("exercises", "cmd_check"),
    "hint": ("exercises", "cmd_hint"),
    "solution": ("exercises", "cmd_solution"),
    "reset": ("exercises", "cmd_reset"),
    "progress": ("status", "cmd_progress"),
    "review": ("review", "cmd_review"),
    "verify": ("authoring", "cmd_verify"),
    "validate": ("authoring", "cmd_validate"),
    "watch": ("watch", "cmd_watch"),
    "new-exercise": ("scaffolding", "cmd_new_exercise"),
    "new-course": ("scaffolding", "cmd_new_course"),
    "schema": ("authoring", "cmd_schema"),
    "export": ("classroom", "cmd_export"),
    "grade": ("classroom", "cmd_grade"),
    "submit": ("classroom", "cmd_submit"),
    "exchange": ("classroom", "cmd_exchange"),
    "doctor": ("doctor", "run"),
    "serve": ("serve", "cmd_serve"),
    None: ("tui", "cmd_tui"),
}


def command(name: str | None) -> Callable[[Context], int]:
    """The function that runs command `name` (None: the TUI), its module imported now."""
    module, function = COMMANDS[name]
    run: Callable[[Context], int] = getattr(importlib.import_module(f"tutor.cli.{module}"), function)
    return run


def _tolerate_narrow_encodings() -> None:
    """PYTHONIOENCODING=ascii or a C locale: Chinese text becomes \\u escapes, not a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def _open_closed_std_streams() -> None:
    """A standard stream closed by the shell (`<&-`, `>&-`) becomes /dev/null: Python left it None
    (every `sys.stdin.isatty()` would raise), and its descriptor would be taken by the next file
    opened, which a child would then inherit as its stdin."""
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:  # closed indeed: /dev/null takes its number
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        setattr(sys, name, open(fd, mode, closefd=False, encoding="utf-8", errors="backslashreplace"))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line read: argparse, then for doctor the tutor's options among its words."""
    asked_lang_among(sys.argv[1:] if argv is None else list(argv))
    args = _parser().parse_args(argv)
    if args.command == "doctor":
        doctor.take_tutor_options(args)
    return args


def main(argv: list[str] | None = None, clock: Clock | None = None) -> int:
    """The command line; `clock` is the learner's day for the review (tests move it)."""
    _open_closed_std_streams()
    _tolerate_narrow_encodings()
    args = parse_args(argv)
    lang = getattr(args, "lang", None) or lang_of()
    try:
        settings = resolve(args)  # once: flags, then JAXSTATE_TUTOR_*, then defaults (tutor.settings)
        lang = settings.lang
        return command(args.command)(Context(args, clock=clock, settings=settings))
    except UnknownUserHome as exc:
        print(show_controls(MSG.say("home_no_such_user", lang, where=exc.where)), file=sys.stderr)
        return exc.exit_code
    except TutorError as exc:  # the one handler: its words (they may quote an id, a path) and its code
        print(show_controls(pick(exc.message, lang)), file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
