"""The one list of verdict kinds: what decided a run, as `check --json` gives it in "kind".

The words are tutor.protocol.VerdictKind (a Literal: mypy refuses a kind not listed there,
wherever one is made: tutor.sandbox.verdict decides every verdict, also the TUI's for a worker it
could not start; the worker names how its run ended, tutor.child.harness and tutor.child.worker).
Here: what each means. tests/cli/test_contracts.py proves that docs/CONTRACTS.md lists exactly
these, with the meanings below."""

from __future__ import annotations

from tutor.protocol import VerdictKind

# What each kind means, and the statuses a verdict of that kind can have (docs/CONTRACTS.md's table).
MEANINGS: dict[VerdictKind, tuple[str, str]] = {
    "checks": (
        "pass, fail",
        "an exercise ran to its end; its checks decided (pass only if every check passed)",
    ),
    "expectation": ("pass, fail", "a lesson cell ran to its end; its declared `expect` decided"),
    "doctor": (
        "ok, findings, error",
        "a doctor run ended with its report; the report's status is the verdict's",
    ),
    "syntax": ("error", "the learner's file has a syntax error"),
    "exception": ("error", "the learner's file raised an exception while it was loaded"),
    "exit": ("error", "the program ended the process early (sys.exit, os._exit, its event pipe closed)"),
    "interrupt": ("error", "the program raised KeyboardInterrupt"),
    "base-exception": ("error", "the program raised a BaseException that is not an Exception"),
    "signal": ("error", "the process was killed by a signal (a crash in native code, SIGKILL)"),
    "oom": ("error", "out of memory: the program's own MemoryError or XLA's, or the tutor's memory bound"),
    "timeout": ("timeout", "the run's time limit passed"),
    "output-limit": ("error", "the program printed more than the output limit; it was stopped"),
    "processes": ("error", "the program ran more processes or threads at once than the bound"),
    "disk": ("error", "the program wrote more files than the bound"),
    "reaper": ("error", "the tutor's guard process above the worker was ended from outside"),
    "tamper": ("error", "the program changed the tutor's checking code while judged: not judged"),
    "channel": ("error", "the program wrote to the tutor's event channel: nothing it reported is believed"),
    "protocol": ("error", "the worker sent an event the tutor cannot read"),
    "cancelled": ("error", "the learner or the tutor cancelled the run"),
    "stopped": ("ok, findings, error", "a doctor run was stopped (Ctrl+C); the report covers what ran"),
    "startup": ("error", "the worker broke before any learner code ran (the tutor's setting, not the code)"),
    "spawn": ("error", "the TUI could not start a worker process"),
    "internal": ("error", "the tutor itself failed (a bug or a worker of another version), not the code"),
    "no-result": ("error", "a lesson cell's run reported no result"),
    "no-report": ("error", "a doctor run ended without the doctor's report"),
}
