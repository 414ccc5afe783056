"""Typed events of a run, as the parent sees them; the verdict and its JSON form.

`parse_event` is the boundary: every line from a worker's event pipe becomes one of these
types or raises ProtocolError, so nothing malformed reaches the verdict, the CLI or the UI.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

from tutor.i18n import pick

STATUSES = ("pass", "fail", "error", "timeout")


class ProtocolError(ValueError):
    """An event line the parent cannot accept; the message says what is wrong with it."""


@dataclass(frozen=True)
class Ready:
    """The worker imported JAX and the check library and waits for its job."""


@dataclass(frozen=True)
class Started:
    """The worker read its job; learner code runs from here on."""


@dataclass(frozen=True)
class Done:
    """The job ran to its end and every result was sent before this."""


@dataclass(frozen=True)
class RunError:
    """The run was ended by a named outcome (exit, interrupt, oom, internal, startup, ...)."""

    kind: str
    message: dict


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


CHECK_STATUSES = ("pass", "fail", "error", "skipped")


def _text(value, what: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} is {type(value).__name__}, not text")
    return value


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ProtocolError(f"{what} is {type(value).__name__}, not a number")
    return float(value)


def _message_of(event: dict) -> dict:
    message = event.get("message")
    if not isinstance(message, dict) or not message:
        raise ProtocolError("message is not a {lang: text} object")
    return {_text(k, "a message language"): _text(v, "a message") for k, v in message.items()}


def _points(event: dict) -> tuple[tuple[str, int, float], ...]:
    points = event.get("points")
    if not isinstance(points, list):
        raise ProtocolError("metrics points is not a list")
    out = []
    for p in points:
        if not isinstance(p, list) or len(p) != 3:
            raise ProtocolError("a metrics point is not [series, step, value]")
        if isinstance(p[1], bool) or not isinstance(p[1], int):
            raise ProtocolError(f"a metrics step is {type(p[1]).__name__}, not an integer")
        out.append((_text(p[0], "a metrics series"), p[1], _number(p[2], "a metrics value")))
    return tuple(out)


def _check(event: dict) -> CheckResult:
    status = event.get("status")
    if status not in CHECK_STATUSES:
        raise ProtocolError(f"check status {status!r} is not one of {', '.join(CHECK_STATUSES)}")
    duration = event.get("duration_s")
    return CheckResult(_text(event.get("id"), "check id"), status, _message_of(event),
                       duration_s=None if duration is None else _number(duration, "check duration_s"))


def _cell(event: dict) -> CellResult:
    raised = event.get("raised")
    types = event.get("exception_types")
    if not isinstance(types, list):
        raise ProtocolError("cell exception_types is not a list")
    return CellResult(None if raised is None else _text(raised, "cell raised"),
                      [_text(t, "an exception type") for t in types],
                      _text(event.get("message"), "cell message"), _text(event.get("traceback"), "cell traceback"))


_PARSERS = {
    "ready": lambda e: Ready(),
    "started": lambda e: Started(),
    "done": lambda e: Done(),
    "error": lambda e: RunError(_text(e.get("kind"), "error kind"), _message_of(e)),
    "check": _check,
    "metrics": lambda e: MetricPoints(_points(e)),
    "cell": _cell,
}


def parse_event(event: object) -> object:
    """One decoded JSON line from a worker as a typed event; ProtocolError if it is not one."""
    if not isinstance(event, dict):
        raise ProtocolError(f"an event is {type(event).__name__}, not an object")
    parser = _PARSERS.get(event.get("type"))
    if parser is None:
        raise ProtocolError(f"unknown event type {event.get('type')!r}")
    return parser(event)
