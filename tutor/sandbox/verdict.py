"""The verdict of a run, as a pure function of what the worker sent and how its process ended.

`decide(job, events, ending)`: no processes, no clock, no environment, so every row of the
decision is a table test (tests/unit/test_verdict.py). A run that crashed, was killed, timed out,
or never said "done" is never a pass; cancellation is decided here and only here.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tutor.i18n import Bilingual
from tutor.protocol import (
    CHANNEL_LOST,
    PROTOCOL_VERSION,
    CellJob,
    CellResult,
    CheckResult,
    DoctorJob,
    DoctorReport,
    Done,
    ExerciseJob,
    Job,
    MetricPoints,
    Ready,
    RunError,
    RunStatus,
    VerdictKind,
    VerdictStatus,
)
from tutor.sandbox.events import Output, Verdict
from tutor.sandbox.reaper import THREADS_PER_PROCESS
from tutor.sandbox.startup_causes import HostLimits, Shadow, classify

if TYPE_CHECKING:
    from tutor.doctor.findings import Report


@dataclass(frozen=True)
class Ending:
    """How the worker's process ended, and what the parent did to it."""

    returncode: int | None = None  # None: still running when the parent stopped reading (then killed)
    spawn_error: str = ""  # no worker could be started for the job (the TUI's run; then no job either)
    cancelled: bool = False  # Run.cancel(): the learner or the tutor asked
    stopped: bool = False  # Run.stop() (doctor jobs): asked to stop and still report
    timed_out: bool = False  # the job's time limit passed
    startup_timed_out: bool = False  # the worker never got ready
    flooded: bool = False  # more output than the limit: stopped
    truncated: bool = False  # output beyond what is kept was dropped
    protocol_error: str = ""  # what was wrong with the first unreadable event line
    forged: str = ""  # the first event that was not the harness's in its turn (tutor.sandbox.intake)
    internal_error: str = ""  # the parent's own failure while reading the run
    guard: str = (
        ""  # the reaper's word: "processes" / "disk" / "memory" (a bound it held), "killed" (ended from outside)
    )
    processes_limit: int = 0  # the bounds, named in the messages
    disk_limit_mb: int = 0
    memory_limit_mb: int = 0
    worker_protocol: int | None = PROTOCOL_VERSION  # what the worker's first event announced (None: none)
    duration_s: float = 0.0
    timeout_s: float = 0.0  # the limits, named in the messages
    startup_s: float = 0.0
    output_limit_mb: int = 0
    setting_vars: tuple[str, ...] = ()  # JAX_* / XLA_* ... set in the tutor's environment
    # Read only for a worker that never got ready (tutor.sandbox.startup_causes): the settings and
    # PYTHONPATH of the tutor's environment with their values, the host's limits, and what on
    # PYTHONPATH has the name of a module the worker needs.
    environment: tuple[tuple[str, str], ...] = ()
    host_limits: HostLimits = HostLimits()
    shadows: tuple[Shadow, ...] = ()
    chars_seen: dict[str, int] = field(default_factory=dict)  # characters of each stream, kept or not


def _message(en: str, zh: str) -> Bilingual:
    return Bilingual(zh=zh, en=en)


# The one wording of a cancelled run; the CLI and every screen show the verdict's message.
CANCELLED_CHECK = _message("Check cancelled.", "检查已取消。")
CANCELLED_RUN = _message("Run cancelled.", "已取消运行。")  # a demo cell, the scratch editor, a doctor run
_OOM_PATTERN = re.compile(r"bad_alloc|out of memory|Cannot allocate|RESOURCE_EXHAUSTED|^MemoryError", re.I | re.M)
_SIGNAL_HINTS = {
    "SIGKILL": (" (this can be the system running out of memory)", "（可能是系统内存耗尽）"),
    "SIGSEGV": (
        " (a crash in native code: ctypes, a C extension, or recursion too deep for the C stack)",
        "（原生代码崩溃：ctypes、C 扩展，或递归深到超出了 C 栈）",
    ),
    "SIGABRT": (
        " (native code aborted, e.g. a failed assertion inside XLA)",
        "（原生代码中止，例如 XLA 内部断言失败）",
    ),
}


