"""The command line: a thin shell over course, sandbox, progress and workspace.

Exit codes: 0 success / pass, 1 fail / error / timeout, 2 unknown id or bad usage.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from tutor import __version__, doctoring
from tutor.doctor.options import positive_seconds
from tutor.i18n import LANGS, default_lang, pick, table
from tutor.progress import changes
from tutor.render import print_json

ACCELERATOR_VAR = "JAXSTATE_TUTOR_ACCELERATOR"  # =1: as --accelerator, for every command of a shell

MSG = table(
    {
        "unknown_id": {"en": "unknown exercise '{id}'. Known: {known}", "zh": "没有名为 '{id}' 的练习。已有：{known}"},
        "course_broken": {
            "en": "the course has problems (run `jaxstate-tutor validate`):",
            "zh": "课程文件有问题（运行 `jaxstate-tutor validate` 查看）：",
        },
        "hint_of": {"en": "Hint {n} of {total}", "zh": "提示 {n}/{total}"},
        "no_more_hints": {
            "en": "That was the last hint; `jaxstate-tutor solution {id}` shows the reference solution.",
            "zh": "提示已经全部给出；`jaxstate-tutor solution {id}` 可以查看参考答案。",
        },
        "solution_confirm": {
            "en": "You have not passed '{id}' yet. Show the reference solution anyway? [y/N] ",
            "zh": "你还没有通过 '{id}'。仍然要查看参考答案吗？[y/N] ",
        },
        "solution_declined": {
            "en": "Not shown. Keep going; `jaxstate-tutor hint {id}` gives a nudge.",
            "zh": "未显示。继续加油；`jaxstate-tutor hint {id}` 可以给你提示。",
        },
        "reset_done": {"en": "Reset {path} to the starter code.", "zh": "已把 {path} 恢复为初始代码。"},
        "reset_backup": {"en": "Your previous code is kept at {path}", "zh": "你之前的代码保存在 {path}"},
        "workspace_file": {"en": "Your file: {path}", "zh": "你的文件：{path}"},
        "watching": {
            "en": "Watching {path}; every save re-runs the checks. Ctrl+C stops.",
            "zh": "正在监视 {path}；每次保存都会重新检查。按 Ctrl+C 退出。",
        },
        "all_passed": {"en": "Every exercise is passed. Well done!", "zh": "所有练习都已通过，干得漂亮！"},
        "watch_next": {
            "en": "Passed! Next on the path: {id} ({title}). Press Enter to watch it, or Ctrl+C to stop.",
            "zh": "通过！路线上的下一道练习：{id}（{title}）。按 Enter 开始监视它，或按 Ctrl+C 停止。",
        },
        "watch_last": {
            "en": "Passed! That was the last exercise on the path. Ctrl+C stops watching.",
            "zh": "通过！这是路线上的最后一道练习。按 Ctrl+C 停止监视。",
        },
        "checkpoint": {
            "en": "checkpoint: {n} questions on this section, in the TUI ({score})",
            "zh": "小测：本节 {n} 道题，在 TUI 中作答（{score}）",
        },
        "valid": {"en": "{n} files, no problems.", "zh": "{n} 个文件，没有问题。"},
        "problems": {"en": "{n} problems found.", "zh": "发现 {n} 个问题。"},
        "verify_ok": {
            "en": "verify: {n} exercises, every solution passes and every starter fails.",
            "zh": "verify：{n} 个练习，参考答案全部通过，初始代码全部不通过。",
        },
        "verify_bad": {"en": "verify: {n} problems.", "zh": "verify：发现 {n} 个问题。"},
        "verify_ok_pass": {"en": "(passes, as it should)", "zh": "（通过，符合预期）"},
        "verify_ok_fail": {"en": "(fails, as it should)", "zh": "（不通过，符合预期）"},
        "verify_bad_pass": {"en": "[red]should pass[/red]", "zh": "[red]应当通过[/red]"},
        "verify_bad_fail": {"en": "[red]should fail[/red]", "zh": "[red]应当不通过[/red]"},
        "no_tui": {
            "en": "The terminal UI cannot run here ({why}). Use the headless commands: "
            "`jaxstate-tutor list`, `check ID`, `watch ID`, `hint ID`.",
            "zh": "这里无法运行终端界面（{why}）。请使用命令行子命令："
            "`jaxstate-tutor list`、`check ID`、`watch ID`、`hint ID`。",
        },
        "progress_warning": {"en": "warning: {w}", "zh": "警告：{w}"},
        "file_created": {
            "en": "Created {path} from the starter code; edit it, then check again.",
            "zh": "已用初始代码创建 {path}；修改它，然后再检查。",
        },
        "file_was_missing": {
            "en": "note: {path} was missing (deleted?), so it was written again from the starter code; "
            "older versions, if any, are in {backups}.",
            "zh": "注意：{path} 不见了（被删除了？），所以重新写入了初始代码；以前的版本（如果有）在 {backups}。",
        },
        "file_vanished": {
            "en": "{path} was deleted (by your program?); it was written back as last checked.",
            "zh": "{path} 被删除了（是你的程序删的吗？）；已按最近一次检查时的内容写回。",
        },
        "file_vanished_lost": {
            "en": "{path} was deleted (by your program?) and could not be written back: {why}",
            "zh": "{path} 被删除了（是你的程序删的吗？），且无法写回：{why}",
        },
        "bad_seconds": {
            "en": "must be a number of seconds above 0, not {value!r}",
            "zh": "必须是大于 0 的秒数，而不是 {value!r}",
        },
    }
)


say = MSG.say


class UsageError(Exception):
    """Bad usage or an unknown id: exit code 2."""


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0 (nan, inf, 0 and negatives are refused)."""
    try:
        return positive_seconds(text)
    except ValueError:
        raise argparse.ArgumentTypeError(say("bad_seconds", default_lang(), value=text)) from None


