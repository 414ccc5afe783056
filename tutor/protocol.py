"""The worker pipe, written down once: every job the parent sends and every event a worker sends.

A job is one JSON line on the worker's stdin; events are JSON lines on a private event pipe.
Each message is a dataclass below; one codec turns it into its wire form (`to_wire()`) and back
(`parse_job` / `parse_event`), driven by the dataclass's fields and type hints. Reading is
strict and field-exact: a missing or unknown field, or a value of the wrong type, raises
ProtocolError naming the class, the field path and what was expected and found, so nothing
malformed reaches the harness, the verdict, the CLI or the UI. Jobs and events carry a "type"
tag; Bilingual texts travel as {"en": ..., "zh": ...}. A worker's first event is a Hello with
PROTOCOL_VERSION, which the parent reads before anything else (`announced_version`).
Every job carries a `seal`, a secret the parent makes for that run; every event the worker sends
after reading its job carries it back under the key SEAL, beside the event's own fields (an
envelope, not a field of any message). An event without it was written by something other than
the worker's channel (learner code writing to the pipe), and the parent believes nothing after it.
Standard library only (and tutor.i18n): both the JAX-free parent and the worker import it.
The same codec has a tolerant mode (`decode_tolerant`, below) for records a person may have
edited, progress.json's (tutor.progress.records): it repairs and names instead of raising.

The sequence of one run, in the order the parent accepts it:

    worker -> Hello(protocol)               first, before anything heavy is imported
    worker -> Ready(pid)                    JAX and the check library imported; or RunError("startup")
    parent -> ExerciseJob | CellJob | DoctorJob   one job, with its seal; a spare may wait here long
    worker -> Started                       the job was read: learner code runs from here on
    worker -> CheckResult* MetricPoints* TraceFacts*   (an exercise) one result per check asked, in its order
              CellResult                    (a cell)
              DoctorReport                  (doctor)
    worker -> Done                          every result was sent before it
           or RunError(kind)                a named ending (exit, interrupt, oom, ...) instead of Done

tutor.sandbox.intake takes each event only in its turn: one after Done, one without the seal
(metric points aside) or one out of this order can only come from learner code, and nothing from
it on is believed. How the worker's process (and the reaper above it) ended decides the verdict
with what was taken (tutor.sandbox.verdict).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import count, repeat
from typing import Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from tutor.i18n import Bilingual

# 9: TraceFacts (issue 56); 10: Done.compiled (issue 50); 11: Finding.code 'captured' (issue 55);
# 12: Finding.noticed_line (issue 55); 13: Finding.changed and Finding.inside (issue 55).
# Raise it with any change to a message below: parent and worker must agree.
PROTOCOL_VERSION = 13
CHANNEL_LOST = 86  # the worker's exit status when its event pipe is gone (closed by learner code)
RUN_DIR_PREFIX = "jaxstate-run-"  # a run's own folder: the parent makes and sweeps it, the worker's lifeline removes it
# A spare's run folder holds this file when the parent knows the calls the previous run compiled
# (read and removed by the worker before it says ready: tutor.child.rehearsal); at most REHEARSE_MAX.
REHEARSAL_FILE = "rehearse.json"
REHEARSE_MAX = 48
SEAL = "seal"  # the key of the run's secret on every event sent after the job was read
NOT_SENT: dict[str, Any] = {"wire": False}  # field metadata: kept on one side only, never on the wire


# ------------------------------------------------------------------ the vocabularies
# Every closed set of words that crosses a seam (the worker pipe, a verdict, progress.json, a
# class's report, the --json documents), written once, here, where both sides import it.
# One idiom, Literal (not StrEnum), because the word on the wire and on disk is the value itself:
# what JSON gives back is already typed (no conversion to forget, so progress.json and the --json
# documents stay byte for byte); the codec below checks a Literal field as it reads one; and mypy
# checks every word written where one is expected, and with strict_equality every comparison with
# one: the work a source scan in the tests used to do. The tuples are the same words, for loops.

CheckStatus = Literal["pass", "fail", "error", "skipped"]  # one check's outcome
RunStatus = Literal["pass", "fail", "error", "timeout"]  # an exercise's or a cell's verdict
DoctorStatus = Literal["ok", "findings", "error", "timeout"]  # a doctor run's report, and its verdict
VerdictStatus = RunStatus | DoctorStatus
# What decided a verdict (tutor.sandbox.kinds says what each means; docs/CONTRACTS.md lists them).
VerdictKind = Literal[
    "checks",
    "expectation",
    "doctor",
    "syntax",
    "exception",
    "exit",
    "interrupt",
    "base-exception",
    "signal",
    "oom",
    "timeout",
    "output-limit",
    "processes",
    "disk",
    "reaper",
    "tamper",
    "channel",
    "protocol",
    "cancelled",
    "stopped",
    "startup",
    "spawn",
    "internal",
    "no-result",
    "no-report",
]
ExerciseStatus = Literal["new", "attempted", "passed"]  # progress.json: "new" is never checked
StoredLessonStatus = Literal["started", "done"]  # progress.json keeps a lesson once it was opened
LessonStatus = Literal["new"] | StoredLessonStatus  # "new": never opened (no record)
# A learner's row in a class's grade (tutor.classroom.grading): a verdict's status, or why none.
GradeStatus = RunStatus | Literal["missing", "refused", "unreadable"]

CHECK_STATUSES: tuple[CheckStatus, ...] = get_args(CheckStatus)
RUN_STATUSES: tuple[RunStatus, ...] = get_args(RunStatus)
DOCTOR_STATUSES: tuple[DoctorStatus, ...] = get_args(DoctorStatus)
VERDICT_KINDS: tuple[VerdictKind, ...] = get_args(VerdictKind)
EXERCISE_STATUSES: tuple[ExerciseStatus, ...] = get_args(ExerciseStatus)
STORED_LESSON_STATUSES: tuple[StoredLessonStatus, ...] = get_args(StoredLessonStatus)
GRADE_STATUSES: tuple[GradeStatus, ...] = RUN_STATUSES + ("missing", "refused", "unreadable")
Word = TypeVar("Word", bound=str)


def word_in(words: tuple[Word, ...], value: object, default: Word) -> Word:
    """`value` as the word of `words` it is (text read from a file or a run), else `default`."""
    return next((word for word in words if word == value), default)


class ProtocolError(ValueError):
    """A job or event the receiver cannot accept; the message says what is wrong with it."""


class Message:
    """A job, an event or a part of one: its wire form is its fields, as the codec spells them."""

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = _encode(self)
        return wire


# ------------------------------------------------------------------ jobs (parent -> worker)


@dataclass(frozen=True)
class CheckSpec(Message):
    """One check of an exercise, as the worker runs it: the `@check` function of that id in the
    job's checks.py, with the texts a skip or a failure needs."""

    id: str
    name: Bilingual | None = None
    depends: tuple[str, ...] = ()
    advice: Bilingual | None = None
    origin: str = ""  # "path/checks.py:line" of its function, for messages about the check itself