@dataclass(frozen=True)
class _Seen:
    """The worker's events, gathered."""

    ready: bool
    done: bool
    error: RunError | None
    checks: dict[str, CheckResult]
    metrics: dict[str, list[float]]
    cell: CellResult | None
    report: Report | None
    bad_report: str  # why the doctor's report could not be read
    stdout: str
    stderr: str


def _gather(events: Iterable[object]) -> _Seen:
    ready = done = False
    error = cell = report = None
    bad_report = ""
    checks: dict[str, CheckResult] = {}
    metrics: dict[str, list[float]] = {}
    text: dict[str, list[str]] = {"stdout": [], "stderr": []}
    for e in events:
        if isinstance(e, Output):
            text[e.stream].append(e.text)
        elif isinstance(e, Ready):
            ready = True
        elif isinstance(e, Done):
            done = True
        elif isinstance(e, RunError):
            error = error or e
        elif isinstance(e, CheckResult):
            checks[e.id] = e
        elif isinstance(e, MetricPoints):
            for series, _, value in e.points:
                metrics.setdefault(series, []).append(value)
        elif isinstance(e, CellResult):
            cell = e
        elif isinstance(e, DoctorReport):
            from tutor.doctor.findings import Report  # JAX-free data; only doctor runs need it

            try:
                report = Report.from_wire(e.report)  # a new object for each decision
            except (ValueError, KeyError, TypeError) as exc:
                bad_report = f"a doctor report it cannot read: {exc}"
    return _Seen(
        ready, done, error, checks, metrics, cell, report, bad_report, "".join(text["stdout"]), "".join(text["stderr"])
    )


def decide(job: Job | None, events: Iterable[object], ending: Ending) -> Verdict:
    """The final, authoritative outcome of `job` from its events (in order) and its ending.
    `job` is None only where none was made: its worker could not be started (`spawn_error`)."""
    seen = _gather(events)
    status, kind, message = _outcome(job, seen, ending)
    report = _report(job, seen, ending, status) if isinstance(job, DoctorJob) else None
    return Verdict(
        status=status,
        kind=kind,
        message=message,
        checks=_all_checks(job, seen, ending),
        stdout=seen.stdout,
        stderr=seen.stderr,
        duration_s=ending.duration_s,
        metrics=seen.metrics,
        cell=seen.cell,
        output_truncated=ending.truncated,
        report=report,
    )


Outcome = tuple[VerdictStatus, VerdictKind, Bilingual]


def _outcome(job: Job | None, seen: _Seen, ending: Ending) -> Outcome:
    return _not_the_programs(job, seen, ending) or _the_programs(job, seen, ending)


def _not_the_programs(job: Job | None, seen: _Seen, ending: Ending) -> Outcome | None:
    """An ending decided before anything the program did: cancelled, no worker, a worker that
    never got ready or speaks another protocol, a forged channel, the tutor's own failure, a
    doctor run stopped; None if none of them."""
    if ending.cancelled:  # first: the kill it caused must not read as a crash
        return "error", "cancelled", CANCELLED_CHECK if isinstance(job, ExerciseJob) else CANCELLED_RUN
    if ending.spawn_error:
        return (
            "error",
            "spawn",
            _message(
                f"could not start a worker process: {ending.spawn_error}",
                f"无法启动工作进程：{ending.spawn_error}",
            ),
        )
    if ending.startup_timed_out:
        return "error", "startup", _startup_cause(seen, ending)
    if ending.worker_protocol != PROTOCOL_VERSION:  # nothing else it said can be read
        return "error", "internal", _foreign_worker(ending.worker_protocol)
    if ending.forged:  # before any outcome the forger could have steered (a timeout, an exit)
        return "error", "channel", _forged(ending.forged)
    if ending.internal_error:
        return (
            "error",
            "internal",
            _message(
                f"the tutor failed while reading this run (not a fault in your code): {ending.internal_error}",
                f"本教程在读取这次运行时自身出错（问题不在你的代码）：{ending.internal_error}",
            ),
        )
    if ending.stopped and isinstance(job, DoctorJob):
        if seen.report is None:
            return (
                "error",
                "stopped",
                _message("the script was stopped before the doctor could report", "脚本在诊断报告生成前就被停止了"),
            )
        return (
            seen.report.status,
            "stopped",
            _message("the script was stopped; the report covers what ran", "脚本已停止；报告涵盖已运行的部分"),
        )
    return None


