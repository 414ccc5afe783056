"""The one list of verdict kinds: what decided a run, as `check --json` gives it in "kind".

The kinds are made in three places (tutor.sandbox.verdict decides every verdict, also the TUI's
for a worker it could not start; the worker names how its run ended, tutor.child.harness and
tutor.child.worker). tests/cli/test_contracts.py proves that each of them makes only kinds listed here,
that each kind listed is made somewhere, and that docs/CONTRACTS.md lists exactly these, with the
meanings below."""

from __future__ import annotations

from enum import StrEnum


class VerdictKind(StrEnum):
    """What decided a run's verdict. A StrEnum: each member equals its string on the wire and in JSON."""

    CHECKS = "checks"
    EXPECTATION = "expectation"
    DOCTOR = "doctor"
    SYNTAX = "syntax"
    EXCEPTION = "exception"
    EXIT = "exit"
    INTERRUPT = "interrupt"
    BASE_EXCEPTION = "base-exception"
    SIGNAL = "signal"
    OOM = "oom"
    TIMEOUT = "timeout"
    OUTPUT_LIMIT = "output-limit"
    PROCESSES = "processes"
    DISK = "disk"
    REAPER = "reaper"
    TAMPER = "tamper"
    CHANNEL = "channel"
    PROTOCOL = "protocol"
    CANCELLED = "cancelled"
    STOPPED = "stopped"
    STARTUP = "startup"
    SPAWN = "spawn"
    INTERNAL = "internal"
    NO_RESULT = "no-result"
    NO_REPORT = "no-report"


# What each kind means, and the statuses a verdict of that kind can have (docs/CONTRACTS.md's table).
MEANINGS: dict[VerdictKind, tuple[str, str]] = {
    VerdictKind.CHECKS: (
        "pass, fail",
        "an exercise ran to its end; its checks decided (pass only if every check passed)",
    ),
    VerdictKind.EXPECTATION: ("pass, fail", "a lesson cell ran to its end; its declared `expect` decided"),
    VerdictKind.DOCTOR: (
        "ok, findings, error",
        "a doctor run ended with its report; the report's status is the verdict's",
    ),
    VerdictKind.SYNTAX: ("error", "the learner's file has a syntax error"),
    VerdictKind.EXCEPTION: ("error", "the learner's file raised an exception while it was loaded"),
    VerdictKind.EXIT: ("error", "the program ended the process early (sys.exit, os._exit, its event pipe closed)"),
    VerdictKind.INTERRUPT: ("error", "the program raised KeyboardInterrupt"),
    VerdictKind.BASE_EXCEPTION: ("error", "the program raised a BaseException that is not an Exception"),
    VerdictKind.SIGNAL: ("error", "the process was killed by a signal (a crash in native code, SIGKILL)"),
    VerdictKind.OOM: ("error", "out of memory: the program's own MemoryError or XLA's, or the tutor's memory bound"),
    VerdictKind.TIMEOUT: ("timeout", "the run's time limit passed"),
    VerdictKind.OUTPUT_LIMIT: ("error", "the program printed more than the output limit; it was stopped"),
    VerdictKind.PROCESSES: ("error", "the program ran more processes or threads at once than the bound"),
    VerdictKind.DISK: ("error", "the program wrote more files than the bound"),
    VerdictKind.REAPER: ("error", "the tutor's guard process above the worker was ended from outside"),
    VerdictKind.TAMPER: ("error", "the program changed the tutor's checking code while judged: not judged"),
    VerdictKind.CHANNEL: ("error", "the program wrote to the tutor's event channel: nothing it reported is believed"),
    VerdictKind.PROTOCOL: ("error", "the worker sent an event the tutor cannot read"),
    VerdictKind.CANCELLED: ("error", "the learner or the tutor cancelled the run"),
    VerdictKind.STOPPED: ("ok, findings, error", "a doctor run was stopped (Ctrl+C); the report covers what ran"),
    VerdictKind.STARTUP: ("error", "the worker broke before any learner code ran (the tutor's setting, not the code)"),
    VerdictKind.SPAWN: ("error", "the TUI could not start a worker process"),
    VerdictKind.INTERNAL: ("error", "the tutor itself failed (a bug or a worker of another version), not the code"),
    VerdictKind.NO_RESULT: ("error", "a lesson cell's run reported no result"),
    VerdictKind.NO_REPORT: ("error", "a doctor run ended without the doctor's report"),
}
