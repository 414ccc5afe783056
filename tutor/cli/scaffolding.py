"""`new-exercise` and `new-course`: the author's first files (tutor.course.scaffold writes them),
and what to do next."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tutor.cli.context import Context, UsageError
from tutor.cli.texts import say
from tutor.i18n import pick

if TYPE_CHECKING:
    from tutor.course.scaffold import Written


def cmd_new_exercise(ctx: Context) -> int:
    from tutor.course.scaffold import ScaffoldError, new_exercise
    from tutor.paths import PACKAGE_DIR

    root = ctx.settings.course
    if root.resolve().is_relative_to(PACKAGE_DIR):  # the course inside an installed wheel
        raise UsageError(say("installed_course", ctx.lang, root=root))
    try:
        written = new_exercise(root, ctx.args.id, ctx.args.lesson)
    except ScaffoldError as exc:
        raise UsageError(pick(exc.message, ctx.lang)) from None
    _say_written(ctx, written)
    print(say("new_exercise_next", ctx.lang, id=ctx.args.id, course=_course_flag(root)))
    return 0


def cmd_new_course(ctx: Context) -> int:
    from tutor.course.scaffold import ScaffoldError, new_course

    try:
        written = new_course(ctx.args.dir)
    except ScaffoldError as exc:
        raise UsageError(pick(exc.message, ctx.lang)) from None
    except OSError as exc:  # a folder that cannot be made or written: said, not a traceback
        raise UsageError(f"{ctx.args.dir}: {exc.strerror or exc}") from None
    _say_written(ctx, written)
    print(say("new_course_next", ctx.lang, dir=ctx.args.dir))
    return 0


def _say_written(ctx: Context, written: Written) -> None:
    print(say("scaffold_wrote", ctx.lang, n=len(written.files), root=written.root))
    for path in written.files:
        print(f"  {path}")


def _course_flag(root: Path) -> str:
    """How the next commands reach this course: nothing for the shipped one."""
    from tutor.paths import shipped_course_root

    return "" if root.resolve() == shipped_course_root().resolve() else f"--course {root} "
