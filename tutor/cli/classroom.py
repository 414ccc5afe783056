"""`export` (the learner's side: one file holding their progress and the files that passed) and
`grade DIR...` (the instructor's: every collected file re-judged in a fresh worker, one table).
The formats and the table are tutor.classroom's; this is the command line's glue."""

from __future__ import annotations

import argparse
import getpass
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.classroom.texts import say
from tutor.cli.context import Context, UsageError
from tutor.controls import show_controls
from tutor.i18n import pick

if TYPE_CHECKING:
    from tutor.sandbox.runner import Sandbox  # imported when the first file runs

DEFAULT_NAME = "learner"


def add_parsers(sub, common: argparse.ArgumentParser, seconds) -> None:
    s = sub.add_parser(
        "export",
        parents=[common],
        help="write your progress and the files that passed into one file for your instructor",
        description="Write one JSON file holding your progress (as `progress --json` prints it, first-try "
        "scores included) and, for each exercise, the file that last passed (your current file where none "
        "passed). Your instructor runs `grade` on it, which re-runs every file.",
    )
    s.add_argument(
        "--out", type=Path, metavar="FILE", help="where to write it (default: ./jaxstate-tutor-export-NAME.json)"
    )
    s.add_argument(
        "--name", metavar="NAME", help="your name as the instructor's table shows it (default: your login name)"
    )
    s = sub.add_parser(
        "grade",
        parents=[common],
        help="re-judge every learner's export in DIR... and write one table (CSV / JSON)",
        description="Read every export in the given folders (or export files given directly), re-run each "
        "exercise file in a fresh worker, and write one table: learner, exercise, status as re-judged, what "
        "the learner's progress claimed, and a flag on a claimed pass the re-run does not confirm ('forged or "
        "stale'). First-try quiz and checkpoint scores are the learner's claim, marked unverified. No progress "
        "file is believed. Without --csv or --json the CSV goes to stdout. Exit 0 when the table was written, "
        "2 on bad usage.",
    )
    s.add_argument("dirs", nargs="+", type=Path, metavar="DIR", help="a folder of exports (or one export file)")
    s.add_argument("--csv", type=Path, metavar="FILE", help="write the table as CSV")
    s.add_argument("--json", type=Path, metavar="FILE", help="write the table as JSON")
    s.add_argument("--timeout", type=seconds, help="seconds before one file's run is stopped (default: the exercise's)")


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or DEFAULT_NAME


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no such user in the password database (a container)
        return DEFAULT_NAME


def _write(path: Path, text: str, key: str, lang: str) -> None:
    from tutor.files.atomic import replace_atomically

    target = path.expanduser().absolute()
    try:
        replace_atomically(target, text.encode("utf-8"), target.with_name(f".{target.name}.tmp"))
    except OSError as exc:
        raise UsageError(say(key, lang, path=path, why=exc.strerror or str(exc))) from None


def cmd_export(ctx: Context) -> int:
    from tutor import __version__
    from tutor.classroom.archive import collect
    from tutor.progress import utc_now
    from tutor.progress.reports import progress_document
    from tutor.terminal.render import SCHEMA_VERSION

    lang = ctx.lang
    state = ctx.state
    ctx.warn_progress()
    name = ctx.args.name if ctx.args.name and ctx.args.name.strip() else _login_name()
    progress = {"schema_version": SCHEMA_VERSION, **progress_document(state)}
    got = collect(ctx.home, ctx.course, progress, name, __version__, utc_now())
    for exercise_id in got.latest_for_passed:
        print(say("export_latest", lang, id=exercise_id), file=sys.stderr)
    for exercise_id, why in got.left_out.items():
        print(say("export_unreadable", lang, id=exercise_id, why=pick(why, lang)), file=sys.stderr)
    import json

    out = ctx.args.out or Path(f"jaxstate-tutor-export-{_file_name(name)}.json")
    _write(out, json.dumps(got.document, indent=1, ensure_ascii=False) + "\n", "export_cannot_write", lang)
    files = got.document["files"]
    passed = sum(f["kind"] == "passed" for f in files.values())
    print(say("exported", lang, path=out, n=len(files), passed=passed))
    return 0