@dataclass(frozen=True)
class Expect(Message):
    """What a demo cell declares it does: the exception it raises, text its output holds."""

    raises: str | None = None
    output_contains: tuple[str, ...] = ()
    output_matches: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExerciseJob(Message):
    """Load the learner's file, then run the exercise's checks in order."""

    wire_type: ClassVar[str] = "exercise"
    source: str
    filename: str
    checks: tuple[CheckSpec, ...]
    checks_file: str = ""  # the exercise's checks.py, whose @check functions judge the file
    deadline_s: float | None = None  # the worker ends itself after this long, whatever happens
    seal: str = ""  # the run's secret, sent back on every event (SEAL)


@dataclass(frozen=True)
class CellJob(Message):
    """Run a demo cell as a script and report the exception it raised, if any."""

    wire_type: ClassVar[str] = "cell"
    id: str
    code: str
    expect: Expect = Expect()
    deadline_s: float | None = None
    seal: str = ""


@dataclass(frozen=True)
class DoctorJob(Message):
    """Run the learner's own script under the doctor's probe, in `cwd`, with argv [script, *args];
    with `module`, as `python -m module *args` would (then `script` is the module's name)."""

    wire_type: ClassVar[str] = "doctor"
    script: str
    args: tuple[str, ...] = ()
    cwd: str | None = None
    nans: bool = False
    deadline_s: float | None = None
    module: str | None = None
    seal: str = ""


