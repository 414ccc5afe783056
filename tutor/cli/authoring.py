"""`verify`, `validate` and `schema`, the course author's checks: every solution passes and every
starter fails; the course YAML and its Markdown lint clean; the YAML's JSON Schema for editors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tutor.cli.context import Context
from tutor.cli.texts import say
from tutor.terminal.render import print_json


def cmd_verify(ctx: Context) -> int:
    """`verify`: every solution and starter. `verify ID...` is the author's loop for those
    exercises: validate's problems first, then their solution, starter and red-team cases. Each
    run is shown as it ends (tutor.cli.verify); --json's document comes at the end."""
    import sys
    import tempfile
    import time

    from tutor.cli.verify import RowLines, json_line
    from tutor.course.cases import CASES
    from tutor.course.verify import plan, verify

    ids = list(dict.fromkeys(ctx.args.ids or ())) or None
    problems = []
    cases = None
    if ids is not None:
        for exercise_id in ids:
            ctx.exercise(exercise_id)  # an unknown id is a usage error (exit 2), named with the known ones
        problems = _course_problems(ctx.course.root)
        if (ctx.course.root / CASES).is_dir():
            cases = ctx.course.root / CASES
    ctx.note_host()
    tasks = plan(ctx.course, ids, cases)
    lines_json = bool(getattr(ctx.args, "json_lines", False))
    as_json = ctx.args.json or lines_json
    # the runs as they end: on stdout, or on stderr where stdout holds a document
    con = ctx.console(stderr=as_json)
    if not as_json:
        for p in problems:
            print(p, flush=True)
    jobs = 1 if ctx.accelerator else 2
    con.print(say("verify_start", ctx.lang, runs=len(tasks), jobs=jobs), markup=False)
    started = time.monotonic()
    rows = []
    view = RowLines(con, ctx.lang, len(tasks))
    with tempfile.TemporaryDirectory(prefix="jaxstate-verify-home-") as home, view.showing():  # not the learner's home
        for row in verify(ctx.course, tasks, Path(home), jobs=jobs, accelerator=ctx.accelerator):
            rows.append(row)
            if lines_json:
                view.tick()
                json_line(row, view.done, len(tasks))
            else:
                view.row(row, details=not as_json)
    rows.sort(key=lambda r: r.index)
    bad = [r for r in rows if not r.ok]
    if as_json:
        print_json(
            {
                "ok": not bad and not problems,
                "results": [r.document() for r in rows],
                "duration_s": round(time.monotonic() - started, 3),
                **({"problems": [str(p) for p in problems]} if ids is not None else {}),
            }
        )
        sys.stdout.flush()
        return 1 if bad or problems else 0
    n = len(ids or ctx.course.exercises)
    if bad or problems:
        con.print(say("verify_bad", ctx.lang, n=len(bad) + len(problems)))
    else:
        con.print(say("verify_ok", ctx.lang, n=n))
    return 1 if bad or problems else 0


def cmd_validate(ctx: Context) -> int:
    root = ctx.args.path or ctx.settings.course
    if (root / "exercises").is_dir() or root.name == "lessons":
        root = root.parent  # accept the lessons folder itself
    problems = _course_problems(root)
    for p in problems:
        print(p)
    n_files = len(list((root / "lessons").rglob("*.yaml"))) if (root / "lessons").is_dir() else 0
    print(say("valid", ctx.lang, n=n_files) if not problems else say("problems", ctx.lang, n=len(problems)))
    return 1 if problems else 0


def cmd_schema(ctx: Context) -> int:
    """`schema`: the JSON Schema of the course's YAML files (tutor.course.schema), for editors."""
    import json

    from tutor.course.schema import json_schema

    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
    return 0


def _course_problems(root: Path) -> list[Any]:
    """Everything `validate` reports about the course at `root`."""
    from tutor.course import read_course
    from tutor.course.author_rules import author_problems

    course, problems = read_course(root, lint=True)
    return problems + author_problems(course, root)