def _the_programs(job: Job | None, seen: _Seen, ending: Ending) -> Outcome:
    """How the program's run ended, in the order the tutor believes it (after _not_the_programs)."""
    rc = ending.returncode
    if ending.timed_out or (seen.ready and not seen.done and rc == -signal.SIGALRM):
        # ours, or the worker's own deadline (a little after ours) ended it first: a timeout all the same
        return (
            "timeout",
            "timeout",
            _message(
                f"time limit of {ending.timeout_s:g} s exceeded: is there an endless loop, or a wait that never ends?",
                f"超过了 {ending.timeout_s:g} 秒的时间限制：是否有死循环，或者永远等不到的等待？",
            ),
        )
    if ending.flooded:
        mb = ending.output_limit_mb
        return (
            "error",
            "output-limit",
            _message(f"the program printed more than {mb} MB; it was stopped", f"程序输出超过 {mb} MB，已被终止"),
        )
    if ending.protocol_error or seen.bad_report:
        what = ending.protocol_error or seen.bad_report
        return (
            "error",
            "protocol",
            _message(
                f"the worker sent an event the tutor cannot read ({what}), so the run was stopped; "
                "if your program does not write to the tutor's pipes, this is a fault of the tutor",
                f"工作进程发来了无法识别的事件（{what}），运行已停止；"
                "如果你的程序没有向检查程序的管道写入内容，这是本教程自身的问题",
            ),
        )
    if not seen.ready:  # it broke before any learner code ran
        return "error", "startup", _startup_cause(seen, ending)
    if ending.guard:
        return ("error", *_guard_outcome(ending))
    if seen.error is not None:
        if seen.error.kind == "oom":
            return "error", "oom", _with_host_memory(seen.error.message, ending)
        return "error", seen.error.kind, seen.error.message
    if not seen.done:
        return ("error", *_early_exit(rc, seen.stderr))
    if isinstance(job, CellJob):
        return _cell_outcome(job, seen)
    if isinstance(job, DoctorJob):
        if seen.report is None:
            return (
                "error",
                "no-report",
                _message("the worker ended without the doctor's report", "工作进程结束了，却没有给出诊断报告"),
            )
        n = len(seen.report.findings)
        return (
            seen.report.status,
            "doctor",
            _message(f"the script ran; {n} finding{'' if n == 1 else 's'}", f"脚本已运行；发现 {n} 个问题"),
        )
    checks = _all_checks(job, seen, ending)
    if not checks or any(c.status != "pass" for c in checks):
        return "fail", "checks", _summary(checks)
    return "pass", "checks", _message(f"all {len(checks)} checks passed", f"全部 {len(checks)} 项检查通过")


def _all_checks(job: Job | None, seen: _Seen, ending: Ending) -> tuple[CheckResult, ...]:
    """Every check the exercise has, in its order, named; those never reported are marked not run,
    and none is believed from a run that wrote to the tutor's channel. New objects: the ones
    already handed out as events stay as they were."""
    if not isinstance(job, ExerciseJob):
        return ()
    if ending.forged:
        not_judged = _message(
            "not judged: the program wrote to the tutor's channel", "未评判：程序向检查程序的通道写入了内容"
        )
        return tuple(CheckResult(spec.id, "skipped", not_judged, name=spec.name) for spec in job.checks)
    why = (
        _message("not run: the program stopped before this check", "未运行：程序在这项检查之前就停止了")
        if seen.ready
        else _message("not run: the tutor's worker did not start", "未运行：检查程序的工作进程没有启动")
    )
    return tuple(
        replace(seen.checks.get(spec.id) or CheckResult(spec.id, "skipped", why), name=spec.name) for spec in job.checks
    )


def _summary(checks: tuple[CheckResult, ...]) -> Bilingual:
    """ "2 of 7 checks failed, 3 skipped (waiting on those)": failures and skips counted apart."""
    counts = {k: sum(1 for c in checks if c.status == k) for k in ("fail", "error", "skipped")}
    en = [f"{counts['fail']} of {len(checks)} checks failed"]
    zh = [f"{len(checks)} 项检查中 {counts['fail']} 项未通过"]
    if counts["error"]:
        en.append(f"{counts['error']} could not judge")
        zh.append(f"{counts['error']} 项无法评判")
    if counts["skipped"]:
        en.append(f"{counts['skipped']} skipped (they wait on a failed one)")
        zh.append(f"{counts['skipped']} 项被跳过（它们依赖未通过的检查）")
    return _message(", ".join(en), "，".join(zh))


