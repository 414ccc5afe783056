"""The verdict as a table: events and how the process ended -> status and kind. No processes."""

from __future__ import annotations

import signal

import pytest

from tutor.i18n import Bilingual
from tutor.protocol import (
    CHANNEL_LOST,
    PROTOCOL_VERSION,
    CellJob,
    CellResult,
    CheckResult,
    CheckSpec,
    DoctorJob,
    DoctorReport,
    Done,
    ExerciseJob,
    Expect,
    Finding,
    MetricPoints,
    Ready,
    RunError,
    ScriptReport,
    Started,
)
from tutor.sandbox.events import Output
from tutor.sandbox.verdict import Ending, decide

EXERCISE = ExerciseJob(
    source="",
    filename="learner.py",
    checks=(
        CheckSpec("a", name=Bilingual(en="check a", zh="检查 a")),
        CheckSpec("b", name=Bilingual(en="check b", zh="检查 b"), depends=("a",)),
    ),
)
CELL = CellJob(id="c", code="", expect=Expect(raises="ValueError", output_contains=("hi",)))
PLAIN_CELL = CellJob(id="c", code="")
DOCTOR = DoctorJob(script="/s/train.py")
OK = Bilingual.same("")


def check(id: str, status: str = "pass") -> CheckResult:
    return CheckResult(id, status, OK)


def report(status: str = "findings") -> DoctorReport:
    findings = (Finding("retrace", "shape", "train.py", 4, function="step", count=3),)
    return DoctorReport(ScriptReport("train.py", status, 0, 1.0, findings if status == "findings" else ()))


