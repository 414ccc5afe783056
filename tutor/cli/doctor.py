"""`jaxstate-tutor doctor SCRIPT [ARGS...]`, the command line's glue: its argparse entry, the
learner's Ctrl+C, the script's output passed through live, then the report printed (text in
the learner's language, or the `doctor --json` object of docs/CONTRACTS.md). Options, running and
wording are tutor.doctor's, shared with the TUI.

Exit codes: 0 no finding, 1 findings, 2 bad usage (no such script, a folder, not a .py file or a notebook),
3 the script failed or hit the time limit, 130 stopped by Ctrl+C (like `check` and `watch`; the
report of what was seen until then is still printed).

No JAX here: the probe runs in the worker; this side only reads events.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from tutor.cli.arguments import Subcommands
from tutor.doctor import options
from tutor.i18n import pick, table

if TYPE_CHECKING:
    from tutor.cli.context import Context
    from tutor.doctor.findings import Report
    from tutor.sandbox.run import Run

INTERRUPTED = 130  # what a shell expects from a program stopped by SIGINT, as `check` / `watch`

MSG = table(
    {
        "no_cwd": {
            "en": "doctor: the current folder no longer exists (was it deleted?); cd into a folder that exists and run it again.",
            "zh": "doctor：当前文件夹已经不存在了（被删除了？）；请 cd 到一个存在的文件夹，再运行一次。",
        },
        "usage": {"en": "doctor: {problem}", "zh": "doctor：{problem}"},
        "stopping": {
            "en": "\ndoctor: stopping the script (Ctrl+C again kills it without a report)...",
            "zh": "\ndoctor：正在停止脚本（再按一次 Ctrl+C 将直接结束，不出报告）……",
        },
        "no_report": {
            "en": "doctor: no report: {why}",
            "zh": "doctor：没有报告：{why}",
        },
    }
)


say = MSG.say


class _AsWritten(argparse.Action):
    """A doctor option met before SCRIPT: argparse keeps it as written, for options.parse to
    read with the words after it (argparse knows the names only to show them in --help)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        value = [values] if isinstance(values, str) else list(values or [])  # -m: the module and every word after it
        namespace.doctor_words = [*namespace.doctor_words, option_string, *value]


def add_parser(sub: Subcommands, common: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The `doctor` subcommand: every word after it is read by tutor.doctor.options.parse."""
    s = sub.add_parser(
        "doctor",
        parents=[common],
        help="run your own script and report state problems",
        description="Run your own JAX script with instrumentation on and report retraces, "
        "reused keys, side effects under tracing, donation problems, host syncs "
        "in hot loops (and NaNs with --nans). The tutor's options --accelerator, --home and "
        "--lang are read anywhere before `--`, after SCRIPT too (doctor train.py --epochs 3 "
        "--accelerator); a script option of the same name goes after `--` (doctor train.py -- "
        "--lang fr). --json, --timeout and --nans may stand before SCRIPT or as the last words; "
        "one followed by a word of the script's is the script's; after SCRIPT, one whose name the script "
        "declares itself (argparse, absl) is refused as ambiguous. Everything after `--` is the "
        "script's. Exit 0 no finding, 1 findings, 2 bad usage, 3 the script failed or timed out, "
        "130 Ctrl+C.",
    )
    s.add_argument(
        "words",
        nargs=argparse.REMAINDER,
        metavar="SCRIPT [ARGS...]",
        help="the Python script to run, and its arguments",
    )
    s.add_argument(
        "-m",
        nargs=argparse.REMAINDER,
        action=_AsWritten,
        metavar="MODULE",
        help="run a module as `python -m MODULE` does",
    )
    for option in options.OPTIONS:
        if option.name == "--lang":
            continue  # before SCRIPT it is the global option; after it, the doctor's
        nargs = 0 if option.value is None else None
        s.add_argument(option.name, action=_AsWritten, nargs=nargs, metavar=option.value, help=option.help)
    s.set_defaults(doctor_words=[])
    return s


class GracefulStop:
    """While a run goes: the first Ctrl+C asks it to stop (the report still comes), the second
    kills it. Installed only in the main thread (where Python delivers signals)."""

    def __init__(self, run: Run, lang: str):
        self.run, self.lang = run, lang
        self.asked = False
        self._old: Callable[[int, FrameType | None], Any] | int | None = None  # signal.signal's

    def __enter__(self) -> GracefulStop:
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        if self.asked:
            self.run.cancel()
            return
        self.asked = True
        print(say("stopping", self.lang), file=sys.stderr, flush=True)
        # stop() waits for the report (up to a few seconds): not in the signal handler
        threading.Thread(target=self.run.stop, name="doctor-stop", daemon=True).start()


def _titles(ctx: Context) -> dict[str, str]:
    """Lesson titles for the report, if the course loads (the report stands without them)."""
    try:
        return {lesson.id: lesson.title.get(ctx.lang) for lesson in ctx.course.lessons}
    except Exception:  # noqa: BLE001 - a broken course must not hide the learner's report
        return {}


def _taught(ctx: Context) -> dict[str, tuple[str, str]]:
    """Where the course teaches each finding's fix (its cells' `teaches:`; none unless
    lessons/course.yaml says doctor: true). A course that does not load names none."""
    try:
        return ctx.course.teachings()
    except Exception:  # noqa: BLE001 - a broken course must not hide the learner's report
        return {}


def exit_code(report: Report, stopped: bool) -> int:
    return INTERRUPTED if stopped else report.cli_exit_code()


def options_of(args: argparse.Namespace) -> options.DoctorOptions:
    """The doctor's options from what argparse kept: the words before SCRIPT, then the rest."""
    return options.parse([*args.doctor_words, *args.words], tutor_options=True)


