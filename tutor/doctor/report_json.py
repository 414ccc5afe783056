"""The `doctor --json` object of docs/CONTRACTS.md (plus a `cell` key beside `lesson`): the report's
data, each finding's `message` worded in the learner's language by tutor.doctor.wording."""

from __future__ import annotations

from typing import Any

from tutor.doctor.findings import Report
from tutor.doctor.teaching import Taught, teaching
from tutor.doctor.wording import message
from tutor.protocol import Finding


def finding_json(f: Finding, lang: str, taught: Taught | None = None) -> dict[str, Any]:
    """One finding, with the lesson and cell that teach its fix in `taught` (the course's
    teachings; `lesson` and `cell` null where it names none)."""
    where = teaching(f, taught)
    return {
        "kind": f.kind,
        "function": f.function,
        "file": f.file,
        "line": f.line,
        "count": f.count,
        "message": message(f, lang),
        "lesson": where.lesson,
        "cell": where.cell,
    }


def report_json(report: Report, lang: str, taught: Taught | None = None) -> dict[str, Any]:
    """docs/CONTRACTS.md's object; `notes` (a constant key kept on purpose...), `blinded` (a detector the
    script turned off, such as JAX's cache-miss explanations) and `output_cut` (a stream
    of which only the first `kept_chars` of `total_chars` are in `stdout` / `stderr`, to bound
    the memory a runaway log takes) are added only when there are some."""
    data: dict[str, Any] = {
        "script": report.script,
        "status": report.status,
        "exit_code": report.exit_code,
        "duration_s": round(report.duration_s, 3),
        "findings": [finding_json(f, lang, taught) for f in report.findings],
        "stdout": report.stdout,
        "stderr": report.stderr,
    }
    if report.notes:
        data["notes"] = [finding_json(f, lang, taught) for f in report.notes]
    blinded = [cause for cause in report.blinded if cause != "stopped"]  # a stop: status and exit_code say it
    if blinded:  # a detector the script blinded ("logging"): only then, like `notes`
        data["blinded"] = blinded
    if report.cut:
        data["output_cut"] = {s: {"kept_chars": k, "total_chars": n} for s, (k, n) in report.cut.items()}
    return data
