"""The worker pipe, written down once: every job the parent sends and every event a worker sends.

A job is one JSON line on the worker's stdin; events are JSON lines on a private event pipe.
Each side builds what it sends with these dataclasses and `to_wire()`, and reads what it
receives with `parse_job` / `parse_event`, which validate and raise ProtocolError, so nothing
malformed reaches the harness, the verdict, the CLI or the UI. This is the only module that
spells a job or event "type". Bilingual messages are tutor.i18n.Bilingual on both sides and travel as
{"en": ..., "zh": ...} objects (`Bilingual.to_dict()`).
Standard library only (and tutor.i18n): both the JAX-free parent and the worker import it.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import ClassVar, Literal, get_args

from tutor.i18n import Bilingual

CHANNEL_LOST = 86  # the worker's exit status when its event pipe is gone (closed by learner code)
CHECK_STATUSES = ("pass", "fail", "error", "skipped")
RUN_DIR_PREFIX = "jaxstate-run-"  # a run's own folder: the parent makes and sweeps it, the worker's lifeline removes it


class ProtocolError(ValueError):
    """A job or event the receiver cannot accept; the message says what is wrong with it."""


# ------------------------------------------------------------------ validation helpers


def _text(value, what: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(f"{what} is {type(value).__name__}, not text")
    return value


def _optional_text(value, what: str) -> str | None:
    return None if value is None else _text(value, what)


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ProtocolError(f"{what} is {type(value).__name__}, not a number")
    return float(value)


def _integer(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{what} is {type(value).__name__}, not an integer")
    return value


def _texts(value, what: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ProtocolError(f"{what} is not a list")
    return tuple(_text(v, f"an item of {what}") for v in value)


def _message(value, what: str = "message") -> Bilingual:
    """A bilingual message: a non-empty {lang: text} object, as a Bilingual. One language missing reads
    as the other (the worker always sends both; this is leniency, not a second format)."""
    if not isinstance(value, dict) or not value:
        raise ProtocolError(f"{what} is not a {{lang: text}} object")
    texts = {_text(k, f"a {what} language"): _text(v, f"a {what}") for k, v in value.items()}
    en, zh = texts.get("en"), texts.get("zh")
    if en is None and zh is None:
        raise ProtocolError(f"{what} has neither an en nor a zh text")
    return Bilingual(zh=zh or en or "", en=en or zh or "")


def _object(value, what: str) -> dict:
    if not isinstance(value, dict):
        raise ProtocolError(f"{what} is {type(value).__name__}, not an object")
    return value


# ------------------------------------------------------------------ jobs (parent -> worker)


@dataclass(frozen=True)
class CheckSpec:
    """One check of an exercise, as the worker runs it: the `@check` function of that id in the
    job's checks.py, with the texts a skip or a failure needs."""

    id: str
    name: Bilingual | None = None
    depends: tuple[str, ...] = ()
    advice: Bilingual | None = None
    origin: str = ""  # "path/checks.py:line" of its function, for messages about the check itself

    def to_wire(self) -> dict:
        return {
            "id": self.id,
            "name": self.name.to_dict() if self.name else None,
            "depends": list(self.depends),
            "advice": self.advice.to_dict() if self.advice else None,
            "origin": self.origin,
        }

    @classmethod
    def from_wire(cls, obj) -> CheckSpec:
        obj = _object(obj, "a check")
        advice = obj.get("advice")
        return cls(
            _text(obj.get("id"), "check id"),
            _message(obj["name"], "check name") if obj.get("name") else None,
            _texts(obj.get("depends", []), "check depends"),
            _message(advice, "check advice") if advice else None,
            _text(obj.get("origin", ""), "check origin"),
        )


@dataclass(frozen=True)
class Expect:
    """What a demo cell declares it does: the exception it raises, text its output holds."""

    raises: str | None = None
    output_contains: tuple[str, ...] = ()
    output_matches: tuple[str, ...] = ()

    def to_wire(self) -> dict:
        return {
            "raises": self.raises,
            "output_contains": list(self.output_contains),
            "output_matches": list(self.output_matches),
        }

    @classmethod
    def from_wire(cls, obj) -> Expect:
        obj = _object(obj or {}, "a cell's expect")
        return cls(
            _optional_text(obj.get("raises"), "expect raises"),
            _texts(obj.get("output_contains", []), "expect output_contains"),
            _texts(obj.get("output_matches", []), "expect output_matches"),
        )


