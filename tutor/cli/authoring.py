"""`verify`, `validate` and `schema`, the course author's checks: every solution passes and every
starter fails; the course YAML and its Markdown lint clean; the YAML's JSON Schema for editors."""

from __future__ import annotations

from pathlib import Path

from tutor.cli.context import Context
from tutor.cli.texts import say
from tutor.terminal.render import print_json


def cmd_verify(ctx: Context) -> int:
    """`verify`: every solution and starter. `verify ID...` is the author's loop for those
    exercises: validate's problems first, then their solution, starter and red-team cases."""
    import tempfile

    from tutor.cli.verify import verify_course

    ids = list(dict.fromkeys(ctx.args.ids or ())) or None
    problems = []
    cases = None
    if ids is not None:
        for exercise_id in ids:
            ctx.exercise(exercise_id)  # an unknown id is a usage error (exit 2), named with the known ones
        problems = _course_problems(ctx.course.root)
        if (ctx.course.root / "tests" / "cases").is_dir():
            cases = ctx.course.root / "tests" / "cases"
    ctx.note_host()
    with tempfile.TemporaryDirectory(prefix="jaxstate-verify-home-") as home:  # not the learner's home
        results = verify_course(ctx.course, Path(home), accelerator=ctx.accelerator, ids=ids, cases=cases)
    bad = [r for r in results if not r["ok"]]
    if ctx.args.json:
        print_json(
            {
                "ok": not bad and not problems,
                "results": [{k: v for k, v in r.items() if k != "verdict"} for r in results],
                **({"problems": [str(p) for p in problems]} if ids is not None else {}),
            }
        )
        return 1 if bad or problems else 0
    for p in problems:
        print(p)
    from rich.markup import escape

    from tutor.terminal.marks import marks
    from tutor.terminal.render import RunPrinter

    con, m = ctx.console(), marks()
    for r in results:
        mark = m["pass"] if r["ok"] else m["fail"]
        # the verb, whole: not sliced from "passes"
        should = "pass" if r["file"] == "solution" or r["file"].startswith("case pass_") else "fail"
        con.print(
            escape(f"{mark} {r['exercise']:<20} {r['file']:<9} {r['status']:<8} ")
            + say(f"verify_{'ok' if r['ok'] else 'bad'}_{should}", ctx.lang),
            markup=True,
        )
        if "problem" in r:
            con.print(r["problem"], markup=False)
        elif not r["ok"]:
            RunPrinter(con, ctx.lang).verdict(r["verdict"])
    n = len(ids or ctx.course.exercises)
    if bad or problems:
        con.print(say("verify_bad", ctx.lang, n=len(bad) + len(problems)))
    else:
        con.print(say("verify_ok", ctx.lang, n=n))
    return 1 if bad or problems else 0


def cmd_validate(ctx: Context) -> int:
    from tutor.paths import course_root

    root = ctx.args.path or course_root()
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


def _course_problems(root: Path) -> list:
    """Everything `validate` reports about the course at `root`."""
    from tutor.course import read_course
    from tutor.course.author_rules import author_problems
    from tutor.paths import shipped_course_root

    course, problems = read_course(root, lint=True)
    links = _doctor_links() if root.resolve() == shipped_course_root().resolve() else None
    return problems + author_problems(course, root, links=links)


def _doctor_links() -> dict[str, tuple[str | None, str | None]]:
    """What the doctor's findings link to in the shipped course (tutor.doctor.teaching)."""
    from tutor.doctor.teaching import TEACHES

    return {f"the doctor's '{kind}/{code}' finding": (t.lesson, t.cell) for (kind, code), t in TEACHES.items()}