START = [Ready(1), Started()]
PASSED = START + [check("a"), check("b"), Done()]
RAISED = CellResult("ValueError", ("ValueError", "Exception"), "bad", "")
ROWS = [
    # name, job, events, ending, status, kind
    ("all pass", EXERCISE, PASSED, Ending(0), "pass", "checks"),
    # learner code wrote to the channel (tutor.sandbox.intake): whatever came before, never a pass
    ("forged", EXERCISE, PASSED, Ending(0, forged="a CheckResult event without the run's seal"), "error", "channel"),
    ("forged, then timed out", EXERCISE, START, Ending(None, timed_out=True, forged="x"), "error", "channel"),
    (
        "with metrics",
        EXERCISE,
        START + [MetricPoints((("loss", 0, 1.0),)), check("a"), check("b"), Done()],
        Ending(0),
        "pass",
        "checks",
    ),
    ("a fail", EXERCISE, START + [check("a", "fail"), check("b", "skipped"), Done()], Ending(0), "fail", "checks"),
    ("could not judge", EXERCISE, START + [check("a"), check("b", "error"), Done()], Ending(0), "fail", "checks"),
    ("a check never reported", EXERCISE, START + [check("a"), Done()], Ending(0), "fail", "checks"),
    ("no checks at all", ExerciseJob("", "l.py", ()), START + [Done()], Ending(0), "fail", "checks"),
    (
        "error event",
        EXERCISE,
        START + [RunError("syntax", Bilingual(en="syntax error", zh="语法错误")), Done()],
        Ending(0),
        "error",
        "syntax",
    ),
    ("missing done", EXERCISE, START + [check("a"), check("b")], Ending(0), "error", "exit"),
    ("early exit code", EXERCISE, START + [check("a")], Ending(3), "error", "exit"),
    ("event pipe closed", EXERCISE, START, Ending(CHANNEL_LOST), "error", "exit"),
    ("segfault", EXERCISE, START, Ending(-signal.SIGSEGV), "error", "signal"),
    (
        "killed, out of memory",
        EXERCISE,
        START + [Output("stderr", "MemoryError\n")],
        Ending(-signal.SIGKILL),
        "error",
        "oom",
    ),
    (
        "exit code, out of memory",
        EXERCISE,
        START + [Output("stderr", "RESOURCE_EXHAUSTED: x")],
        Ending(1),
        "error",
        "oom",
    ),
    ("timeout", EXERCISE, START + [check("a")], Ending(None, timed_out=True), "timeout", "timeout"),
    ("the worker's own deadline", EXERCISE, START, Ending(-signal.SIGALRM), "timeout", "timeout"),
    ("cancel", EXERCISE, START, Ending(-signal.SIGKILL, cancelled=True), "error", "cancelled"),
    ("cancel beats a pass", EXERCISE, PASSED, Ending(0, cancelled=True), "error", "cancelled"),
    (
        "protocol error",
        EXERCISE,
        START + [check("a")],
        Ending(None, protocol_error="a line that is not JSON"),
        "error",
        "protocol",
    ),
    ("output flood", EXERCISE, START, Ending(None, flooded=True, output_limit_mb=8), "error", "output-limit"),
    ("parent's own failure", EXERCISE, PASSED, Ending(0, internal_error="KeyError: x"), "error", "internal"),
    ("never ready", EXERCISE, [Output("stderr", "ImportError: no jax\n")], Ending(1), "error", "startup"),
    ("startup error event", EXERCISE, [RunError("startup", Bilingual.same("Boom: x"))], Ending(1), "error", "startup"),
    ("startup too slow", EXERCISE, [], Ending(None, startup_timed_out=True, startup_s=120), "error", "startup"),
    (
        "cell raised as declared",
        CELL,
        START + [Output("stdout", "hi\n"), RAISED, Done()],
        Ending(0),
        "pass",
        "expectation",
    ),
    ("cell output lacks text", CELL, START + [RAISED, Done()], Ending(0), "fail", "expectation"),
    ("cell raised unexpectedly", PLAIN_CELL, START + [RAISED, Done()], Ending(0), "fail", "expectation"),
    ("cell reported nothing", CELL, START + [Done()], Ending(0), "error", "no-result"),
    ("cell timeout", CELL, START, Ending(None, timed_out=True), "timeout", "timeout"),
    (
        "doctor findings",
        DOCTOR,
        START + [Output("stdout", "step 1\n"), report(), Done()],
        Ending(0),
        "findings",
        "doctor",
    ),
    ("doctor clean", DOCTOR, START + [report("ok"), Done()], Ending(0), "ok", "doctor"),
    ("doctor script failed", DOCTOR, START + [report("error"), Done()], Ending(0), "error", "doctor"),
    ("doctor without report", DOCTOR, START + [Done()], Ending(0), "error", "no-report"),
    ("doctor worker died", DOCTOR, START, Ending(0), "error", "exit"),
    (
        "doctor timeout keeps report",
        DOCTOR,
        START + [report()],
        Ending(-signal.SIGKILL, timed_out=True),
        "timeout",
        "timeout",
    ),
    ("doctor timeout, no report", DOCTOR, START, Ending(None, timed_out=True), "timeout", "timeout"),
    ("doctor stopped", DOCTOR, START + [report(), Done()], Ending(0, stopped=True), "findings", "stopped"),
    ("doctor stopped, no report", DOCTOR, START, Ending(None, stopped=True), "error", "stopped"),
    ("a worker of another protocol", EXERCISE, [], Ending(None, worker_protocol=99), "error", "internal"),
    ("a worker announcing no protocol", CELL, [], Ending(None, worker_protocol=None), "error", "internal"),
    ("doctor stopped before start", DOCTOR, [], Ending(None, stopped=True), "error", "stopped"),
    (
        "too many processes",
        EXERCISE,
        START + [check("a")],
        Ending(1, guard="processes", processes_limit=100),
        "error",
        "processes",
    ),
    ("too many threads", EXERCISE, START, Ending(1, guard="threads", processes_limit=100), "error", "processes"),
    ("the tree's memory", EXERCISE, START, Ending(1, guard="memory", memory_limit_mb=4096), "error", "oom"),
    ("too much disk", EXERCISE, START, Ending(1, guard="disk", disk_limit_mb=1024), "error", "disk"),
    ("the reaper killed", EXERCISE, START, Ending(-signal.SIGKILL, guard="killed"), "error", "reaper"),
    ("the reaper killed after a pass", EXERCISE, PASSED, Ending(-signal.SIGKILL, guard="killed"), "error", "reaper"),
    ("the reaper killed before start", EXERCISE, [], Ending(-signal.SIGKILL, guard="killed"), "error", "startup"),
    ("doctor cancelled", DOCTOR, START + [report()], Ending(None, cancelled=True), "error", "cancelled"),
    (
        "doctor unreadable report",
        DOCTOR,
        START + [DoctorReport(ScriptReport("train.py", "weird", 0, 1.0)), Done()],  # type: ignore[arg-type]
        Ending(0),
        "error",
        "protocol",
    ),
]