def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--home",
        type=Path,
        default=argparse.SUPPRESS,
        help="folder for progress and workspace (default: $JAXSTATE_TUTOR_HOME or the user data dir)",
    )
    common.add_argument(
        "--lang", choices=LANGS, default=argparse.SUPPRESS, help="language of all text (default: from locale)"
    )
    p = argparse.ArgumentParser(
        prog="jaxstate-tutor", parents=[common], description="An interactive terminal tutor for managing state in JAX."
    )
    p.add_argument("--version", action="version", version=f"jaxstate-tutor {__version__}")
    p.add_argument("--no-mouse", action="store_true", help="TUI: do not capture the mouse (slow links)")
    p.add_argument(
        "--accelerator",
        action="store_true",
        help="let workers use the GPU/TPU (default: CPU only, leaving accelerator memory to your jobs)",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    s = sub.add_parser("list", parents=[common], help="lessons and exercises with their status")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("check", parents=[common], help="run the checks of an exercise")
    s.add_argument("id")
    s.add_argument("--file", type=Path, help="check this file instead of your workspace file")
    s.add_argument("--json", action="store_true")
    s.add_argument("--timeout", type=_seconds, help="seconds before the run is stopped")
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
    s = sub.add_parser("verify", parents=[common], help="every reference solution passes, every starter fails")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("validate", parents=[common], help="lint the course YAML")
    s.add_argument("path", nargs="?", type=Path, help="course folder (holding lessons/ and solutions/)")
    s = sub.add_parser("watch", parents=[common], help="re-check an exercise on every save (no TUI)")
    s.add_argument("id", nargs="?")
    s.add_argument("--timeout", type=_seconds)
    s.add_argument("--interval", type=_seconds, default=0.5, help="seconds between polls of the file")
    doctoring.add_parser(sub, common)  # its body: tutor/doctoring.py
    return p


class Context:
    """What every command needs, built lazily so `--help` and `validate` stay fast."""

    def __init__(self, args: argparse.Namespace):
        from tutor.paths import default_home

        self.args = args
        self.lang = getattr(args, "lang", None) or default_lang()
        home = getattr(args, "home", None)
        self.home = Path(home).expanduser() if home else default_home()
        # Workers may use the GPU/TPU only when asked: the flag, or the variable for a whole shell.
        self.accelerator = bool(getattr(args, "accelerator", False)) or os.environ.get(ACCELERATOR_VAR) == "1"
        self._course = None
        self._store = None
        self._state = None

    @property
    def course(self):
        if self._course is None:
            from tutor.course import CourseError, load_course

            try:
                self._course = load_course()
            except CourseError as exc:
                lines = [say("course_broken", self.lang)] + [f"  {p}" for p in exc.problems]
                raise UsageError("\n".join(lines)) from None
        return self._course

    @property
    def store(self):
        if self._store is None:
            from tutor.progress import ProgressStore

            self._store = ProgressStore(self.home, on_wait=lambda msg: print(pick(msg, self.lang), file=sys.stderr))
        return self._store

    @property
    def state(self):
        """The owner of progress and of the path, read once per command (then kept current)."""
        if self._state is None:
            from tutor.progress.state import LearnerState

            self._state = LearnerState(self.store, self.course).refresh()
        return self._state

    def exercise(self, exercise_id: str):
        ex = self.course.exercise(exercise_id)
        if ex is None:
            known = ", ".join(e.id for e in self.course.exercises)
            raise UsageError(say("unknown_id", self.lang, id=exercise_id, known=known))
        return ex

    def console(self):
        from rich.console import Console

        return Console(highlight=False, soft_wrap=True)

    def warn_progress(self) -> None:
        for w in self.store.warnings:
            print(say("progress_warning", self.lang, w=pick(w, self.lang)), file=sys.stderr)

    def workspace_file(self, exercise) -> Path:
        """The learner's file, created from the starter if missing (said: a file that vanished
        after attempts was most likely deleted); a home that cannot hold it is a usage error."""
        from tutor.workspace import LearnerFileError, Workspace

        ws = Workspace(self.home)
        existed = ws.exists(exercise.id)
        try:
            path = ws.ensure(exercise)
        except LearnerFileError as exc:
            raise UsageError(pick(exc.message, self.lang)) from None
        if not existed:
            attempted = self.state.exercise(exercise.id).attempts > 0
            print(
                say("file_was_missing", self.lang, path=path, backups=ws.dir / ".backup")
                if attempted
                else say("file_created", self.lang, path=path),
                file=sys.stderr,
            )
        return path


def _record(ctx: Context, save) -> None:
    """Save a change made through ctx.state; a store that cannot be written warns instead of failing the command."""
    from tutor.progress import ProgressError

    try:
        save()
    except ProgressError as exc:
        print(say("progress_warning", ctx.lang, w=pick(exc.message, ctx.lang)), file=sys.stderr)
    ctx.warn_progress()


def cmd_list(ctx: Context) -> int:
    from tutor.progress.path import course_path
    from tutor.progress.reports import checkpoint_scores, list_document, score_text

    state = ctx.state
    ctx.warn_progress()
    course, lang = ctx.course, ctx.lang
    doc = list_document(state, lang)
    if ctx.args.json:
        print_json(doc)
        return 0
    from rich.markup import escape

    from tutor.marks import marks

    m = marks()
    lessons = {l["id"]: l for l in doc["lessons"]}
    exercise_rows = {e["id"]: e for e in doc["exercises"]}
    con = ctx.console()
    for step in course_path(course):  # the path: each lesson, its checkpoint and exercises; then the quiz
        if step.kind == "lesson":
            l = lessons[step.id]
            con.print(f"[{m[l['status']]}] [bold]{l['id']:<5}[/bold] {escape(l['title'])}")
        elif step.kind == "checkpoint":
            first, now, n, answered = checkpoint_scores(state, step.id)
            score = score_text(first, now, n, answered, lang)
            con.print(f"    [{m[state.step_status(step)]}] " + say("checkpoint", lang, n=n, score=score))
        elif step.kind == "exercise":
            e = exercise_rows[step.id]
            con.print(f"    [{m[e['status']]}] {e['id']:<20} {escape(e['title'])}")
    q = doc["quiz"]
    score = score_text(q["first_score"], q["score"], q["questions"], q["answered"], lang)
    con.print(
        ("[bold]Quiz[/bold]: {a}/{n} answered, {s}" if lang == "en" else "[bold]测验[/bold]：已答 {a}/{n}，{s}").format(
            a=q["answered"], n=q["questions"], s=score
        )
    )
    return 0


def _sandbox(ctx: Context, keep_spare: bool = False):
    from tutor.sandbox.runner import Sandbox

    return Sandbox(ctx.home, keep_spare=keep_spare, accelerator=ctx.accelerator)


def _run_check(ctx: Context, sandbox, exercise, path: Path, as_json: bool, timeout: float | None) -> int:
    from tutor.render import RunPrinter
    from tutor.workspace import LearnerFileError, read_learner_file

    try:
        source = read_learner_file(path)
    except LearnerFileError as exc:
        raise UsageError(pick(exc.message, ctx.lang)) from None
    run = sandbox.run_exercise(exercise, source, str(path.resolve()), timeout)
    printer = None if as_json else RunPrinter(ctx.console(), ctx.lang)
    for event in run.events():
        if event is run.verdict:  # the last event: save progress before showing the result
            _record(ctx, ctx.state.change(changes.attempt, exercise.id, run.verdict.passed))
        if printer:
            printer.event(event)
    verdict = run.verdict
    if as_json:
        print_json(verdict.to_json(exercise.id, ctx.lang))
    return 0 if verdict.passed else 1


def cmd_check(ctx: Context) -> int:
    exercise = ctx.exercise(ctx.args.id)
    path = ctx.args.file or ctx.workspace_file(exercise)
    sandbox = _sandbox(ctx)
    try:
        return _run_check(ctx, sandbox, exercise, path, ctx.args.json, ctx.args.timeout)
    finally:
        sandbox.close()


def cmd_hint(ctx: Context) -> int:
    exercise = ctx.exercise(ctx.args.id)
    shown = ctx.state.exercise(exercise.id).hints_shown
    total = len(exercise.hints)
    upto = min(shown + 1, total)
    con = ctx.console()
    from rich.markup import escape

    for i in range(upto):
        con.print(
            f"[bold]{say('hint_of', ctx.lang, n=i + 1, total=total)}[/bold]: {escape(exercise.hints[i].get(ctx.lang))}"
        )
    if shown >= total:
        con.print(say("no_more_hints", ctx.lang, id=exercise.id))
    _record(ctx, ctx.state.change(changes.hint, exercise.id, upto))
    return 0


def cmd_solution(ctx: Context) -> int:
    exercise = ctx.exercise(ctx.args.id)
    passed = ctx.state.exercise_status(exercise.id) == "passed"
    if not passed and not ctx.args.yes and sys.stdin.isatty():
        answer = input(say("solution_confirm", ctx.lang, id=exercise.id)).strip().lower()
        if answer not in ("y", "yes", "是", "好"):
            print(say("solution_declined", ctx.lang, id=exercise.id))
            return 1
    print(ctx.course.solution_path(exercise.id).read_text(encoding="utf-8"), end="")
    _record(ctx, ctx.state.change(changes.solution_viewed, exercise.id))
    return 0


def cmd_reset(ctx: Context) -> int:
    from tutor.workspace import LearnerFileError, Workspace

    exercise = ctx.exercise(ctx.args.id)
    ws = Workspace(ctx.home)
    try:
        backup = ws.reset(exercise)
    except LearnerFileError as exc:  # the old code is still in place
        raise UsageError(pick(exc.message, ctx.lang)) from None
    print(say("reset_done", ctx.lang, path=ws.path(exercise.id)))
    if backup:
        print(say("reset_backup", ctx.lang, path=backup))
    return 0


def cmd_progress(ctx: Context) -> int:
    from tutor.progress.reports import checkpoint_scores, progress_document, score_text

    state = ctx.state
    ctx.warn_progress()
    doc = progress_document(state)
    if ctx.args.json:
        print_json(doc)
        return 0
    con = ctx.console()
    zh = ctx.lang == "zh"
    course, summary = ctx.course, state.summary()
    passed = summary.exercises_passed
    con.print(
        f"练习：通过 {passed}/{len(course.exercises)}" if zh else f"Exercises passed: {passed}/{len(course.exercises)}"
    )
    for e in course.exercises:
        rec = doc["exercises"].get(e.id)
        if rec:
            con.print(
                f"  {e.id:<20} {rec['status']:<10} "
                + (
                    f"尝试 {rec['attempts']} 次，提示 {rec['hints_shown']} 条"
                    if zh
                    else f"{rec['attempts']} attempts, {rec['hints_shown']} hints"
                )
                + (("，看过答案" if zh else ", solution viewed") if rec["solution_viewed"] else "")
            )
    q = doc["quiz"]
    score = score_text(summary.quiz_first, summary.quiz_now, summary.quiz_questions, summary.quiz_answered, ctx.lang)
    con.print(f"测验：{score}，作答 {q['attempts']} 轮" if zh else f"Quiz: {score}, over {q['attempts']} rounds")
    for c in course.checkpoints:
        first, now, n, answered = checkpoint_scores(state, c.lesson)
        if answered:
            text = score_text(first, now, n, answered, ctx.lang)
            con.print(f"第 {c.lesson} 节小测：{text}" if zh else f"Checkpoint {c.lesson}: {text}")
    made, right = summary.predictions_made, summary.predictions_right
    if made:
        con.print(f"预测：{made} 次，猜对 {right} 次" if zh else f"Predictions: {right} of {made} right")
    return 0


def cmd_verify(ctx: Context) -> int:
    import tempfile

    from tutor.verify import verify_course

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
    from tutor.paths import course_root

    root = ctx.args.path or course_root()
    if (root / "exercises").is_dir() or root.name == "lessons":
        root = root.parent  # accept the lessons folder itself
    _, problems = read_course(root, lint=True)
    for p in problems:
        print(p)
    n_files = len(list((root / "lessons").rglob("*.yaml"))) if (root / "lessons").is_dir() else 0
    print(say("valid", ctx.lang, n=n_files) if not problems else say("problems", ctx.lang, n=len(problems)))
    return 1 if problems else 0


def _enter_pressed(timeout: float) -> bool:
    """Whether a line was typed on a terminal's stdin within `timeout` seconds (consumes it)."""
    import select

    if not sys.stdin.isatty():
        time.sleep(timeout)
        return False
    ready, _, _ = select.select([sys.stdin], [], [], timeout)
    if ready:
        sys.stdin.readline()
        return True
    return False


def cmd_watch(ctx: Context) -> int:
    """Re-check on every save; after a pass, offer the next exercise on the path (Enter)."""
    from tutor.watching import watch

    if ctx.args.id:
        exercise = ctx.exercise(ctx.args.id)
    else:
        step = ctx.state.next_step(kinds=("exercise",))
        if step is None:
            print(say("all_passed", ctx.lang))
            return 0
        exercise = ctx.course.exercise(step.id)
    path = ctx.workspace_file(exercise)  # an unusable home is said before a worker starts
    sandbox = _sandbox(ctx, keep_spare=True)
    sandbox.warm_up()
    try:
        watch(ctx.state, exercise, path, _WatchFace(ctx, sandbox), ctx.args.interval)
    except KeyboardInterrupt:
        return 130  # Ctrl+C: what a shell expects from a program stopped by SIGINT
    finally:
        sandbox.close()
    return 0


class _WatchFace:
    """The watch loop's face on a terminal (tutor.watching.Face)."""

    def __init__(self, ctx: Context, sandbox):
        self.ctx, self.sandbox, self.con = ctx, sandbox, ctx.console()

    def file_for(self, exercise) -> Path:
        return self.ctx.workspace_file(exercise)

    def watching(self, path: Path) -> None:
        self.con.print(say("watching", self.ctx.lang, path=path))

    def check(self, exercise, path: Path) -> bool:
        self.con.rule(f"{exercise.id} {time.strftime('%H:%M:%S')}")
        try:
            return _run_check(self.ctx, self.sandbox, exercise, path, False, self.ctx.args.timeout) == 0
        except UsageError as exc:
            self.con.print(str(exc), markup=False, highlight=False)
            return False

    def offer(self, next_exercise) -> None:
        lang = self.ctx.lang
        self.con.print(
            say("watch_next", lang, id=next_exercise.id, title=next_exercise.title.get(lang))
            if next_exercise is not None
            else say("watch_last", lang)
        )

    def put_back(self, path: Path, why_not) -> None:
        lang = self.ctx.lang
        self.con.print(
            say("file_vanished", lang, path=path)
            if why_not is None
            else say("file_vanished_lost", lang, path=path, why=pick(why_not, lang)),
            highlight=False,
        )

    def enter_pressed(self, timeout: float) -> bool:
        return _enter_pressed(timeout)


def cmd_tui(ctx: Context) -> int:
    term = os.environ.get("TERM", "")
    why = None
    if term == "dumb":
        why = "TERM=dumb"
    elif not sys.stdout.isatty() or not sys.stdin.isatty():
        why = "not a terminal" if ctx.lang == "en" else "不是终端"
    if why is None:
        try:
            from tutor.ui.app import run_app
        except ModuleNotFoundError as exc:
            if exc.name != "textual" and not (exc.name or "").startswith("textual."):
                raise  # a bug in the tutor: show it as the bug it is
            why = "the textual package is not installed" if ctx.lang == "en" else "没有安装 textual 包"
    if why is not None:
        print(say("no_tui", ctx.lang, why=why), file=sys.stderr)
        return 2
    return run_app(home=ctx.home, lang=ctx.lang, mouse=not ctx.args.no_mouse, accelerator=ctx.accelerator)


COMMANDS = {
    "list": cmd_list,
    "check": cmd_check,
    "hint": cmd_hint,
    "solution": cmd_solution,
    "reset": cmd_reset,
    "progress": cmd_progress,
    "verify": cmd_verify,
    "validate": cmd_validate,
    "watch": cmd_watch,
    "doctor": doctoring.run,
    None: cmd_tui,
}


def _tolerate_narrow_encodings() -> None:
    """PYTHONIOENCODING=ascii or a C locale: Chinese text becomes \\u escapes, not a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def main(argv: list[str] | None = None) -> int:
    _tolerate_narrow_encodings()
    args = _parser().parse_args(argv)
    ctx = Context(args)
    try:
        return COMMANDS[args.command](ctx)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