def _guard_outcome(ending: Ending) -> tuple[VerdictKind, Bilingual]:
    """A run the reaper ended for a bound, or whose reaper was ended from outside: never a pass,
    whatever the checks said before."""
    if ending.guard == "processes":
        n = ending.processes_limit
        return "processes", _message(
            f"the program had more than {n} processes running at once, so the run was stopped "
            "(a loop that keeps starting processes?); an exercise needs none",
            f"程序同时运行的进程超过 {n} 个，运行已停止（是否有不断启动进程的循环？）；练习不需要启动任何进程",
        )
    if ending.guard == "threads":
        n = ending.processes_limit * THREADS_PER_PROCESS
        return "processes", _message(
            f"the program had more than {n} threads running at once, so the run was stopped "
            "(a loop that keeps starting threads?)",
            f"程序同时运行的线程超过 {n} 个，运行已停止（是否有不断启动线程的循环？）",
        )
    if ending.guard == "memory":
        mb = ending.memory_limit_mb
        return "oom", _message(
            f"out of memory: the program and the processes it started held more than {mb} MB together "
            "(shared memory and child processes count too), so the run was stopped",
            f"内存不足：程序及其启动的进程合计占用超过 {mb} MB（共享内存和子进程也计算在内），运行已停止",
        )
    if ending.guard == "disk":
        mb = ending.disk_limit_mb
        return "disk", _message(
            f"the program wrote more than {mb} MB of files (its temporary folder and what it added to the "
            "compilation cache count too), so the run was stopped; an exercise needs no files",
            f"程序写入的文件超过 {mb} MB（临时文件夹和它加入编译缓存的内容也算在内），运行已停止；练习不需要写文件",
        )
    return "reaper", _message(
        "the program ended the tutor's guard process (the one above the worker, which holds its limits), "
        "so the run was stopped and everything it started was ended; do not kill processes you did not start",
        "程序终止了检查程序的守护进程（工作进程上方、掌管各项限制的进程），运行已停止，"
        "它启动的一切也已结束；不要终止不是你自己启动的进程",
    )


def _with_host_memory(message: Bilingual, ending: Ending) -> Bilingual:
    """An out-of-memory message, naming the shell's `ulimit -d` where it is below the tutor's own
    bound on a worker's data: the worker took the lower one, so that is the limit it reached."""
    ours = ending.memory_limit_mb * 2**20
    limit = ending.host_limits.d
    value = min((x for x in (limit.soft, limit.hard) if x is not None), default=None)
    if value is None or (ours and value >= ours):
        return message
    kb, mb = value // 1024, value // 2**20
    return _message(
        f"{message.en}\nYour shell's `ulimit -d` is {kb} KB (about {mb} MB), below the tutor's own "
        f"{ending.memory_limit_mb} MB: that is the limit the program reached",
        f"{message.zh}\n你的 shell 设置的 `ulimit -d` 是 {kb} KB（约 {mb} MB），低于本教程自己的 "
        f"{ending.memory_limit_mb} MB：程序碰到的是这个上限",
    )


def _early_exit(rc: int | None, stderr: str) -> tuple[VerdictKind, Bilingual]:
    tail = stderr[-20000:]
    if rc is not None and rc < 0:
        sig = signal.Signals(-rc).name if -rc in signal.valid_signals() else str(-rc)
        if _OOM_PATTERN.search(tail):
            return "oom", _message(
                f"out of memory: the program was stopped by {sig} while allocating",
                f"内存不足：程序在分配内存时被 {sig} 终止",
            )
        hint_en, hint_zh = _SIGNAL_HINTS.get(sig, ("", ""))
        return "signal", _message(
            f"the program crashed: killed by signal {sig}{hint_en}", f"程序崩溃：被信号 {sig} 终止{hint_zh}"
        )
    if rc == CHANNEL_LOST:
        return "exit", _message(
            "the program closed the tutor's event pipe, so its results could not be reported; "
            "do not close file descriptors you did not open",
            "程序关闭了检查程序的事件管道，结果无法上报；不要关闭不是你自己打开的文件描述符",
        )
    if rc and _OOM_PATTERN.search(tail):
        return "oom", _message(
            f"out of memory: the program stopped (exit code {rc}) while allocating",
            f"内存不足：程序在分配内存时停止（退出码 {rc}）",
        )
    return "exit", _message(
        f"the program ended the process (exit code {rc}) before the checks finished; "
        "do not call os._exit or sys.exit, and do not close the tutor's pipes",
        f"程序在检查完成前结束了进程（退出码 {rc}）；不要调用 os._exit 或 sys.exit，也不要关闭检查程序的管道",
    )