@pytest.mark.parametrize("name, job, events, ending, status, kind", ROWS, ids=[r[0] for r in ROWS])
def test_verdict_table(name, job, events, ending, status, kind):
    verdict = decide(job, events, ending)
    assert (verdict.status, verdict.kind) == (status, kind), verdict.message
    assert verdict.message.en and verdict.message.zh
    assert (verdict.report is not None) == (
        isinstance(job, DoctorJob) and any(isinstance(e, DoctorReport) for e in events) and kind != "protocol"
    )
    if isinstance(job, ExerciseJob):
        assert [c.id for c in verdict.checks] == [s.id for s in job.checks]
        assert all(c.name == s.name for c, s in zip(verdict.checks, job.checks))
    else:
        assert verdict.checks == ()


def test_only_all_checks_passing_and_done_is_a_pass():
    passes = [r[0] for r in ROWS if r[4] == "pass" and isinstance(r[1], ExerciseJob)]
    assert passes == ["all pass", "with metrics"]


def test_completing_the_checks_makes_new_objects():
    given = [check("a", "fail")]
    verdict = decide(EXERCISE, START + given + [Done()], Ending(0))
    assert given[0].name is None and verdict.checks[0] is not given[0]
    assert verdict.checks[0].name == Bilingual(en="check a", zh="检查 a")
    assert verdict.checks[1].status == "skipped" and verdict.checks[1].message.en.startswith("not run")
    assert decide(EXERCISE, [], Ending(1)).checks[0].message.en == "not run: the tutor's worker did not start"


def test_the_verdict_keeps_output_metrics_and_the_doctors_report():
    events = START + [
        Output("stdout", "step 1\n"),
        Output("stderr", "warn\n"),
        MetricPoints((("loss", 0, 2.0), ("loss", 1, 1.0))),
        report(),
        Done(),
    ]
    verdict = decide(DOCTOR, events, Ending(0, truncated=True, duration_s=1.5))
    assert (verdict.stdout, verdict.stderr, verdict.metrics) == ("step 1\n", "warn\n", {"loss": [2.0, 1.0]})
    assert verdict.output_truncated and verdict.duration_s == 1.5
    found = verdict.report.findings[0]
    assert (found.kind, found.code, found.function, found.line, found.count) == ("retrace", "shape", "step", 4, 3)
    assert (verdict.report.stdout, verdict.report.stderr) == ("step 1\n", "warn\n")
    timed_out = decide(DOCTOR, events[:-1], Ending(None, timed_out=True))
    assert timed_out.report.status == "timeout" and timed_out.report.findings


def test_deciding_twice_gives_the_same_verdict():
    events = START + [check("a", "fail"), Done()]
    assert decide(EXERCISE, events, Ending(0)) == decide(EXERCISE, events, Ending(0))