Job = ExerciseJob | CellJob | DoctorJob


# ------------------------------------------------------------------ events (worker -> parent)


@dataclass(frozen=True)
class Hello(Message):
    """The worker's first event, sent before it imports anything heavy: which protocol it speaks."""

    wire_type: ClassVar[str] = "hello"
    protocol: int


@dataclass(frozen=True)
class Ready(Message):
    """The worker imported JAX and the check library and waits for its job."""

    wire_type: ClassVar[str] = "ready"
    pid: int | None = None


@dataclass(frozen=True)
class Started(Message):
    """The worker read its job; learner code runs from here on."""

    wire_type: ClassVar[str] = "started"


@dataclass(frozen=True)
class Done(Message):
    """The job ran to its end and every result was sent before this. `compiled`: JAX's own calls
    the run compiled, for the next spare to rehearse (tutor.child.rehearsal; at most REHEARSE_MAX)."""

    wire_type: ClassVar[str] = "done"
    compiled: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunError(Message):
    """The run was ended by a named outcome (exit, interrupt, oom, internal, startup, ...)."""

    wire_type: ClassVar[str] = "error"
    kind: VerdictKind
    message: Bilingual


@dataclass(frozen=True)
class MetricPoints(Message):
    """Points for live charts: (series, step, value) triples."""

    wire_type: ClassVar[str] = "metrics"
    points: tuple[tuple[str, int, float], ...]


@dataclass(frozen=True)
class TraceFacts(Message):
    """What a check saw of one of the learner's functions as it traced, for the trace panel beside
    the editor: how often it traced so far, its arguments' types on the latest trace, why that
    trace happened (after the first), and which control-flow primitives its program holds. Like
    metric points it judges nothing, so it needs no seal (learner code forging one misleads only
    its own panel)."""

    wire_type: ClassVar[str] = "trace"
    function: str
    traces: int = 0  # 0: not a trace count (only the program's control flow was looked at)
    arguments: tuple[tuple[str, str], ...] = ()  # (argument, type) of the latest trace
    reason: Bilingual | None = None
    control_flow: tuple[str, ...] = ()  # of "scan", "while", "cond" found in the program


@dataclass(frozen=True)
class CheckResult(Message):
    """One check's outcome. `name` is not sent: the parent fills it in from the exercise."""

    wire_type: ClassVar[str] = "check"
    id: str
    status: CheckStatus
    message: Bilingual
    name: Bilingual | None = field(default=None, metadata=NOT_SENT)
    duration_s: float | None = None

    def to_json(self, lang: str) -> dict[str, Any]:
        """This check in the `check --json` contract."""
        return {
            "id": self.id,
            "name": self.name.get(lang) if self.name else self.id,
            "status": self.status,
            "message": self.message.get(lang),
            "duration_s": self.duration_s,
        }


@dataclass(frozen=True)
class CellResult(Message):
    """What a demo cell did: the exception it raised, if any."""

    wire_type: ClassVar[str] = "cell"
    raised: str | None
    exception_types: tuple[str, ...]
    message: str
    traceback: str


# ---- the doctor's report: findings as data (kinds, codes, places, counts, names), never words;
# the parent words them (tutor.doctor.wording), in both languages, for the text, the JSON and the TUI.

