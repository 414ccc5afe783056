"""Typed events of a run, as the parent sees them; the verdict and its JSON form."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tutor.i18n import pick

STATUSES = ("pass", "fail", "error", "timeout")


@dataclass(frozen=True)
class Output:
    """A chunk of the learner program's stdout or stderr."""

    stream: str
    text: str


@dataclass(frozen=True)
class MetricPoints:
    """Points for live charts: (series, step, value) triples."""

    points: tuple[tuple[str, int, float], ...]


@dataclass
class CheckResult:
    id: str
    status: str  # pass | fail | error | skipped
    message: dict
    name: dict = field(default_factory=dict)
    duration_s: float | None = None

    def to_json(self, lang: str) -> dict:
        return {"id": self.id, "name": pick(self.name, lang) if self.name else self.id,
                "status": self.status, "message": pick(self.message, lang), "duration_s": self.duration_s}


@dataclass
class CellResult:
    """What a demo cell did: the exception it raised, if any."""

    raised: str | None
    exception_types: list[str]
    message: str
    traceback: str


@dataclass
class Verdict:
    """The final, authoritative outcome of a run. Only `pass` means the solution passed."""

    status: str  # pass | fail | error | timeout
    kind: str  # what decided it: checks, syntax, exception, exit, signal, oom, timeout, ...
    message: dict
    checks: list[CheckResult]
    stdout: str
    stderr: str
    duration_s: float
    metrics: dict[str, list[float]]
    cell: CellResult | None = None
    output_truncated: bool = False

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def to_json(self, exercise_id: str, lang: str) -> dict:
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
            "message": pick(self.message, lang),
        }
