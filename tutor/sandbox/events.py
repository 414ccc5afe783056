"""What the parent makes of a run besides the worker's own events: output chunks and the verdict.

The events a worker sends (and their validation) are in tutor.protocol.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.i18n import Bilingual
from tutor.protocol import RUN_STATUSES, CellResult, CheckResult, VerdictKind, VerdictStatus

if TYPE_CHECKING:
    from tutor.doctor.findings import Report

STATUSES = RUN_STATUSES  # an exercise's or a cell's (a doctor run's are its report's: DOCTOR_STATUSES)


@dataclass(frozen=True)
class Output:
    """A chunk of the learner program's stdout or stderr."""

    stream: str
    text: str


@dataclass(frozen=True)
class Verdict:
    """The final, authoritative outcome of a run. Only `pass` means the solution passed. Frozen: every
    screen, the CLI and the progress owner read the same one (a changed copy is `replace(verdict, ...)`)."""

    status: VerdictStatus
    kind: VerdictKind  # what decided it (tutor.sandbox.kinds says what each means)
    message: Bilingual
    checks: tuple[CheckResult, ...]
    stdout: str
    stderr: str
    duration_s: float
    metrics: dict[str, list[float]]
    cell: CellResult | None = None
    output_truncated: bool = False
    report: Report | None = None  # a doctor job's report (None for exercises and cells)

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def to_json(self, exercise_id: str, lang: str) -> dict[str, Any]:
        """The `check --json` contract."""
        return {
            "exercise": exercise_id,
            "status": self.status,
            "checks": [c.to_json(lang) for c in self.checks],
            "stdout": self.stdout,
            "stderr": self.stderr,
            "duration_s": round(self.duration_s, 3),
            # A diverging loss is NaN or inf, which strict JSON cannot spell: null instead.
            "metrics": {k: [v if math.isfinite(v) else None for v in vs] for k, vs in self.metrics.items()},
            "kind": self.kind,
            "message": self.message.get(lang),
        }