FindingKind = Literal["retrace", "key-reuse", "side-effect", "donation", "host-sync", "nan", "crash"]
# Which problem of its kind: it picks the words and the lesson that teaches the fix.
FindingCode = Literal[
    "weak-type",  # retrace
    "shape",
    "structure",
    "static",
    "new-function",
    "rewrapped",
    "unexplained",
    "reused",  # key-reuse
    "loop-constant",  # a loop body closes over one key: the same key on every pass
    "same-seed",  # two keys made from one seed, whose draws then meet
    "remade",  # a key made anew from one seed on every pass and fed to a step: one key, reused
    "handed-back",  # a jitted step that consumes its key and returns that same key for the next step
    "handed-down",  # a call hands down a key that is consumed again after (or was before): split first
    "kept",  # a function splits the key it was given and keeps the rest: its caller reuses that key
    "constant",  # (a note, not a finding: the same key on every call, on purpose)
    "global",  # side-effect
    "mutation",
    "print",
    "rebound",  # a variable of an enclosing function (nonlocal) rebound while traced
    "iterator",  # an iterator advanced while traced: the batch is taken once, at trace time
    "stale",  # a static `self` changed after its trace: later calls run the old program
    "captured",  # a global / closed-over value (or its attribute) a trace read, changed after: later calls run the old one
    "unusable",  # donation
    "deleted",
    "aliased",  # two leaves of the donated arguments share one array
    "per-step",  # host-sync
    "first",  # nan
    "immutable",  # crash: an error the chapter teaches ended the script
    "concretization",
    "tracer-bool",
    "leaked-tracer",
    "key-reuse-error",
]
FINDING_KINDS: tuple[str, ...] = get_args(FindingKind)
FINDING_CODES: tuple[str, ...] = get_args(FindingCode)
BLIND_CAUSES = ("logging", "stopped", "transfers")  # ScriptReport.blinded: see there


@dataclass(frozen=True)
class Finding(Message):
    """One state problem at one place in the learner's script. Besides where and how often, a
    finding carries what its words need: each field below names the kinds that fill it."""

    kind: FindingKind
    code: FindingCode
    file: str
    line: int
    function: str | None = None  # None: the script's top level
    count: int = 1
    name: str = ""  # side-effect: the global, or object.attribute, that changed; key-reuse: "vmap" (one key for
    # several rows of a vmap), "fold_in" (remade by folding one number into one key), else ""
    first_line: int | None = None  # key-reuse: where the key was consumed first
    explanation: str = ""  # retrace: JAX's own words for what changed (may be empty); side-effect/captured: where it was read (file:line)
    types: str = ""  # donation: the buffers JAX could not reuse, as JAX spells them
    via: tuple[str, ...] = ()  # host-sync: how the value was pulled ("float()", ".item()", ...)
    primitive: str = ""  # nan: the operation that produced the first NaN / inf
    paths: tuple[str, ...] = ()  # donation (aliased): the arguments' leaves that share one array, in pairs
    traced: int = 0  # retrace (rewrapped): how many times the function was traced in all (0: unknown)
    seconds: float = 0.0  # what it cost: host-sync, time waiting at the line; retrace, time remaking
    made_line: int | None = None  # key-reuse: where the reused key was made (a seed, a state's constructor)
    # key-reuse, nan: where the problem showed (the reuse, the op JAX's check stopped at), when `line`
    # is elsewhere: the line to change (where the key should be split or handed back, the op that
    # made the first NaN / inf)
    noticed_line: int | None = None
    # retrace: what differed from the call that traced before it, by the doctor's own comparison of
    # the two calls' arguments, in quadruples (how, argument path, before, now); `explanation` is JAX's
    changed: tuple[str, ...] = ()
    # where the cause lies inside a library, not in the learner's code ("numpyro/infer/util.py:435");
    # the finding's file and line are then the learner's line that called into it
    inside: str = ""


@dataclass(frozen=True)
class TraceCount(Message):
    """How many times one of the script's jitted functions was traced (defined at `line`)."""

    function: str
    line: int
    count: int
    file: str = ""  # "" the script; else the learner's module it is defined in ("model/mlp.py")
    seconds: float = 0.0  # time spent tracing, lowering and compiling it, all its traces together


@dataclass(frozen=True)
class ScriptReport(Message):
    """What the doctor saw of one run of the script (its output travels apart, as Output events)."""

    script: str  # the file's name
    status: DoctorStatus
    exit_code: int | None  # None: stopped before it ended
    duration_s: float
    findings: tuple[Finding, ...] = ()
    traces: tuple[TraceCount, ...] = ()
    notes: tuple[Finding, ...] = ()  # worth a word, not a bug (a key kept constant on purpose)
    # what the doctor could not see, by cause: "logging" (the script turned JAX's cache-miss log
    # off: retraces unseen), "stopped" (stopped before the end: what came after is unseen)
    blinded: tuple[str, ...] = ()