@dataclass(frozen=True)
class ExerciseJob:
    """Load the learner's file, then run the exercise's checks in order."""

    wire_type: ClassVar[str] = "exercise"
    source: str
    filename: str
    checks: tuple[CheckSpec, ...]
    checks_file: str = ""  # the exercise's checks.py, whose @check functions judge the file
    deadline_s: float | None = None  # the worker ends itself after this long, whatever happens

    def to_wire(self) -> dict:
        return {
            "type": self.wire_type,
            "source": self.source,
            "filename": self.filename,
            "checks": [c.to_wire() for c in self.checks],
            "checks_file": self.checks_file,
            "deadline_s": self.deadline_s,
        }

    @classmethod
    def from_wire(cls, obj: dict) -> ExerciseJob:
        checks = obj.get("checks")
        if not isinstance(checks, list):
            raise ProtocolError("exercise checks is not a list")
        return cls(
            _text(obj.get("source"), "exercise source"),
            _text(obj.get("filename"), "exercise filename"),
            tuple(CheckSpec.from_wire(c) for c in checks),
            _text(obj.get("checks_file", ""), "exercise checks_file"),
            _deadline(obj),
        )


@dataclass(frozen=True)
class CellJob:
    """Run a demo cell as a script and report the exception it raised, if any."""

    wire_type: ClassVar[str] = "cell"
    id: str
    code: str
    expect: Expect = Expect()
    deadline_s: float | None = None

    def to_wire(self) -> dict:
        return {
            "type": self.wire_type,
            "id": self.id,
            "code": self.code,
            "expect": self.expect.to_wire(),
            "deadline_s": self.deadline_s,
        }

    @classmethod
    def from_wire(cls, obj: dict) -> CellJob:
        return cls(
            _text(obj.get("id"), "cell id"),
            _text(obj.get("code"), "cell code"),
            Expect.from_wire(obj.get("expect")),
            _deadline(obj),
        )


@dataclass(frozen=True)
class DoctorJob:
    """Run the learner's own script under the doctor's probe, in `cwd`, with argv [script, *args]."""

    wire_type: ClassVar[str] = "doctor"
    script: str
    args: tuple[str, ...] = ()
    cwd: str | None = None
    nans: bool = False
    deadline_s: float | None = None

    def to_wire(self) -> dict:
        return {
            "type": self.wire_type,
            "script": self.script,
            "args": list(self.args),
            "cwd": self.cwd,
            "nans": self.nans,
            "deadline_s": self.deadline_s,
        }

    @classmethod
    def from_wire(cls, obj: dict) -> DoctorJob:
        nans = obj.get("nans", False)
        if not isinstance(nans, bool):
            raise ProtocolError("doctor nans is not true or false")
        return cls(
            _text(obj.get("script"), "doctor script"),
            _texts(obj.get("args", []), "doctor args"),
            _optional_text(obj.get("cwd"), "doctor cwd"),
            nans,
            _deadline(obj),
        )


Job = ExerciseJob | CellJob | DoctorJob


def _deadline(obj: dict) -> float | None:
    value = obj.get("deadline_s")
    return None if value is None else _number(value, "deadline_s")


_JOBS = {cls.wire_type: cls for cls in (ExerciseJob, CellJob, DoctorJob)}


def parse_job(obj: object) -> Job:
    """One decoded JSON job line as a typed job; ProtocolError if it is not one."""
    obj = _object(obj, "a job")
    cls = _JOBS.get(str(obj.get("type")))
    if cls is None:
        raise ProtocolError(f"unknown job type {obj.get('type')!r}")
    return cls.from_wire(obj)


# ------------------------------------------------------------------ events (worker -> parent)


@dataclass(frozen=True)
class Ready:
    """The worker imported JAX and the check library and waits for its job."""

    wire_type: ClassVar[str] = "ready"
    pid: int | None = None

    def to_wire(self) -> dict:
        return {"type": self.wire_type, "pid": self.pid}

    @classmethod
    def from_wire(cls, obj: dict) -> Ready:
        pid = obj.get("pid")
        return cls(None if pid is None else _integer(pid, "ready pid"))


@dataclass(frozen=True)
class Started:
    """The worker read its job; learner code runs from here on."""

    wire_type: ClassVar[str] = "started"

    def to_wire(self) -> dict:
        return {"type": self.wire_type}

    @classmethod
    def from_wire(cls, obj: dict) -> Started:
        return cls()


@dataclass(frozen=True)
class Done:
    """The job ran to its end and every result was sent before this."""

    wire_type: ClassVar[str] = "done"

    def to_wire(self) -> dict:
        return {"type": self.wire_type}

    @classmethod
    def from_wire(cls, obj: dict) -> Done:
        return cls()


@dataclass(frozen=True)
class RunError:
    """The run was ended by a named outcome (exit, interrupt, oom, internal, startup, ...)."""

    wire_type: ClassVar[str] = "error"
    kind: str
    message: Bilingual

    def to_wire(self) -> dict:
        return {"type": self.wire_type, "kind": self.kind, "message": self.message.to_dict()}

    @classmethod
    def from_wire(cls, obj: dict) -> RunError:
        return cls(_text(obj.get("kind"), "error kind"), _message(obj.get("message")))


