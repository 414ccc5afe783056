"""`verify` and `validate`, the course author's commands: every solution passes and every starter
fails; the course YAML and its Markdown lint clean."""

from __future__ import annotations

from pathlib import Path

from tutor.cli_commands.context import Context
from tutor.cli_commands.texts import say
from tutor.render import print_json


def cmd_verify(ctx: Context) -> int:
    import tempfile

    from tutor.verify import verify_course

    ctx.note_host()
    with tempfile.TemporaryDirectory(prefix="jaxstate-verify-home-") as home:  # not the learner's home
        results = verify_course(ctx.course, Path(home), accelerator=ctx.accelerator)
    bad = [r for r in results if not r["ok"]]
    if ctx.args.json:
        print_json({"ok": not bad, "results": [{k: v for k, v in r.items() if k != "verdict"} for r in results]})
        return 1 if bad else 0
    from tutor.marks import marks
    from tutor.render import RunPrinter

    con, m = ctx.console(), marks()
    for r in results:
        mark = m["pass"] if r["ok"] else m["fail"]
        should = "pass" if r["file"] == "solution" else "fail"  # the verb, whole: not sliced from "passes"
        con.print(
            f"{mark} {r['exercise']:<20} {r['file']:<9} {r['status']:<8} "
            + say(f"verify_{'ok' if r['ok'] else 'bad'}_{should}", ctx.lang)
        )
        if not r["ok"]:
            RunPrinter(con, ctx.lang).verdict(r["verdict"])
    n = len(ctx.course.exercises)
    con.print(say("verify_ok", ctx.lang, n=n) if not bad else say("verify_bad", ctx.lang, n=len(bad)))
    return 1 if bad else 0


def cmd_validate(ctx: Context) -> int:
    from tutor.course import read_course
    from tutor.course.author_rules import author_problems
    from tutor.paths import course_root

    root = ctx.args.path or course_root()
    if (root / "exercises").is_dir() or root.name == "lessons":
        root = root.parent  # accept the lessons folder itself
    course, problems = read_course(root, lint=True)
    problems += author_problems(
        course, root, links=_doctor_links() if root.resolve() == course_root().resolve() else None
    )
    for p in problems:
        print(p)
    n_files = len(list((root / "lessons").rglob("*.yaml"))) if (root / "lessons").is_dir() else 0
    print(say("valid", ctx.lang, n=n_files) if not problems else say("problems", ctx.lang, n=len(problems)))
    return 1 if problems else 0


def _doctor_links() -> dict[str, tuple[str | None, str | None]]:
    """What the doctor's findings link to in the shipped course (tutor.doctor.teaching)."""
    from tutor.doctor.teaching import TEACHES

    return {f"the doctor's '{kind}/{code}' finding": (t.lesson, t.cell) for (kind, code), t in TEACHES.items()}