@dataclass(frozen=True)
class DoctorReport(Message):
    """The doctor's report on a script, as data (tutor.doctor.findings.Report reads it in the parent)."""

    wire_type: ClassVar[str] = "doctor-report"
    report: ScriptReport


Event = Hello | Ready | Started | Done | RunError | MetricPoints | TraceFacts | CheckResult | CellResult | DoctorReport
_JOBS: dict[str, type] = {cls.wire_type: cls for cls in get_args(Job)}
_EVENTS: dict[str, type] = {cls.wire_type: cls for cls in get_args(Event)}


def parse_job(obj: object) -> Job:
    """One decoded JSON job line as a typed job; ProtocolError if it is not one."""
    job: Job = _parse(obj, _JOBS, "job")
    return job


def parse_event(obj: object) -> Event:
    """One decoded JSON line from a worker as a typed event; ProtocolError if it is not one."""
    event: Event = _parse(obj, _EVENTS, "event")
    return event


def unseal(obj: object) -> tuple[object, str | None]:
    """A decoded event line without its envelope: (the event, the seal it carried, or None)."""
    if isinstance(obj, dict) and SEAL in obj:
        seal = obj[SEAL]
        return {k: v for k, v in obj.items() if k != SEAL}, seal if type(seal) is str else ""
    return obj, None


def announced_version(obj: object) -> int | None:
    """The protocol version a worker's first line (decoded JSON) announces, read before anything
    else is validated, so that a worker of any version is understood this far; None if it
    announces none (not a Hello: a worker from before versions, or not a worker at all)."""
    if isinstance(obj, dict) and obj.get("type") == Hello.wire_type:
        version = obj.get("protocol")
        return version if type(version) is int else None
    return None


# ------------------------------------------------------------------ the codec


def _parse(obj: object, kinds: dict[str, type], what: str) -> Any:
    if not isinstance(obj, dict):
        raise ProtocolError(f"{what}: expected an object, got {_found(obj)}")
    tag = obj.get("type")
    cls = kinds.get(tag) if isinstance(tag, str) else None
    if cls is None:
        known = ", ".join(json.dumps(k) for k in kinds)
        raise ProtocolError(f"{what}.type: expected one of {known}, got {_found(tag, show=True)}")
    return _decode(cls, {k: v for k, v in obj.items() if k != "type"}, cls.__name__)


def _encode(value: Any) -> Any:
    """A message (or a part of one) as JSON-ready values: the exact inverse of _decode."""
    if isinstance(value, Bilingual):
        return value.to_dict()
    if isinstance(value, Message):
        wire_type = getattr(value, "wire_type", None)  # jobs and events; not their parts
        tag = {"type": wire_type} if wire_type else {}
        return tag | {f.name: _encode(getattr(value, f.name)) for f in _wire_fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    return value


def _decode(hint: Any, value: Any, path: str) -> Any:
    """`value` (decoded JSON) as the type `hint` says, or ProtocolError naming `path` and below."""
    try:
        return _decoder(hint)(value)
    except _Bad as bad:
        raise ProtocolError(f"{path}{bad.where}: {bad.what}") from None


class _Bad(ProtocolError):
    """A value a decoder refuses: where, below the decoder's own value (".en", "[0][2]"), and why.
    Placed on its way up (_items), then said whole by _decode as the ProtocolError it is."""

    def __init__(self, where: str, what: str):
        super().__init__(f"{where}: {what}")
        self.where, self.what = where, what


Decoder = Callable[[Any], Any]


def _wire_fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.metadata.get("wire", True))