@dataclass(frozen=True)
class MetricPoints:
    """Points for live charts: (series, step, value) triples."""

    wire_type: ClassVar[str] = "metrics"
    points: tuple[tuple[str, int, float], ...]

    def to_wire(self) -> dict:
        return {"type": self.wire_type, "points": [list(p) for p in self.points]}

    @classmethod
    def from_wire(cls, obj: dict) -> MetricPoints:
        points = obj.get("points")
        if not isinstance(points, list):
            raise ProtocolError("metrics points is not a list")
        out = []
        for p in points:
            if not isinstance(p, list) or len(p) != 3:
                raise ProtocolError("a metrics point is not [series, step, value]")
            if isinstance(p[1], bool) or not isinstance(p[1], int):
                raise ProtocolError(f"a metrics step is {type(p[1]).__name__}, not an integer")
            out.append((_text(p[0], "a metrics series"), p[1], _number(p[2], "a metrics value")))
        return cls(tuple(out))


@dataclass(frozen=True)
class CheckResult:
    """One check's outcome. `name` is not sent: the parent fills it in from the exercise."""

    wire_type: ClassVar[str] = "check"
    id: str
    status: str  # pass | fail | error | skipped
    message: Bilingual
    name: Bilingual | None = None
    duration_s: float | None = None

    def to_wire(self) -> dict:
        return {
            "type": self.wire_type,
            "id": self.id,
            "status": self.status,
            "message": self.message.to_dict(),
            "duration_s": self.duration_s,
        }

    @classmethod
    def from_wire(cls, obj: dict) -> CheckResult:
        status = obj.get("status")
        if status not in CHECK_STATUSES:
            raise ProtocolError(f"check status {status!r} is not one of {', '.join(CHECK_STATUSES)}")
        duration = obj.get("duration_s")
        return cls(
            _text(obj.get("id"), "check id"),
            status,
            _message(obj.get("message")),
            duration_s=None if duration is None else _number(duration, "check duration_s"),
        )

    def to_json(self, lang: str) -> dict:
        """This check in the `check --json` contract."""
        return {
            "id": self.id,
            "name": self.name.get(lang) if self.name else self.id,
            "status": self.status,
            "message": self.message.get(lang),
            "duration_s": self.duration_s,
        }


@dataclass(frozen=True)
class CellResult:
    """What a demo cell did: the exception it raised, if any."""

    wire_type: ClassVar[str] = "cell"
    raised: str | None
    exception_types: tuple[str, ...]
    message: str
    traceback: str

    def to_wire(self) -> dict:
        return {
            "type": self.wire_type,
            "raised": self.raised,
            "exception_types": list(self.exception_types),
            "message": self.message,
            "traceback": self.traceback,
        }

    @classmethod
    def from_wire(cls, obj: dict) -> CellResult:
        types = obj.get("exception_types")
        if not isinstance(types, list):
            raise ProtocolError("cell exception_types is not a list")
        return cls(
            _optional_text(obj.get("raised"), "cell raised"),
            tuple(_text(t, "an exception type") for t in types),
            _text(obj.get("message"), "cell message"),
            _text(obj.get("traceback"), "cell traceback"),
        )


# ---- the doctor's report: findings as data (kinds, codes, places, counts, names), never words;
# the parent words them (tutor.doctor.wording), in both languages, for the text, the JSON and the TUI.

FindingKind = Literal["retrace", "key-reuse", "side-effect", "donation", "host-sync", "nan"]
# Which problem of its kind: it picks the words and the lesson that teaches the fix.
FindingCode = Literal[
    "weak-type",  # retrace
    "shape",
    "structure",
    "static",
    "new-function",
    "unexplained",
    "reused",  # key-reuse
    "global",  # side-effect
    "mutation",
    "print",
    "unusable",  # donation
    "deleted",
    "per-step",  # host-sync
    "first",  # nan
]
DoctorStatus = Literal["ok", "findings", "error", "timeout"]
FINDING_KINDS: tuple[str, ...] = get_args(FindingKind)
FINDING_CODES: tuple[str, ...] = get_args(FindingCode)
DOCTOR_STATUSES: tuple[str, ...] = get_args(DoctorStatus)


