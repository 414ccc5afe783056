"""The doctor's report as data: findings grouped (the worker does it), the status and exit code
a run means, and the report as the parent keeps it: what the worker sent
(tutor.protocol.ScriptReport) plus the script's captured output. No words here (findings are
worded in tutor.doctor.wording), no JAX, no Textual."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tutor.protocol import (
    BLIND_CAUSES,
    DOCTOR_STATUSES,
    FINDING_CODES,
    FINDING_KINDS,
    DoctorStatus,
    Finding,
    ScriptReport,
    TraceCount,
)


def group(findings: list[Finding]) -> list[Finding]:
    """One finding per kind + function + place, with the counts (and costs) added; the learner's
    own first, the costliest first (time lost waiting or recompiling), the rest in file order;
    then those whose cause lies inside a library. Top-level code has no function to name."""
    merged: dict[tuple, Finding] = {}
    for f in findings:
        if f.function == "<module>":
            f = replace(f, function=None)
        key = (f.kind, f.function, f.file, f.line)
        seen = merged.get(key)
        merged[key] = f if seen is None else _merge(seen, f)
    return sorted(
        merged.values(),
        key=lambda f: (bool(f.inside), -round(f.seconds, 2), f.file, f.line, FINDING_KINDS.index(f.kind)),
    )


def _merge(first: Finding, then: Finding) -> Finding:
    """The first finding's words, the counts of both; a detail only the second has is kept."""
    return replace(
        first,
        count=first.count + then.count,
        name=first.name or then.name,
        first_line=first.first_line if first.first_line is not None else then.first_line,
        explanation=first.explanation or then.explanation,
        types=first.types or then.types,
        via=first.via or then.via,
        primitive=first.primitive or then.primitive,
        paths=first.paths or then.paths,
        seconds=first.seconds + then.seconds,
        made_line=first.made_line if first.made_line is not None else then.made_line,
        noticed_line=first.noticed_line if first.noticed_line is not None else then.noticed_line,
        changed=first.changed or then.changed,
        inside=first.inside or then.inside,
    )


def status_of(findings: tuple[Finding, ...] | list[Finding], failed: bool, timed_out: bool = False) -> DoctorStatus:
    """timeout beats error beats findings beats ok."""
    return "timeout" if timed_out else "error" if failed else "findings" if findings else "ok"


@dataclass
class Report:
    """One doctor run: the script, how it ended, what was found, what it printed."""

    script: str
    status: DoctorStatus = "ok"
    exit_code: int | None = 0
    duration_s: float = 0.0
    findings: list[Finding] = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""
    traces: tuple[TraceCount, ...] = ()  # shown in the text form, not part of the JSON contract
    notes: list[Finding] = field(default_factory=list)  # worth a word, not a bug (not in `findings`)
    # a stream the report keeps only the start of: stream -> (characters kept, characters printed)
    cut: dict[str, tuple[int, int]] = field(default_factory=dict)
    blinded: tuple[str, ...] = ()  # what the doctor could not see, by cause (ScriptReport.blinded)

    @classmethod
    def from_wire(cls, sent: ScriptReport) -> Report:
        """A report of the parent's own from what the worker sent (a new object each time: the
        verdict fills in the output); ValueError if its status, or a finding's kind or code, is not
        one we know."""
        if sent.status not in DOCTOR_STATUSES:
            raise ValueError(f"unknown doctor status {sent.status!r}")
        for f in (*sent.findings, *sent.notes):
            if f.kind not in FINDING_KINDS or f.code not in FINDING_CODES:
                raise ValueError(f"unknown finding kind {f.kind!r} or code {f.code!r}")
        if any(cause not in BLIND_CAUSES for cause in sent.blinded):
            raise ValueError(f"unknown blind spot in {sent.blinded!r}")
        return cls(
            sent.script,
            sent.status,
            sent.exit_code,
            sent.duration_s,
            list(sent.findings),
            traces=sent.traces,
            notes=list(sent.notes),
            blinded=sent.blinded,
        )

    def decide_status(self, failed: bool, timed_out: bool = False) -> None:
        self.status = status_of(self.findings, failed, timed_out)

    def cli_exit_code(self) -> int:
        """The doctor command's exit code: 0 no finding, 1 findings, 3 the script failed."""
        if self.status in ("error", "timeout"):
            return 3
        return 1 if self.findings else 0
