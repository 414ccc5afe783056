"""A doctor run, the same from the command line and from the TUI: started in the session's
sandbox (the probe runs in a worker), and its report read from the verdict. No JAX, no
Textual, and no import of the sandbox (which imports this package): it is handed in."""

from __future__ import annotations

from pathlib import Path

from tutor.doctor.findings import Report
from tutor.doctor.options import DoctorOptions


def start_doctor(sandbox, options: DoctorOptions, cwd: Path, stdin_fd: int | None = None):
    """The run of `options.script` (resolved; or `-m` its module) in `cwd`: a tutor.sandbox Run,
    streaming events. `stdin_fd`: the script's standard input (the command line passes its own)."""
    script = str(options.script) if options.module else options.script.resolve()
    return sandbox.run_doctor(
        Path(script), list(options.args), cwd, options.timeout_s, options.nans, options.module, stdin_fd
    )


def report_of(verdict, script: str) -> Report:
    """The verdict's report, or (no report came: a crash before it, a startup failure) one that
    says the script failed, with what it printed."""
    if verdict.report is not None:
        return verdict.report
    report = Report(
        script=script, exit_code=None, duration_s=verdict.duration_s, stdout=verdict.stdout, stderr=verdict.stderr
    )
    report.decide_status(failed=True, timed_out=verdict.status == "timeout")
    return report