@dataclass(frozen=True)
class Finding:
    """One state problem at one place in the learner's script. Besides where and how often, a
    finding carries what its words need: each field below names the kinds that fill it."""

    kind: FindingKind
    code: FindingCode
    file: str
    line: int
    function: str | None = None  # None: the script's top level
    count: int = 1
    name: str = ""  # side-effect: the global, or object.attribute, that changed
    first_line: int | None = None  # key-reuse: where the key was consumed first
    explanation: str = ""  # retrace: JAX's own words for what changed (may be empty)
    types: str = ""  # donation: the buffers JAX could not reuse, as JAX spells them
    via: tuple[str, ...] = ()  # host-sync: how the value was pulled ("float()", ".item()", ...)
    primitive: str = ""  # nan: the operation that produced the first NaN / inf

    def to_wire(self) -> dict:
        return {**{f: getattr(self, f) for f in _FINDING_FIELDS}, "via": list(self.via)}

    @classmethod
    def from_wire(cls, obj) -> Finding:
        obj = _object(obj, "a doctor finding")
        kind, code = obj.get("kind"), obj.get("code")
        if kind not in FINDING_KINDS or code not in FINDING_CODES:
            raise ProtocolError(f"a doctor finding of kind {kind!r} and code {code!r} is not one the tutor knows")
        function, first_line = obj.get("function"), obj.get("first_line")
        return cls(
            kind,
            code,
            _text(obj.get("file"), "a finding's file"),
            _integer(obj.get("line"), "a finding's line"),
            _optional_text(function, "a finding's function"),
            _integer(obj.get("count"), "a finding's count"),
            _text(obj.get("name"), "a finding's name"),
            None if first_line is None else _integer(first_line, "a finding's first_line"),
            _text(obj.get("explanation"), "a finding's explanation"),
            _text(obj.get("types"), "a finding's types"),
            _texts(obj.get("via"), "a finding's via"),
            _text(obj.get("primitive"), "a finding's primitive"),
        )


_FINDING_FIELDS = tuple(Finding.__dataclass_fields__)


@dataclass(frozen=True)
class TraceCount:
    """How many times one of the script's jitted functions was traced (defined at `line`)."""

    function: str
    line: int
    count: int

    @classmethod
    def from_wire(cls, obj) -> TraceCount:
        obj = _object(obj, "a doctor trace count")
        return cls(
            _text(obj.get("function"), "a trace count's function"),
            _integer(obj.get("line"), "a trace count's line"),
            _integer(obj.get("count"), "a trace count's count"),
        )


@dataclass(frozen=True)
class ScriptReport:
    """What the doctor saw of one run of the script (its output travels apart, as Output events)."""

    script: str  # the file's name
    status: DoctorStatus
    exit_code: int | None  # None: stopped before it ended
    duration_s: float
    findings: tuple[Finding, ...] = ()
    traces: tuple[TraceCount, ...] = ()

    def to_wire(self) -> dict:
        return {
            "script": self.script,
            "status": self.status,
            "exit_code": self.exit_code,
            "duration_s": self.duration_s,
            "findings": [f.to_wire() for f in self.findings],
            "traces": [{"function": t.function, "line": t.line, "count": t.count} for t in self.traces],
        }

    @classmethod
    def from_wire(cls, obj) -> ScriptReport:
        obj = _object(obj, "doctor report")
        status, exit_code = obj.get("status"), obj.get("exit_code")
        if status not in DOCTOR_STATUSES:
            raise ProtocolError(f"doctor report status {status!r} is not one of {', '.join(DOCTOR_STATUSES)}")
        findings, traces = obj.get("findings"), obj.get("traces")
        if not isinstance(findings, list) or not isinstance(traces, list):
            raise ProtocolError("doctor report findings or traces is not a list")
        return cls(
            _text(obj.get("script"), "doctor report script"),
            status,
            None if exit_code is None else _integer(exit_code, "doctor report exit_code"),
            _number(obj.get("duration_s"), "doctor report duration_s"),
            tuple(Finding.from_wire(f) for f in findings),
            tuple(TraceCount.from_wire(t) for t in traces),
        )


@dataclass(frozen=True)
class DoctorReport:
    """The doctor's report on a script, as data (tutor.doctor.findings.Report reads it in the parent)."""

    wire_type: ClassVar[str] = "doctor-report"
    report: ScriptReport

    def to_wire(self) -> dict:
        return {"type": self.wire_type, "report": self.report.to_wire()}

    @classmethod
    def from_wire(cls, obj: dict) -> DoctorReport:
        return cls(ScriptReport.from_wire(obj.get("report")))


Event = Ready | Started | Done | RunError | MetricPoints | CheckResult | CellResult | DoctorReport
_EVENTS = {
    cls.wire_type: cls for cls in (Ready, Started, Done, RunError, MetricPoints, CheckResult, CellResult, DoctorReport)
}


def parse_event(obj: object) -> Event:
    """One decoded JSON line from a worker as a typed event; ProtocolError if it is not one."""
    if not isinstance(obj, dict):
        raise ProtocolError(f"an event is {type(obj).__name__}, not an object")
    cls = _EVENTS.get(str(obj.get("type")))
    if cls is None:
        raise ProtocolError(f"unknown event type {obj.get('type')!r}")
    return cls.from_wire(obj)