def test_setting_variables_are_named_in_a_startup_failure():
    """The one the error names, alone; else every one set, as what to try without."""
    named = decide(
        EXERCISE,
        [Output("stderr", "RuntimeError: JAX_PLATFORMS=tpu unknown\n")],
        Ending(1, setting_vars=("XLA_FLAGS", "JAX_PLATFORMS")),
    )
    assert "env -u JAX_PLATFORMS" in named.message.en and "XLA_FLAGS" not in named.message.en
    unnamed = decide(
        EXERCISE,
        [Output("stderr", "RuntimeError: something odd\n")],
        Ending(1, setting_vars=("XLA_FLAGS", "JAX_PLATFORMS")),
    )
    assert "your shell sets JAX_PLATFORMS, XLA_FLAGS" in unnamed.message.en
    assert "pip install" not in unnamed.message.en  # not the install: nothing says so


def test_a_worker_refused_a_thread_names_the_process_limit_not_the_install():
    """`ulimit -u 12`: JAX's import fails in PyObject_Vectorcall, the real cause is on stderr."""
    stderr = (
        "F external/xla/tsl/platform/default/env.cc:77] pthread_create failed: Resource temporarily unavailable\n"
        "Traceback (most recent call last):\n  ...\nSystemError: <built-in function X> returned NULL "
        "(in PyObject_Vectorcall)\n"
    )
    verdict = decide(
        EXERCISE,
        [Output("stderr", stderr), RunError("startup", Bilingual.same("SystemError: ... PyObject_Vectorcall"))],
        Ending(1),
    )
    assert (verdict.status, verdict.kind) == ("error", "startup")
    for text in (verdict.message.en, verdict.message.zh):
        assert "pthread_create failed" in text and "ulimit -u" in text, text
        assert "pip install" not in text and "PyObject_Vectorcall" not in text, text


def test_a_worker_of_another_protocol_is_named_with_both_versions():
    """Before anything else it sent (nothing else can be read): not a startup fault, not the learner's."""
    other = decide(EXERCISE, [Output("stderr", "Traceback ...")], Ending(1, worker_protocol=99))
    assert f"speaks protocol version 99, but this tutor speaks version {PROTOCOL_VERSION}" in other.message.en
    assert "99" in other.message.zh and str(PROTOCOL_VERSION) in other.message.zh
    assert "not a fault in your code" in other.message.en
    unversioned = decide(EXERCISE, [], Ending(None, worker_protocol=None)).message.en
    assert f"announced no protocol version, but this tutor speaks version {PROTOCOL_VERSION}" in unversioned
    cancelled = decide(EXERCISE, [], Ending(None, cancelled=True, worker_protocol=99))
    assert cancelled.kind == "cancelled"  # the learner's own cancel still reads as that


def test_a_cancelled_run_has_one_wording_per_kind_of_job():
    """The CLI and every screen show the verdict's message: a check says check, a cell or doctor run says run."""
    words = {job: decide(job, START, Ending(None, cancelled=True)).message.en for job in (EXERCISE, CELL, DOCTOR)}
    assert words == {EXERCISE: "Check cancelled.", CELL: "Run cancelled.", DOCTOR: "Run cancelled."}


def test_no_check_of_a_forged_run_is_shown_as_passed():
    v = decide(EXERCISE, PASSED, Ending(0, forged="a second done"))
    assert [c.status for c in v.checks] == ["skipped", "skipped"]
    assert "wrote to the tutor's channel" in v.message.en and "a second done" in v.message.en
    assert "通道" in v.message.zh and all("通道" in c.message.zh for c in v.checks)


def test_a_worker_that_could_not_be_started_is_decided_without_a_job():
    """The TUI's run whose worker could not be spawned (no room in /tmp, no processes left) has no
    job yet: its verdict is decided here too, naming the cause, with no check claimed either way."""
    verdict = decide(None, (), Ending(spawn_error="[Errno 28] No space left on device"))
    assert (verdict.status, verdict.kind, verdict.checks) == ("error", "spawn", ())
    assert "No space left on device" in verdict.message.en and "No space left on device" in verdict.message.zh
    assert not verdict.passed
