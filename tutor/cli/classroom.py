"""`export` (the learner's side: one file holding their progress and the files that passed) and
`grade DIR...` (the instructor's: every collected file re-judged in a fresh worker, one table).
The formats and the table are tutor.classroom's; this is the command line's glue."""

from __future__ import annotations

import argparse
import getpass
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.classroom.texts import say
from tutor.cli.arguments import Subcommands, seconds
from tutor.cli.context import Context, UsageError
from tutor.controls import show_controls
from tutor.i18n import pick
from tutor.protocol import RUN_STATUSES, word_in

if TYPE_CHECKING:  # each imported where it is first needed
    from datetime import datetime

    from tutor.classroom.grading import Judged, Row
    from tutor.classroom.roster import Learner
    from tutor.course.model import Exercise, Question
    from tutor.sandbox.bwrap import Bwrap
    from tutor.sandbox.runner import Sandbox

DEFAULT_NAME = "learner"
ISOLATIONS = ("auto", "bwrap", "fence")


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """The classroom's commands, the learner's two, then the instructor's two."""
    _export_parser(sub, common)
    _submit_parser(sub, common)
    _exchange_parser(sub, common)
    _grade_parser(sub, common)


def _export_parser(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """`export`: the learner's progress and files in one file for the instructor."""
    s = sub.add_parser(
        "export",
        parents=[common],
        help="write your progress and the files that passed into one file for your instructor",
        description="Write one JSON file holding your progress (as `progress --json` prints it), your "
        "checkpoint and quiz answers, which course it is of, and, for each exercise, the file that last passed "
        "(your current file where none passed). Your instructor runs `grade` on it, which re-runs every file "
        "and scores your first tries again from your answers.",
    )
    s.add_argument(
        "--out", type=Path, metavar="FILE", help="where to write it (default: ./jaxstate-tutor-export-NAME.json)"
    )
    s.add_argument(
        "--name",
        metavar="NAME",
        help="your name as the instructor's table shows it (default: your login name; under JupyterHub "
        "always your hub account's, JUPYTERHUB_USER)",
    )


def _submit_parser(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """`submit`: the same file handed in through the class's exchange folder."""
    s = sub.add_parser(
        "submit",
        parents=[common],
        help="hand in your export through your class's exchange folder (no file to pass around)",
        description="Write the same file as `export` into the exchange folder your instructor made (`--exchange "
        "DIR` or $JAXSTATE_TUTOR_EXCHANGE), named for your account (JupyterHub's name for it, else your Unix "
        "account) and the time. Only you and the instructor can read it; other learners cannot even list the "
        "folder. Submitting again replaces what you handed in before.",
    )
    s.add_argument(
        "--exchange", type=Path, metavar="DIR", help="the exchange folder (default: $JAXSTATE_TUTOR_EXCHANGE)"
    )


def _exchange_parser(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """`exchange init DIR`: the instructor makes the folder learners submit into."""
    s = sub.add_parser(
        "exchange",
        parents=[common],
        help="instructor: make the folder learners `submit` into",
        description="`exchange init DIR`: make DIR (or make an existing one right again) the class's exchange: "
        "owned by you and your group, mode 3773 (setgid, sticky, learners may write but not list). Each "
        "submission is 0640: its learner and your group read it. Collect with `grade --exchange DIR`.",
    )
    s.add_argument("action", choices=["init"], help="init: make DIR an exchange")
    s.add_argument("dir", type=Path, metavar="DIR")
    s.add_argument(
        "--group", metavar="NAME", help="the group that may read submissions: instructors only (default: yours)"
    )


def _grade_parser(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    """`grade`: the instructor re-judges every export and writes one table."""
    s = sub.add_parser(
        "grade",
        parents=[common],
        help="re-judge every learner's export in DIR... and write one table (CSV / JSON)",
        description="Read every export in the given folders (or export files given directly), re-run each "
        "exercise file in a fresh worker, and write one table: learner, exercise, status as re-judged, what "
        "the learner's progress claimed, and a flag on a claimed pass the re-run does not confirm ('forged or "
        "stale'). First-try quiz and checkpoint scores are scored again from the export's answers; a claimed "
        "score they do not give is flagged. An export of another course is refused, of another version of "
        "this course flagged. No progress file is believed. Without --csv or --json the CSV goes to stdout. "
        "Exit 0 when the table was written, 2 on bad usage.",
    )
    s.add_argument("dirs", nargs="*", type=Path, metavar="DIR", help="a folder of exports (or one export file)")
    s.add_argument(
        "--exchange",
        type=Path,
        metavar="DIR",
        help="collect from the exchange learners `submit` into: each account's latest submission, named by the "
        "account that handed it in (a DIR made by `exchange init` is read this way too)",
    )
    s.add_argument("--csv", type=Path, metavar="FILE", help="write the table as CSV")
    s.add_argument("--json", type=Path, metavar="FILE", help="write the table as JSON")
    s.add_argument("--timeout", type=seconds, help="seconds before one file's run is stopped (default: the exercise's)")
    s.add_argument(
        "--isolation",
        choices=ISOLATIONS,
        default="auto",
        help="what walls each file's run in: bwrap (bubblewrap: its own mount, network, IPC and PID "
        "namespaces; only the run folder, Python and the course's lessons in view), fence (the tutor's "
        "in-worker fence alone, as for `check`), auto (bwrap where it runs here, else fence; the default). "
        "The table's `isolation` column says which judged each row",
    )
    s.add_argument(
        "--wide",
        type=Path,
        metavar="FILE",
        help="write the gradebook as CSV, one line per learner: Student, ID, SIS User ID, SIS Login ID, Section, "
        "then each exercise's points (and each graded checkpoint's and the quiz's), then Total; the shape a "
        "Canvas or Moodle gradebook imports",
    )
    s.add_argument(
        "--roster",
        type=Path,
        metavar="FILE",
        help="the class list, a CSV whose first row names its columns: name, and optionally id, email, section. "
        "A learner with no export is shown missing; an export of no one on it, and a learner with two exports, "
        "are flagged",
    )
    s.add_argument(
        "--due",
        metavar="TIME",
        help="the due time (ISO-8601, UTC without an offset): later exports and passes are late",
    )


def _file_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or DEFAULT_NAME


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no such user in the password database (a container)
        return DEFAULT_NAME


def _learner_name(given: str | None, lang: str) -> str:
    """Whose export this is. Under JupyterHub the account says it (as for `submit`), so a learner
    cannot hand in under a classmate's name; elsewhere --name, else the login name."""
    import os

    from tutor.classroom.exchange import account_name

    if os.environ.get("JUPYTERHUB_USER", "").strip() or os.environ.get("JUPYTERHUB_API_TOKEN"):
        name = account_name()
        if given and given.strip() and given.strip() != name:
            print(say("export_hub_name", lang, name=name, given=given), file=sys.stderr)
        return name
    return given.strip() if given and given.strip() else _login_name()


def _write(path: Path, text: str, key: str, lang: str) -> None:
    from tutor.files.atomic import replace_atomically

    target = path.expanduser().absolute()
    try:
        replace_atomically(target, text.encode("utf-8"), target.with_name(f".{target.name}.tmp"))
    except OSError as exc:
        raise UsageError(say(key, lang, path=path, why=exc.strerror or str(exc))) from None


def _export_document(ctx: Context, name: str) -> dict[str, Any]:
    """The export of this learner's home, its notes said on stderr: what `export` and `submit` write."""
    from tutor import __version__
    from tutor.classroom.archive import collect
    from tutor.progress import utc_now
    from tutor.progress.reports import progress_document
    from tutor.terminal.render import SCHEMA_VERSION

    lang = ctx.lang
    state = ctx.state
    ctx.warn_progress()
    progress = {"schema_version": SCHEMA_VERSION, **progress_document(state)}
    got = collect(ctx.home, ctx.course, progress, name, __version__, utc_now())
    for exercise_id in got.latest_for_passed:
        print(say("export_latest", lang, id=exercise_id), file=sys.stderr)
    for exercise_id, why in got.left_out.items():
        print(say("export_unreadable", lang, id=exercise_id, why=pick(why, lang)), file=sys.stderr)
    return got.document


def _export_text(document: dict[str, Any]) -> str:
    import json

    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _counts(document: dict[str, Any]) -> dict[str, int]:
    files = document["files"]
    return {"n": len(files), "passed": sum(f["kind"] == "passed" for f in files.values())}


def cmd_export(ctx: Context) -> int:
    name = _learner_name(ctx.args.name, ctx.lang)
    document = _export_document(ctx, name)
    out = ctx.args.out or Path(f"jaxstate-tutor-export-{_file_name(name)}.json")
    _refuse_not_a_file(out, "export", ctx.lang)
    _refuse_not_this_export(out, name, ctx.home, ctx.lang)
    _write(out, _export_text(document), "export_cannot_write", ctx.lang)
    print(say("exported", ctx.lang, path=out, **_counts(document)))
    return 0


def _exchange_of(ctx: Context) -> Path | None:
    given = ctx.settings.exchange  # --exchange, else JAXSTATE_TUTOR_EXCHANGE
    return given.expanduser() if given else None


def cmd_submit(ctx: Context) -> int:
    """The export, written into the exchange under the account's name: no name is typed."""
    from tutor.classroom import exchange

    folder = _exchange_of(ctx)
    if folder is None:
        raise UsageError(say("submit_no_exchange", ctx.lang))
    account = exchange.account_name()
    document = _export_document(ctx, account)
    try:
        path = exchange.submit(folder, _export_text(document).encode("utf-8"), account)
    except exchange.ExchangeError as exc:
        raise UsageError("submit: " + say(exc.key, ctx.lang, **exc.fields)) from None
    print(say("submitted", ctx.lang, account=account, path=path, **_counts(document)))
    return 0


def cmd_exchange(ctx: Context) -> int:
    import stat

    from tutor.classroom import exchange

    try:
        folder = exchange.init(ctx.args.dir, ctx.args.group)
    except exchange.ExchangeError as exc:
        raise UsageError("exchange: " + say(exc.key, ctx.lang, **exc.fields)) from None
    import grp  # POSIX only: init said so elsewhere

    st = folder.stat()
    mode = f"{stat.S_IMODE(st.st_mode):04o}"
    print(say("exchange_made", ctx.lang, path=folder, mode=mode, group=grp.getgrgid(st.st_gid).gr_name))
    return 0


def _exports_in(paths: list[Path], lang: str) -> list[tuple[Path, object]]:
    """Every candidate file, as `_to_grade`'s items: each folder's visible files (not its
    subfolders), and each file named directly. A symbolic link in a folder is not followed (a
    hand-in `bob.json -> ~/2025/carol.json` would have graded a file of the instructor's as bob's):
    its row says so. A missing path is bad usage, found before anything is run."""
    found: list[tuple[Path, object]] = []
    for path in paths:
        if path.is_dir():
            try:
                entries = sorted(path.iterdir())
            except OSError as exc:
                raise UsageError(say("grade_cannot_list", lang, path=path, why=exc.strerror or str(exc))) from None
            for p in entries:
                if p.name.startswith("."):
                    continue
                if p.is_symlink():
                    found.append((p, ("grade_link_not_followed", {"target": _link_target(p)})))
                elif not p.is_dir():
                    found.append((p, None))
        elif path.exists() or path.is_symlink():
            found.append((path, None))
        else:
            raise UsageError(say("grade_no_dir", lang, path=path))
    return found


def _link_target(path: Path) -> str:
    from tutor.controls import show_controls

    try:
        return show_controls(os.readlink(path))  # a learner chose it: no escape sequence reaches the terminal
    except OSError:
        return "?"


def _to_grade(ctx: Context) -> list[tuple[Path, object]]:
    """What `grade` reads, in order: (path, None) for an export collected by hand, (path,
    Submission) for an exchange's latest file of an account, (path, (key, fields)) for a file of an
    exchange that was not taken. A DIR made by `exchange init` is read as an exchange."""
    from tutor.classroom import exchange

    args, lang = ctx.args, ctx.lang
    folders = [args.exchange] if args.exchange is not None else []
    if not folders and not args.dirs:
        folder = _exchange_of(ctx)
        if folder is None:
            raise UsageError(say("grade_nothing_given", lang))
        folders.append(folder)
    by_hand: list[Path] = []
    for path in args.dirs:
        (folders if path.is_dir() and exchange.is_exchange(path) else by_hand).append(path)
    items: list[tuple[Path, object]] = _exports_in(by_hand, lang) if by_hand else []
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(say("grade_no_dir", lang, path=folder))
        try:
            got = exchange.collect(folder)
        except exchange.ExchangeError as exc:
            raise UsageError("grade: " + say(exc.key, lang, **exc.fields)) from None
        for path, key, fields in got.refused:
            items.append((path, (key, fields)))
        for sub in got.submissions:
            if sub.earlier:
                print(
                    say("exchange_earlier", lang, account=sub.account, n=len(sub.earlier), path=sub.path),
                    file=sys.stderr,
                )
            items.append((sub.path, sub))
    return items


def _refuse_outputs_without_a_folder(args: argparse.Namespace, lang: str) -> None:
    """`grade`'s --csv, --json and --wide each go into a folder that exists (said before any run)."""
    for out in (args.csv, args.json, args.wide):
        if out is not None and not out.expanduser().absolute().parent.is_dir():
            raise UsageError(say("grade_cannot_write", lang, path=out, why="its folder does not exist"))


def _due(args: argparse.Namespace, lang: str) -> datetime | None:
    """`grade --due`'s time (None without it); a text that is no time is refused."""
    from tutor.classroom import gradebook

    due = gradebook.parse_time(args.due) if args.due is not None else None
    if args.due is not None and due is None:
        raise UsageError(say("grade_bad_due", lang, value=args.due))
    return due


def cmd_grade(ctx: Context) -> int:
    from dataclasses import replace

    from tutor.classroom import gradebook, table
    from tutor.classroom.archive import ExportError, read_export
    from tutor.classroom.exchange import Submission
    from tutor.classroom.grading import grade_export, unreadable_row

    lang, args = ctx.lang, ctx.args
    _refuse_outputs_without_a_folder(args, lang)
    due = _due(args, lang)
    roster = _roster(args.roster, lang)
    items = _to_grade(ctx)
    collected = [*args.dirs, *filter(None, [args.exchange or (None if args.dirs else _exchange_of(ctx))])]
    outs = [out for out in (args.csv, args.json, args.wide) if out is not None]
    for out in outs:
        _refuse_not_theirs(out, collected, [path for path, _ in items], lang)
    if len({out.expanduser().resolve() for out in outs}) < len(outs):  # the last written would replace the others
        raise UsageError(say("out_twice", lang, paths=", ".join(map(str, outs))))
    course = ctx.course
    rows: list[Row] = []
    hands: list[gradebook.Hand] = []
    judge = _Judge(ctx, args.timeout, lang, _isolation(ctx, args.isolation, collected))
    try:
        for path, how in items:
            if isinstance(how, tuple):  # a file not taken (an exchange's link or hard link, a folder's link)
                why = say(how[0], lang, **how[1])
                print(say("grade_problem", lang, path=path, why=why), file=sys.stderr)
                rows.append(unreadable_row(path, why))
                continue
            try:
                export = read_export(path)
            except ExportError as exc:
                why = say(exc.key, lang, **exc.fields)
                print(say("grade_problem", lang, path=path, why=why), file=sys.stderr)
                rows.append(unreadable_row(path, why))
                key = gradebook.learner_key_of_unreadable(path.stem)
                hands.append(gradebook.Hand(path.name, key, rows[-1:], {}, readable=False))
                continue
            notes: list[str] = []
            if isinstance(how, Submission):  # who handed it in is the file's owner, not what it says
                if export.learner != how.account:
                    notes.append(say("exchange_named_other", lang, named=export.learner, account=how.account))
                notes.append(say("exchange_handed_in", lang, account=how.account, when=how.submitted_at))
                export = replace(export, learner=how.account)
            graded = grade_export(export, course, judge, lang, on_row=_said(lang), shown=judge.shown)
            parts = gradebook.fill_export(graded, export, course, export.exported_at)
            for row in graded:
                row.notes += notes
                row.submitted_at = how.submitted_at if isinstance(how, Submission) else ""
            hands.append(gradebook.Hand(path.name, export.learner, graded, parts))
            rows += graded
    finally:
        judge.close()
    if not items:
        where = [str(p) for p in args.dirs] + ([str(args.exchange)] if args.exchange else [])
        print(say("grade_nothing", lang, dirs=", ".join(where)), file=sys.stderr)
    rows += gradebook.mark_roster(hands, roster, course, lang)
    gradebook.mark_similar(rows, course, lang)
    if due is not None:
        gradebook.mark_late(rows, due, lang)
    counts = gradebook.summary(rows)
    if args.csv is None and args.json is None and args.wide is None:
        sys.stdout.write(table.csv_text(rows))
    wide = gradebook.wide(rows, course, roster, {h.export: h.parts for h in hands}) if args.wide else []
    for out, text in (
        (args.csv, table.csv_text(rows) if args.csv else ""),
        (args.json, table.json_text(rows, counts) if args.json else ""),
        (args.wide, table.wide_csv_text(wide)),
    ):
        if out is not None:
            _write(out, text, "grade_cannot_write", lang)
            print(say("grade_wrote", lang, path=out), file=sys.stderr)
    print(say("grade_done", lang, **counts), file=sys.stderr)
    if roster is not None:
        print(say("grade_roster_done", lang, **counts), file=sys.stderr)
    print(say("grade_honesty_done", lang, **counts), file=sys.stderr)
    return 0


def _refuse_not_a_file(out: Path, command: str, lang: str) -> None:
    """An output replaces only a regular file (or nothing): never a folder, a device, a pipe, a socket or a link."""
    import stat

    try:
        mode = os.lstat(out.expanduser()).st_mode
    except OSError:
        return  # nothing there (or nothing we can see): the write says what goes wrong
    if stat.S_ISREG(mode):
        return
    what = next(
        (
            w
            for test, w in (
                (stat.S_ISDIR, "folder"),
                (stat.S_ISLNK, "link"),
                (stat.S_ISCHR, "device"),
                (stat.S_ISBLK, "device"),
                (stat.S_ISFIFO, "pipe"),
                (stat.S_ISSOCK, "socket"),
            )
            if test(mode)
        ),
        "special file",
    )
    raise UsageError(say("out_not_a_file", lang, command=command, path=out, what=say(f"kind_{what}", lang)))


def _refuse_not_theirs(out: Path, dirs: list[Path], exports: list[Path], lang: str) -> None:
    """The table never lands among the learners' hand-ins, nor on an export anywhere: `grade DIR --csv
    DIR/alice.json` replaced alice's submission (issue 50)."""
    _refuse_not_a_file(out, "grade", lang)
    target = out.expanduser().resolve()
    for folder in dirs:
        where = folder.expanduser().resolve()
        if folder.is_dir() and (target == where or where in target.parents):
            raise UsageError(say("out_in_collected", lang, path=out, dir=folder))
    if target in {p.expanduser().resolve() for p in exports} or _is_export(target):
        raise UsageError(say("out_is_export", lang, path=out))


def _refuse_not_this_export(out: Path, learner: str, home: Path, lang: str) -> None:
    """An export replaces only a file of its own: never a file the home holds (the tutor's progress.json,
    the learner's code: `export --out ~/.../progress.json` replaced the progress with the export), nor
    another learner's export (bob's `export --out collected/alice.json` replaced alice's hand-in; issue
    50's third red team)."""
    target = out.expanduser().resolve()
    if not target.is_file():
        return
    where = Path(home).expanduser().resolve()
    if where in target.parents:
        raise UsageError(say("export_over_home", lang, path=out, home=home))
    named = _export_learner(target)
    if named is not None and named != learner:
        raise UsageError(say("export_over_other", lang, path=out, learner=named))


def _export_learner(path: Path) -> str | None:
    """The learner an existing export names, or None where the file is not an export."""
    import json

    from tutor.classroom.archive import FORMAT, MAX_EXPORT_BYTES

    try:
        if not path.is_file() or path.stat().st_size > MAX_EXPORT_BYTES:
            return None
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    return str(data.get("learner", ""))


def _is_export(path: Path) -> bool:
    """Whether an existing file is a learner's export (whatever its version or state beyond its format tag)."""
    return _export_learner(path) is not None


def _isolation(ctx: Context, asked: str, dirs: list[Path]) -> Bwrap | None:
    """The wall each file runs in: a `Bwrap`, or None for the in-worker fence alone. bwrap is tried
    once, here (a container or gVisor may have it installed and still refuse its namespaces); asked
    for and unusable, it is bad usage naming why; under `auto`, a note on stderr says what judged."""
    if asked == "fence":
        return None
    from tutor import host
    from tutor.sandbox.bwrap import Bwrap

    root = ctx.settings.course.absolute()
    program = host.find_bwrap()
    wall = None
    why, detail = "missing", ""
    if program is not None:
        hidden = (root / "solutions", ctx.home, Path.home(), *(d.expanduser().absolute() for d in dirs))
        wall = Bwrap(
            program, lessons=(str(root / "lessons"),), hidden=tuple(map(str, hidden)), accelerator=ctx.accelerator
        )
        why, detail = host.bwrap_usable(wall.prefix(tempfile.gettempdir()))
    if not why:
        return wall
    if asked == "bwrap":
        raise UsageError(say(f"isolation_{why}", lang=ctx.lang, detail=detail))
    print(
        say("isolation_fallback", ctx.lang, why=say(f"isolation_{why}_short", ctx.lang, detail=detail)), file=sys.stderr
    )
    return None


def _roster(path: Path | None, lang: str) -> list[Learner] | None:
    """The roster's learners (None: no --roster); one that cannot be used is bad usage, said before
    anything runs."""
    if path is None:
        return None
    from tutor.classroom.roster import RosterError, read_roster

    try:
        return read_roster(path)
    except RosterError as exc:
        raise UsageError(say(exc.key, lang, **exc.fields)) from None


def _said(lang: str) -> Callable[[Row], None]:
    def on_row(row: Row) -> None:
        if row.status == "missing" and not row.claimed:  # a row per exercise of the course: not each said
            return
        print(say("grade_progress", lang, learner=row.learner, id=row.exercise, status=row.status), file=sys.stderr)

    return on_row


class _Judge:
    """Re-runs one file: a fresh worker per file, each forked from a server that never ran learner
    code (the JAX import is paid once, not per file), with `check`'s limits. The sandbox starts
    at the first file, so a folder of unreadable exports starts no worker."""

    def __init__(self, ctx: Context, timeout: float | None, lang: str, wall: Bwrap | None = None):
        self.ctx, self.timeout, self.lang = ctx, timeout, lang
        self.wall = wall  # a tutor.sandbox.bwrap.Bwrap, or None: the in-worker fence alone
        self.isolation = wall.name if wall is not None else "fence"
        self.sandbox: Sandbox | None = None  # made at the first file to run
        self.printed: dict[tuple[str, int], str | None] = {}  # a template variant's answer, run once a grade

    def _sandbox(self) -> Sandbox:
        if self.sandbox is None:
            from tutor.sandbox.runner import Sandbox

            self.ctx.note_host()
            self.sandbox = Sandbox(
                self.ctx.home,
                accelerator=self.ctx.accelerator,
                fork_server=True,
                adopt_orphans=True,
                isolation=self.wall,
                course=self.ctx.settings.course,
                strangers=True,
            )
        return self.sandbox

    def shown(self, question: Question, variant: int) -> str | None:
        """What variant `variant` of a template question prints as its answer, as the TUI judged
        the learner's number against: its code run in a worker (once per variant), then `reveal`."""
        template = question.template
        if template is None:  # a lettered question: its answer is the course's, nothing is printed
            return None
        key = (question.id, variant)
        if key not in self.printed:
            try:
                verdict = self._sandbox().run_cell(template.cell(question.id, variant)).result()
            except OSError:
                verdict = None
            passed = verdict is not None and verdict.status == "pass"
            self.printed[key] = template.shown(verdict.stdout) if passed and verdict else None
        return self.printed[key]

    def __call__(self, exercise: Exercise, source: str) -> Judged:
        from tutor.classroom.grading import Judged

        try:
            verdict = self._sandbox().run_exercise(exercise, source, f"{exercise.id}.py", self.timeout).result()
        except OSError as exc:  # the run folder could not be written (a full disk)
            why = say("run_failed", self.lang, why=exc.strerror or str(exc))
            return Judged("error", 0, len(exercise.checks), why, self.isolation)
        passed = sum(c.status == "pass" for c in verdict.checks)
        lines = verdict.message.get(self.lang).strip().splitlines()
        why = "" if verdict.passed else (lines[0] if lines else verdict.kind)
        failed = next((c for c in verdict.checks if c.status in ("fail", "error")), None)
        if failed is not None:  # which check, and its first line: what a grader reads first
            said = failed.message.get(self.lang).strip().splitlines()
            why += f" (first: {failed.id}: {said[0] if said else failed.status})"
        why = show_controls(why)
        # an exercise's verdict has a run's status (a doctor run's report's statuses never come here)
        status = word_in(RUN_STATUSES, verdict.status, "error")
        return Judged(status, passed, len(exercise.checks), why, self.isolation)

    def close(self) -> None:
        if self.sandbox is not None:
            self.sandbox.close()