def _exports_in(paths: list[Path], lang: str) -> list[Path]:
    """Every candidate file: each folder's visible regular files (not its subfolders), and each
    file named directly. A missing path is bad usage, found before anything is run."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            try:
                entries = sorted(path.iterdir())
            except OSError as exc:
                raise UsageError(say("grade_cannot_list", lang, path=path, why=exc.strerror or str(exc))) from None
            found += [p for p in entries if not p.name.startswith(".") and not p.is_dir()]
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise UsageError(say("grade_no_dir", lang, path=path))
    return found


def cmd_grade(ctx: Context) -> int:
    from tutor.classroom import table
    from tutor.classroom.archive import ExportError, read_export
    from tutor.classroom.grading import Row, grade_export, summary, unreadable_row

    lang, args = ctx.lang, ctx.args
    for out in (args.csv, args.json):
        if out is not None and not out.expanduser().absolute().parent.is_dir():
            raise UsageError(say("grade_cannot_write", lang, path=out, why="its folder does not exist"))
    paths = _exports_in(args.dirs, lang)
    course = ctx.course
    rows: list[Row] = []
    judge = _Judge(ctx, args.timeout, lang)
    try:
        for path in paths:
            try:
                export = read_export(path)
            except ExportError as exc:
                why = say(exc.key, lang, **exc.fields)
                print(say("grade_problem", lang, path=path, why=why), file=sys.stderr)
                rows.append(unreadable_row(path, why))
                continue
            rows += grade_export(export, course, judge, lang, on_row=_said(lang))
    finally:
        judge.close()
    if not paths:
        print(say("grade_nothing", lang, dirs=", ".join(map(str, args.dirs))), file=sys.stderr)
    counts = summary(rows)
    if args.csv is None and args.json is None:
        sys.stdout.write(table.csv_text(rows))
    for out, text in (
        (args.csv, table.csv_text(rows) if args.csv else ""),
        (args.json, table.json_text(rows, counts) if args.json else ""),
    ):
        if out is not None:
            _write(out, text, "grade_cannot_write", lang)
            print(say("grade_wrote", lang, path=out), file=sys.stderr)
    print(say("grade_done", lang, **counts), file=sys.stderr)
    return 0


def _said(lang: str):
    def on_row(row) -> None:
        print(say("grade_progress", lang, learner=row.learner, id=row.exercise, status=row.status), file=sys.stderr)

    return on_row


class _Judge:
    """Re-runs one file: a fresh worker per file, each forked from a server that never ran learner
    code (the JAX import is paid once, not per file), with `check`'s limits. The sandbox starts
    at the first file, so a folder of unreadable exports starts no worker."""

    def __init__(self, ctx: Context, timeout: float | None, lang: str):
        self.ctx, self.timeout, self.lang = ctx, timeout, lang
        self.sandbox: Sandbox | None = None  # made at the first file to run

    def __call__(self, exercise, source: str):
        from tutor.classroom.grading import Judged

        if self.sandbox is None:
            from tutor.sandbox.runner import Sandbox

            self.ctx.note_host()
            self.sandbox = Sandbox(
                self.ctx.home, accelerator=self.ctx.accelerator, fork_server=True, adopt_orphans=True
            )
        try:
            verdict = self.sandbox.run_exercise(exercise, source, f"{exercise.id}.py", self.timeout).result()
        except OSError as exc:  # the run folder could not be written (a full disk)
            why = say("run_failed", self.lang, why=exc.strerror or str(exc))
            return Judged("error", 0, len(exercise.checks), why)
        passed = sum(c.status == "pass" for c in verdict.checks)
        lines = verdict.message.get(self.lang).strip().splitlines()
        why = "" if verdict.passed else (lines[0] if lines else verdict.kind)
        failed = next((c for c in verdict.checks if c.status in ("fail", "error")), None)
        if failed is not None:  # which check, and its first line: what a grader reads first
            said = failed.message.get(self.lang).strip().splitlines()
            why += f" (first: {failed.id}: {said[0] if said else failed.status})"
        why = show_controls(why)
        return Judged(verdict.status, passed, len(exercise.checks), why)

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
