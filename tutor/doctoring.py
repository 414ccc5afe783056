"""`jaxstate-tutor doctor SCRIPT [ARGS...]`: run the learner's own script in a worker with the
probe on, pass its output through live, then print the report (text in the learner's language,
or the `doctor --json` object of DESIGN.md).

Exit codes: 0 no finding, 1 findings, 2 bad usage (no such script, a folder, not a .py file),
3 the script failed or hit the time limit, 130 stopped by Ctrl+C (like `check` and `watch`; the
report of what was seen until then is still printed).

No JAX here: the probe runs in the worker; this side only reads events.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import threading
from pathlib import Path

from tutor.doctor.findings import Report
from tutor.doctor.report_text import render_text
from tutor.i18n import pick, table

# A learner's training script, instrumented, on a CPU: minutes are normal. 15 minutes lets a
# real but small run finish, yet a script that hangs does not hold a worker for hours; a longer
# run takes --timeout, and Ctrl+C or the limit still print what was seen so far.
DEFAULT_TIMEOUT_S = 900.0
INTERRUPTED = 130  # what a shell expects from a program stopped by SIGINT, as `check` / `watch`

MSG = table(
    {
        "missing": {
            "en": "doctor: {path} does not exist.",
            "zh": "doctor：{path} 不存在。",
        },
        "folder": {
            "en": "doctor: {path} is a folder; give the Python script to run (e.g. {path}/train.py).",
            "zh": "doctor：{path} 是一个文件夹；请给出要运行的 Python 脚本（例如 {path}/train.py）。",
        },
        "not_py": {
            "en": "doctor: {path} is not a Python script (.py); doctor runs Python scripts.",
            "zh": "doctor：{path} 不是 Python 脚本（.py）；doctor 只运行 Python 脚本。",
        },
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


def add_parser(sub, common: argparse.ArgumentParser, seconds) -> argparse.ArgumentParser:
    """The `doctor` subcommand's arguments. The doctor's own options go before SCRIPT (or after
    it, unless the script takes an option of the same name); everything after `--` is the script's."""
    s = sub.add_parser(
        "doctor",
        parents=[common],
        help="run your own script and report state problems",
        description="Run your own JAX script with instrumentation on and report retraces, "
        "reused keys, side effects under tracing, donation problems, host syncs "
        "in hot loops (and NaNs with --nans). Exit 0 no finding, 1 findings, "
        "2 bad usage, 3 the script failed or timed out, 130 Ctrl+C.",
    )
    s.add_argument("script", type=Path, help="the Python script to run")
    s.add_argument("args", nargs=argparse.REMAINDER, help="its arguments (after `--` all of them go to it)")
    s.add_argument("--json", action="store_true", help="print one JSON object (the script's output inside)")
    s.add_argument(
        "--timeout",
        type=seconds,
        default=None,
        help=f"seconds before the script is stopped (default {DEFAULT_TIMEOUT_S:.0f})",
    )
    s.add_argument("--nans", action="store_true", help="also stop at the first NaN / inf and name its operation")
    s.set_defaults(doctor_seconds=seconds)
    return s


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0; ValueError otherwise (nan, inf, 0, negatives, words)."""
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"not a number of seconds above 0: {text!r}")
    return value


def split_args(args, seconds) -> tuple[list[str], dict]:
    """The script's arguments, and the doctor's own options written after SCRIPT (before `--`)."""
    own: dict = {}
    rest: list[str] = []
    items = list(args)
    i = 0
    while i < len(items):
        item = items[i]
        if item == "--":
            rest.extend(items[i + 1 :])
            break
        if item in ("--json", "--nans"):
            own[item[2:]] = True
        elif item == "--timeout" and i + 1 < len(items):
            own["timeout"] = seconds(items[i + 1])
            i += 1
        elif item.startswith("--timeout="):
            own["timeout"] = seconds(item.split("=", 1)[1])
        elif item in ("--lang",) and i + 1 < len(items) and items[i + 1] in ("en", "zh"):
            own["lang"] = items[i + 1]
            i += 1
        else:
            rest.append(item)
        i += 1
    return rest, own


def script_problem(path: Path, lang: str) -> str | None:
    """Why `path` cannot be run by doctor, or None."""
    if path.is_dir():
        return say("folder", lang, path=path)
    if not path.exists():
        return say("missing", lang, path=path)
    if path.suffix != ".py":
        return say("not_py", lang, path=path)
    return None


class GracefulStop:
    """While a run goes: the first Ctrl+C asks it to stop (the report still comes), the second
    kills it. Installed only in the main thread (where Python delivers signals)."""

    def __init__(self, run, lang: str):
        self.run, self.lang = run, lang
        self.asked = False
        self._old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def _on_sigint(self, signum, frame) -> None:
        if self.asked:
            self.run.cancel()
            return
        self.asked = True
        print(say("stopping", self.lang), file=sys.stderr, flush=True)
        # stop() waits for the report (up to a few seconds): not in the signal handler
        threading.Thread(target=self.run.stop, name="doctor-stop", daemon=True).start()


def _titles(ctx) -> dict[str, str]:
    """Lesson titles for the report, if the course loads (the report stands without them)."""
    try:
        return {lesson.id: lesson.title.get(ctx.lang) for lesson in ctx.course.lessons}
    except Exception:  # noqa: BLE001 - a broken course must not hide the learner's report
        return {}


def report_of(verdict, script: Path) -> Report:
    """The verdict's report, or (no report came: a crash before it, a startup failure) one that
    says the script failed, with what it printed."""
    if verdict.report is not None:
        return verdict.report
    report = Report(
        script=script.name, exit_code=None, duration_s=verdict.duration_s, stdout=verdict.stdout, stderr=verdict.stderr
    )
    report.decide_status(failed=True, timed_out=verdict.status == "timeout")
    return report


def exit_code(report: Report, stopped: bool) -> int:
    return INTERRUPTED if stopped else report.cli_exit_code()


def run(ctx) -> int:
    """The `doctor` command; returns the exit code."""
    a = ctx.args
    try:
        rest, own = split_args(a.args, a.doctor_seconds)
    except argparse.ArgumentTypeError as exc:
        print(f"doctor: --timeout {exc}", file=sys.stderr)
        return 2
    lang = own.get("lang", ctx.lang)
    as_json = a.json or own.get("json", False)
    timeout = own.get("timeout") or a.timeout or DEFAULT_TIMEOUT_S
    nans = a.nans or own.get("nans", False)
    script = Path(a.script).expanduser()
    problem = script_problem(script, lang)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    script = script.resolve()

    from tutor.sandbox.events import Output
    from tutor.sandbox.runner import Sandbox

    sandbox = Sandbox(ctx.home, accelerator=ctx.accelerator)
    try:
        job = sandbox.run_doctor(script, rest, Path.cwd(), timeout, nans)
        with GracefulStop(job, lang) as stop:
            for event in job.events():
                if not as_json and isinstance(event, Output):
                    stream = sys.stdout if event.stream == "stdout" else sys.stderr
                    stream.write(event.text)
                    stream.flush()
            stopped = stop.asked
        verdict = job.verdict
    finally:
        sandbox.close()
    report = report_of(verdict, script)
    if as_json:
        from tutor.render import print_json

        print_json(report.to_json(lang))
        return exit_code(report, stopped)
    sys.stdout.flush()
    if verdict.report is None:
        print(say("no_report", lang, why=pick(verdict.message, lang)), file=sys.stderr)
    print("\n" + render_text(report, lang, _titles(ctx), stopped=stopped), flush=True)
    return exit_code(report, stopped)