@functools.cache
def _decoder(hint: Any) -> Decoder:
    """A function from decoded JSON to `hint`'s type that raises _Bad, made once per type (a batch
    of metric points is then one call per value, with no type inspection)."""
    origin, args = get_origin(hint), get_args(hint)
    expected = _describe(hint)

    def refuse(value: Any) -> _Bad:
        return _Bad("", f"expected {expected}, got {_found(value, show=origin is Literal)}")

    if origin is Union or origin is types.UnionType:
        return _union([_decoder(a) for a in args], refuse)
    if origin is Literal:
        allowed, kinds = {(type(a), a) for a in args}, {type(a) for a in args}  # a list is no word, nor hashable
        return _shaped(refuse, lambda v: type(v) in kinds and (type(v), v) in allowed)
    if hint is Bilingual or (isinstance(hint, type) and issubclass(hint, Message)):
        names = ("en", "zh") if hint is Bilingual else tuple(f.name for f in _wire_fields(hint))
        hints = {"en": str, "zh": str} if hint is Bilingual else get_type_hints(hint)
        fields = [_decoder(hints[n]) for n in names]
        return _shaped(refuse, lambda v: type(v) is dict, lambda v: hint(**_fields(v, names, fields)))
    if origin is tuple and args[-1:] != (...,):
        items = [_decoder(a) for a in args]
        test = lambda v: type(v) is list and len(v) == len(items)  # noqa: E731 - one line, read here
        return _shaped(refuse, test, lambda v: tuple(_items(range(len(v)), items, v)))
    if origin in (tuple, list):
        item = _decoder(args[0])
        return _shaped(refuse, lambda v: type(v) is list, lambda v: origin(_items(count(), repeat(item), v)))
    if origin is dict:
        value = _decoder(args[1])
        return _shaped(refuse, lambda v: type(v) is dict, lambda v: dict(zip(v, _items(v, repeat(value), v.values()))))
    if hint is float:  # JSON has one number type: 2 is a fine float
        return _shaped(refuse, lambda v: type(v) in (float, int), float)
    if hint in (str, int, bool, type(None), dict, list):  # a bare dict or list is open: its owner looks inside
        return _shaped(refuse, lambda v: type(v) is hint)
    raise TypeError(f"the protocol codec has no rule for {hint!r}")  # a new kind of field: teach it here


def _shaped(refuse: Callable[[Any], _Bad], test: Callable[[Any], bool], inner: Decoder | None = None) -> Decoder:
    """A decoder: refuse what fails `test` (the outer shape), then decode the inside with `inner`."""

    def decode(value: Any) -> Any:
        if not test(value):
            raise refuse(value)
        return value if inner is None else inner(value)

    return decode


def _union(alternatives: list[Decoder], refuse: Callable[[Any], _Bad]) -> Decoder:
    def decode(value: Any) -> Any:
        for alternative in alternatives:
            try:
                return alternative(value)
            except _Bad as bad:
                if bad.where:  # its outer shape fitted: the fault is inside, and that is the one to name
                    raise
        raise refuse(value)

    return decode


def _fields(value: dict[str, Any], names: tuple[str, ...], decoders: list[Decoder]) -> dict[str, Any]:
    """An object's fields, decoded; exactly `names`, none missing, none unknown."""
    for name in names:
        if name not in value:
            raise _Bad(f".{name}", "missing")
    for key in value:
        if key not in names:
            raise _Bad(f".{key}", "unknown field")
    return dict(zip(names, _items(names, decoders, [value[n] for n in names]), strict=True))


def _items(keys: Iterable[Any], decoders: Iterable[Decoder], values: Iterable[Any]) -> list[Any]:
    """Each value decoded by its decoder; a refusal is placed at its key ([index] or .name).
    The keys are looked at only after a refusal: no try and no path per item on the way."""
    try:
        return [decoder(value) for decoder, value in zip(decoders, values)]
    except _Bad:
        for key, decoder, value in zip(keys, decoders, values):
            try:
                decoder(value)
            except _Bad as bad:
                step = f"[{key}]" if isinstance(key, int) else f".{key}"
                raise _Bad(step + bad.where, bad.what) from None
        raise


# ------------------------------------------------------------------ the tolerant mode
# For records a person's editor or sync tool may have touched (progress.json), not the pipe: each
# value is judged by the same rules as above, but one that breaks them is repaired (its field's
# default, or its entry dropped) and named in `problems`, and keys the record does not know are
# kept, to be written back as they were. A record is a frozen dataclass; field metadata says more.

UNKNOWN: dict[str, Any] = {"unknown": True}  # the field (a Mapping) that holds the keys not known
COUNT: dict[str, Any] = {"count": True}  # an int, or each int of a tuple, is never negative
SPARSE: dict[str, Any] = {"sparse": True}  # written only when it is not its default
Record = TypeVar("Record")