def _cell_outcome(job: CellJob, seen: _Seen) -> tuple[RunStatus, VerdictKind, Bilingual]:
    expect, cell = job.expect, seen.cell
    if cell is None:
        return "error", "no-result", _message("the cell reported nothing", "单元没有返回任何结果")
    problems = []
    if expect.raises and expect.raises not in cell.exception_types:
        problems.append(f"expected {expect.raises}, got {cell.raised or 'no exception'}")
    if not expect.raises and cell.raised:
        problems.append(f"raised {cell.raised}: {cell.message}")
    for needle in expect.output_contains:
        if needle not in seen.stdout:
            problems.append(f"output lacks {needle!r}")
    for pattern in expect.output_matches:
        if not re.search(pattern, seen.stdout, re.M):
            problems.append(f"output does not match {pattern!r}")
    if problems:
        joined = "; ".join(problems)
        return "fail", "expectation", _message(joined, "与预期不符：" + joined)
    return "pass", "expectation", _message("the cell did what it declares", "单元的行为与声明一致")


def _report(job: DoctorJob, seen: _Seen, ending: Ending, status: str) -> Report | None:
    """The doctor's report with the script's captured output; a timed-out run keeps what it saw."""
    if seen.report is None:
        return None
    report = seen.report
    report.stdout, report.stderr = seen.stdout, seen.stderr
    kept = {"stdout": len(seen.stdout), "stderr": len(seen.stderr)}
    report.cut = {s: (kept[s], n) for s, n in ending.chars_seen.items() if n > kept.get(s, 0)}
    if status == "timeout":
        report.status = "timeout"
    return report


def _forged(what: str) -> Bilingual:
    """Learner code wrote to the tutor's event channel: nothing the run said can be believed."""
    return _message(
        f"the program wrote to the tutor's channel ({what}), so nothing this run reported can be believed "
        "and it is not judged; a solution never needs to touch the tutor's pipes or its own code",
        f"程序向检查程序的通道写入了内容（{what}），这次运行报告的一切都不可信，因此不予评判；"
        "正确的解答从不需要触碰检查程序的管道或它自己的代码",
    )


def _foreign_worker(version: int | None) -> Bilingual:
    """A worker that speaks another version of the protocol: from another install, never the learner's fault."""
    spoke_en = f"speaks protocol version {version}" if version is not None else "announced no protocol version"
    spoke_zh = f"使用第 {version} 版通信协议" if version is not None else "没有声明通信协议版本"
    return _message(
        f"the tutor's worker {spoke_en}, but this tutor speaks version {PROTOCOL_VERSION}: the worker "
        "comes from another install of the tutor, so your code did not run and nothing was judged (not a "
        "fault in your code). Reinstall the tutor (`pip install -e .`) and try again; if it persists, please report it",
        f"检查程序的工作进程{spoke_zh}，而本教程使用第 {PROTOCOL_VERSION} 版：工作进程来自另一份安装的本教程，"
        "因此你的代码没有运行，也没有任何评判（问题不在你的代码）。请重新安装本教程（`pip install -e .`）后再试；"
        "若问题仍在，请报告它",
    )


def _startup_cause(seen: _Seen, ending: Ending) -> Bilingual:
    """A worker that broke before any learner code ran (or never got ready): its cause, named
    from all it said (tutor.sandbox.startup_causes)."""
    said = seen.error.message.en if seen.error and seen.error.kind == "startup" else ""
    text = seen.stderr if said.strip() in seen.stderr else f"{seen.stderr}\n{said}"
    env: dict[str, str | None] = dict.fromkeys(ending.setting_vars)
    env.update(ending.environment)
    return classify(
        text,
        ending.returncode,
        env,
        ending.host_limits,
        ending.shadows,
        ending.memory_limit_mb,
        ending.startup_s if ending.startup_timed_out else 0.0,
    ).message