def take_tutor_options(args: argparse.Namespace) -> None:
    """The tutor's --accelerator, --home and --lang met among the words argparse left to the
    doctor (after SCRIPT, before `--`) go into `args` as if written before `doctor`, so the
    Context built from `args` has them (the last one written wins, as in argparse). Words that
    make no run are left for `run` to report."""
    try:
        asked = options_of(args)
    except options.OptionsError:
        return
    if asked.accelerator:
        args.accelerator = True
    if asked.home is not None:
        args.home = asked.home
    if asked.lang is not None:
        args.lang = asked.lang


def run(ctx: Context) -> int:
    """The `doctor` command; returns the exit code."""
    try:
        asked = options_of(ctx.args)
    except options.OptionsError as exc:
        print(say("usage", ctx.lang, problem=pick(exc.message, ctx.lang)), file=sys.stderr)
        return 2
    lang = asked.lang or ctx.lang
    try:
        cwd = Path.cwd()  # the script runs where the learner is, as under `python script.py`
    except FileNotFoundError:
        print(say("no_cwd", lang), file=sys.stderr)
        return 2
    problem = None if asked.module else options.script_problem(asked.script)
    if problem:
        print(say("usage", lang, problem=pick(problem, lang)), file=sys.stderr)
        return 2

    # Here, not at the top: every command line parses doctor's options, few run it.
    from tutor.doctor import running
    from tutor.doctor.report_json import report_json
    from tutor.doctor.report_text import render_text
    from tutor.sandbox.events import Output
    from tutor.sandbox.runner import Sandbox
    from tutor.terminal.text_wrap import for_terminal

    ctx.note_host()
    sandbox = Sandbox(ctx.home, accelerator=ctx.accelerator, course=ctx.settings.course)
    try:
        job = running.start_doctor(sandbox, asked, cwd, stdin_fd=0)  # the script reads our stdin, as under python
        with GracefulStop(job, lang) as stop:
            for event in job.events():
                if not asked.json and isinstance(event, Output):
                    stream = sys.stdout if event.stream == "stdout" else sys.stderr
                    stream.write(event.text)
                    stream.flush()
            stopped = stop.asked
        verdict = job.verdict
    finally:
        sandbox.close()
    report = running.report_of(verdict, asked.script.name)
    if asked.json:
        from tutor.terminal.render import print_json

        print_json(report_json(report, lang, _taught(ctx)))
        return exit_code(report, stopped)
    sys.stdout.flush()
    if verdict.report is None:
        print(say("no_report", lang, why=pick(verdict.message, lang)), file=sys.stderr)
    text = render_text(report, lang, _titles(ctx), stopped=stopped, taught=_taught(ctx))
    print("\n" + for_terminal(text, sys.stdout), flush=True)
    return exit_code(report, stopped)