def decode_tolerant(cls: type[Record], value: object, where: str, problems: list[Bilingual]) -> Record | None:
    """`value` (decoded JSON) as a `cls`, each bad field repaired and named; None (named too) when
    it is not an object or lacks a field that has no default."""
    plain: Any = cls  # a class, hashable: functools.cache's typing cannot see that in type[Record]
    try:
        record: Record = _fast(plain)(value)
        return record  # a sound record (nearly every one) is read without naming places
    except _Bad:
        pass
    if type(value) is not dict:
        problems.append(Bilingual(en=f"{where} is not an object", zh=f"{where} 不是对象"))
        return None
    hints = _hints(plain)
    known: dict[str, Any] = {}
    names = {f.name for f in dataclasses.fields(cls) if not f.metadata.get("unknown")}  # type: ignore[arg-type]
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        inner = f"{where}.{f.name}" if where else f.name
        if f.metadata.get("unknown"):
            known[f.name] = {k: v for k, v in value.items() if k not in names}
        elif f.name in value:
            repaired = _tolerant(hints[f.name], f.metadata, value[f.name], inner, problems)
            if repaired is not _REPAIRED:
                known[f.name] = repaired
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            problems.append(Bilingual(en=f"{inner} is missing", zh=f"{inner} 缺失"))
    # a field with no default, missing or refused: the record cannot stand, and goes (named above)
    every = dataclasses.fields(cls)  # type: ignore[arg-type]
    required = [f.name for f in every if f.default is f.default_factory is dataclasses.MISSING]
    return cls(**known) if all(name in known for name in required) else None


def encode_tolerant(record: object) -> dict[str, Any]:
    """A record as JSON-ready values, its unknown keys beside its own: the inverse of decode_tolerant."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(record):  # type: ignore[arg-type]
        value = getattr(record, f.name)
        if f.metadata.get("unknown"):
            out = dict(value) | out
        elif not (f.metadata.get("sparse") and value == f.default):
            out[f.name] = _plain(value)
    return out


_REPAIRED = object()  # a field's value was refused: the field takes its default


@functools.cache
def _hints(cls: Any) -> dict[str, Any]:
    """A record's field types, resolved once per class (a file holds hundreds of records of a few)."""
    return get_type_hints(cls)


