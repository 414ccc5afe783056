"""`export` (the learner's side: one file holding their progress and the files that passed) and
`grade DIR...` (the instructor's: every collected file re-judged in a fresh worker, one table).
The formats and the table are tutor.classroom's; this is the command line's glue."""

from __future__ import annotations

import argparse
import getpass
import re
import sys
from pathlib import Path

from tutor.classroom.texts import say
from tutor.cli_commands.context import Context, UsageError
from tutor.controls import show_controls
from tutor.i18n import pick

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
    from tutor.atomic import replace_atomically

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
    from tutor.render import SCHEMA_VERSION

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
    sandbox = None
    try:
        for path in paths:
            try:
                export = read_export(path)
            except ExportError as exc:
                why = say(exc.key, lang, **exc.fields)
                print(say("grade_problem", lang, path=path, why=why), file=sys.stderr)
                rows.append(unreadable_row(path, why))
                continue
            if sandbox is None:
                sandbox = _sandbox(ctx)
            rows += grade_export(export, course, _judge(sandbox, args.timeout, lang), lang, on_row=_said(lang))
    finally:
        if sandbox is not None:
            sandbox.close()
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


def _sandbox(ctx: Context):
    """Fresh workers, one per file, each forked from a server that never ran learner code (the
    JAX import is paid once, not per file); the limits are `check`'s."""
    from tutor.sandbox.runner import Sandbox

    ctx.note_host()
    return Sandbox(ctx.home, accelerator=ctx.accelerator, fork_server=True, adopt_orphans=True)


def _judge(sandbox, timeout: float | None, lang: str):
    from tutor.classroom.grading import Judged

    def judge(exercise, source: str) -> Judged:
        try:
            verdict = sandbox.run_exercise(exercise, source, f"{exercise.id}.py", timeout).result()
        except OSError as exc:  # the run folder could not be written (a full disk)
            return Judged("error", 0, len(exercise.checks), say("run_failed", lang, why=exc.strerror or str(exc)))
        passed = sum(c.status == "pass" for c in verdict.checks)
        why = (
            ""
            if verdict.passed
            else show_controls(
                verdict.message.get(lang).strip().splitlines()[0] if verdict.message.get(lang).strip() else verdict.kind
            )
        )
        return Judged(verdict.status, passed, len(exercise.checks), why)

    return judge