@functools.cache
def _fast(hint: Any, counted: bool = False) -> Decoder:
    """The tolerant mode's decoder for a value that needs no repair: the same value, or _Bad (with
    no place named: the careful path then finds and names each problem). Made once per type."""
    origin, args = get_origin(hint), get_args(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _fast_record(hint)
    if origin in (dict, Mapping):
        value = _fast(args[1], counted)
        return _shaped(_refused, lambda v: type(v) is dict, lambda v: {k: value(x) for k, x in v.items()})
    if origin is tuple and args[-1:] == (...,):
        item = _fast(args[0], counted)
        return _shaped(_refused, lambda v: type(v) is list, lambda v: tuple(item(x) for x in v))
    types_, words = _scalars(hint)
    if float in types_ or not (types_ or words):
        strict = _decoder(hint)  # a float takes an int (and converts it): the strict rule decides
        return _shaped(_refused, lambda v: not counted or _not_negative(strict(v)), strict)

    kinds = {t for t, _ in words}

    def scalar(v: Any) -> Any:
        if type(v) in types_ or (type(v) in kinds and (type(v), v) in words):  # a list is no word
            if counted and type(v) is int and v < 0:
                raise _Bad("", "")
            return v
        raise _Bad("", "")

    return scalar


def _scalars(hint: Any) -> tuple[frozenset[type], frozenset[tuple[type, Any]]]:
    """The plain JSON types and the Literal words a hint takes (both empty: it is not that simple)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Union or origin is types.UnionType:
        parts = [_scalars(a) for a in args]
        if all(t or w for t, w in parts):
            return frozenset().union(*(t for t, _ in parts)), frozenset().union(*(w for _, w in parts))
    elif origin is Literal:
        return frozenset(), frozenset((type(a), a) for a in args)
    elif hint in (str, int, bool, float, type(None)):
        return frozenset({hint}), frozenset()
    return frozenset(), frozenset()


def _refused(value: Any) -> _Bad:
    return _Bad("", "")


def _not_negative(decoded: Any) -> bool:
    """A counted field's rule, as _tolerant says it: no number in it (or in its tuple) below 0."""
    return all(c is None or c >= 0 for c in (decoded if isinstance(decoded, tuple) else (decoded,)))


def _fast_record(cls: Any) -> Decoder:
    """A record's fast decoder: each field known decoded fast, the keys not known kept whole."""
    hints, every = _hints(cls), dataclasses.fields(cls)
    unknown = next((f.name for f in every if f.metadata.get("unknown")), None)
    known = [(f.name, _fast(hints[f.name], bool(f.metadata.get("count")))) for f in every if f.name != unknown]
    names = frozenset(name for name, _ in known)

    def decode(value: Any) -> Any:
        if type(value) is not dict:
            raise _Bad("", "")
        fields = {name: decoder(value[name]) for name, decoder in known if name in value}
        if unknown is not None and len(fields) < len(value):
            fields[unknown] = {k: v for k, v in value.items() if k not in names}
        try:
            return cls(**fields)
        except TypeError:  # a field with no default is missing
            raise _Bad("", "") from None

    return decode


def _tolerant(hint: Any, meta: Mapping[str, Any], value: Any, where: str, problems: list[Bilingual]) -> Any:
    """One field's value: records, lists and maps of them decoded entry by entry (a bad entry
    dropped), anything else by the strict decoder; _REPAIRED (and named) if refused."""
    origin, args = get_origin(hint), get_args(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        record = decode_tolerant(hint, value, where, problems)
        return _REPAIRED if record is None else record
    if origin in (dict, Mapping) or (origin is tuple and args[-1:] == (...,)):
        keyed = origin is not tuple
        if type(value) is not (dict if keyed else list):
            what = Bilingual(en="an object", zh="对象") if keyed else Bilingual(en="a list", zh="列表")
            problems.append(Bilingual(en=f"{where} is not {what.en}", zh=f"{where} 不是{what.zh}"))
            return _REPAIRED
        item = args[-1] if keyed else args[0]
        entries: Iterable[tuple[Any, Any]] = value.items() if isinstance(value, dict) else enumerate(value)
        kept = [
            (k, v)
            for k, raw in entries
            if (v := _tolerant(item, meta, raw, f"{where}[{k!r}]", problems)) is not _REPAIRED
        ]
        return dict(kept) if keyed else tuple(v for _, v in kept)
    try:
        decoded = _decoder(hint)(value)
    except _Bad:
        decoded = _REPAIRED
    if decoded is not _REPAIRED and meta.get("count"):
        counts = decoded if isinstance(decoded, tuple) else (decoded,)
        decoded = decoded if all(c is None or c >= 0 for c in counts) else _REPAIRED
    if decoded is _REPAIRED:
        problems.append(Bilingual(en=f"{where} had an invalid value", zh=f"{where} 的值无效"))
    return decoded


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return encode_tolerant(value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _describe(hint: Any) -> str:
    """What a hint asks for, in the words of an error message."""
    origin, args = get_origin(hint) or hint, get_args(hint)
    if origin is Literal:
        return "one of " + ", ".join(json.dumps(a) for a in args)
    if origin is Union or origin is types.UnionType:
        return " or ".join(_describe(a) for a in args)
    if origin is tuple and args[-1:] != (...,):
        return f"a list of {len(args)} [{', '.join(_describe(a) for a in args)}]"
    if hint is Bilingual:
        return '{"en","zh"} text'
    if origin in (tuple, list):
        return "a list"
    words = {str: "text", int: "an integer", float: "a number", bool: "true or false", type(None): "null"}
    return words.get(hint, "an object")


def _found(value: Any, show: bool = False) -> str:
    """What a value is, in the words of an error message (the value itself if `show` and short)."""
    if show and isinstance(value, (str, int, float)) and len(shown := json.dumps(value)) <= 40:
        return shown
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return "an object" if isinstance(value, dict) else type(value).__name__
