"""The wire codec on its own, no worker: every job and event survives the trip through JSON, its
wire form keeps the shape both sides have always spoken, and each malformed message is refused
with the class, the field path, what was expected and what was found."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import get_args, get_type_hints

import pytest

from tutor import protocol
from tutor.i18n import Bilingual
from tutor.protocol import (
    PROTOCOL_VERSION,
    CellJob,
    CellResult,
    CheckResult,
    CheckSpec,
    DoctorJob,
    DoctorReport,
    Done,
    ExerciseJob,
    Expect,
    Finding,
    Hello,
    MetricPoints,
    ProtocolError,
    Ready,
    RunError,
    ScriptReport,
    Started,
    TraceCount,
    TraceFacts,
    announced_version,
    parse_event,
    parse_job,
)

TEXT = Bilingual(en="fine", zh="好")
FINDING = Finding("retrace", "weak-type", "train.py", 4, function="step", count=3, explanation="x: ~float32 -> float32")
REPORT = ScriptReport(
    "t.py",
    "findings",
    0,
    1.5,
    findings=(FINDING, Finding("host-sync", "per-step", "t.py", 9, via=("float()",))),
    traces=(TraceCount("step", 3, 2),),
)
FINDING_WIRE = {
    "kind": "retrace",
    "code": "weak-type",
    "file": "train.py",
    "line": 4,
    "function": "step",
    "count": 3,
    "name": "",
    "first_line": None,
    "explanation": "x: ~float32 -> float32",
    "types": "",
    "via": [],
    "primitive": "",
    "paths": [],
    "traced": 0,
    "seconds": 0.0,
    "made_line": None,
    "noticed_line": None,
    "changed": [],
    "inside": "",
}
REPORT_WIRE = REPORT.to_wire()

JOBS = [
    ExerciseJob(source="x = 1\n", filename="/l/a.py", checks=()),
    ExerciseJob(
        source="def f(): ...\n",
        filename="/l/a.py",
        checks=(
            CheckSpec("a"),
            CheckSpec("b", name=TEXT, depends=("a",), advice=Bilingual.same("look"), origin="checks.py:3"),
        ),
        checks_file="/c/checks.py",
        deadline_s=12.5,
    ),
    CellJob(id="c1", code="print(1)"),
    CellJob(
        id="c2", code="1/0", expect=Expect(raises="ZeroDivisionError", output_contains=("a",), output_matches=("b+",))
    ),
    DoctorJob(script="/s/train.py"),
    DoctorJob(script="/s/train.py", args=("--steps", "3"), cwd="/s", nans=True, deadline_s=900.0),
]
EVENTS = [
    Hello(PROTOCOL_VERSION),
    Ready(),
    Ready(1234),
    Started(),
    Done(),
    RunError("oom", TEXT),
    MetricPoints(()),
    MetricPoints((("loss", 0, 0.5), ("loss", 1, 0.25), ("acc", 1, 1.0))),
    CheckResult("a", "pass", TEXT),
    CheckResult("b", "skipped", TEXT, duration_s=0.125),
    CellResult(None, (), "", ""),
    CellResult("ValueError", ("ValueError", "Exception"), "bad", "Traceback ..."),
    DoctorReport(REPORT),
    DoctorReport(ScriptReport("s.py", "ok", None, 0.0)),
    TraceFacts("update_counter", 2, (("count", "float32[]"),), TEXT, ("scan", "cond")),
    TraceFacts("f"),
]


def trip(message) -> dict:
    """The message's wire form as the other side reads it: through JSON text."""
    return json.loads(json.dumps(message.to_wire(), ensure_ascii=False, allow_nan=True))


@pytest.mark.parametrize("job", JOBS, ids=repr)
def test_every_job_round_trips(job):
    assert parse_job(trip(job)) == job


@pytest.mark.parametrize("event", EVENTS, ids=repr)
def test_every_event_round_trips(event):
    assert parse_event(trip(event)) == event


def test_the_round_trips_cover_every_message_type():
    """A new job or event type fails here until it has a round trip above."""
    assert {type(j) for j in JOBS} == set(get_args(protocol.Job))
    assert {type(e) for e in EVENTS} == set(get_args(protocol.Event))


def test_the_wire_keeps_its_shape():
    """The bytes both sides spoke before the codec: a "type" tag, then every field by its name;
    texts as {"zh", "en"}, tuples as lists."""
    assert CheckResult("a", "fail", TEXT, name=TEXT, duration_s=0.5).to_wire() == {
        "type": "check",
        "id": "a",
        "status": "fail",
        "message": {"zh": "好", "en": "fine"},
        "duration_s": 0.5,
    }
    assert JOBS[1].to_wire() == {
        "type": "exercise",
        "source": "def f(): ...\n",
        "filename": "/l/a.py",
        "checks": [
            {"id": "a", "name": None, "depends": [], "advice": None, "origin": ""},
            {
                "id": "b",
                "name": {"zh": "好", "en": "fine"},
                "depends": ["a"],
                "advice": {"zh": "look", "en": "look"},
                "origin": "checks.py:3",
            },
        ],
        "checks_file": "/c/checks.py",
        "deadline_s": 12.5,
        "seal": "",
    }
    assert MetricPoints((("loss", 0, 0.5),)).to_wire() == {"type": "metrics", "points": [["loss", 0, 0.5]]}
    assert Started().to_wire() == {"type": "started"}
    assert Hello(7).to_wire() == {"type": "hello", "protocol": 7}
    assert DoctorReport(REPORT).to_wire() == {"type": "doctor-report", "report": REPORT_WIRE}
    assert REPORT_WIRE["findings"][0] == FINDING_WIRE  # every field, every time: no words among them


def test_a_check_name_stays_on_the_parent_side():
    """CheckResult.name is filled in by the parent from the exercise: never sent, never read."""
    sent = CheckResult("a", "pass", TEXT, name=TEXT)
    assert "name" not in sent.to_wire()
    assert parse_event(trip(sent)) == CheckResult("a", "pass", TEXT)
    with pytest.raises(ProtocolError, match=r"^CheckResult\.name: unknown field$"):
        parse_event(sent.to_wire() | {"name": {"en": "x", "zh": "x"}})


def test_numbers_as_json_has_them():
    """An integer is a fine float (JSON has one number type); NaN and infinities (a diverging
    loss) travel as Python's json writes them; a float is never an integer, true never a number."""
    points = parse_event({"type": "metrics", "points": [["loss", 3, float("nan")], ["acc", 4, 1], ["l", 5, -math.inf]]})
    assert points.points[1] == ("acc", 4, 1.0) and type(points.points[1][2]) is float
    assert math.isnan(points.points[0][2]) and points.points[2][2] == -math.inf
    assert parse_event(json.loads(json.dumps(points.to_wire()))).points[2] == ("l", 5, -math.inf)


CHECK = {"type": "check", "id": "a", "status": "pass", "message": {"en": "e", "zh": "z"}, "duration_s": None}
ERROR = {"type": "error", "kind": "exit", "message": {"en": "e", "zh": "z"}}
EXERCISE = JOBS[1].to_wire()


def with_check(**fields) -> dict:
    """The exercise job above with its second check changed."""
    checks = [EXERCISE["checks"][0], EXERCISE["checks"][1] | fields]
    return EXERCISE | {"checks": checks}


@pytest.mark.parametrize(
    ("event", "refusal"),
    [
        (["done"], "event: expected an object, got a list of 1"),
        ("done", "event: expected an object, got str"),
        ({"type": "no-such-type"}, 'event.type: expected one of "hello", "ready", .*, got "no-such-type"'),
        ({"kind": "exit"}, "event.type: expected one of .*, got null"),
        ({"type": 3}, "event.type: expected one of .*, got 3"),
        # a bilingual text: exactly {"en", "zh"}, both text
        (CHECK | {"message": 3}, r'CheckResult.message: expected \{"en","zh"\} text, got int'),
        (CHECK | {"message": "fine"}, r'CheckResult.message: expected \{"en","zh"\} text, got str'),
        (CHECK | {"message": {"zh": "只有中文"}}, "CheckResult.message.en: missing"),
        (ERROR | {"message": {"en": "x", "zh": "y", "fr": "z"}}, "RunError.message.fr: unknown field"),
        (ERROR | {"message": {"en": "x", "zh": None}}, "RunError.message.zh: expected text, got null"),
        # fields: none missing, none unknown, each of its type
        (
            {"type": "check", "id": "a", "status": "pass", "message": {"en": "", "zh": ""}},
            "CheckResult.duration_s: missing",
        ),
        (CHECK | {"passed": True}, "CheckResult.passed: unknown field"),
        (CHECK | {"id": 3}, "CheckResult.id: expected text, got int"),
        (
            CHECK | {"status": "passed"},
            'CheckResult.status: expected one of "pass", "fail", "error", "skipped", got "passed"',
        ),
        (CHECK | {"status": None}, 'CheckResult.status: expected one of "pass", .*, got null'),
        (CHECK | {"duration_s": "1"}, "CheckResult.duration_s: expected a number or null, got str"),
        (CHECK | {"duration_s": True}, "CheckResult.duration_s: expected a number or null, got true"),
        (ERROR | {"kind": None}, 'RunError.kind: expected one of "checks", .*, got null'),
        (ERROR | {"kind": "brand-new"}, 'RunError.kind: expected one of "checks", .*, got "brand-new"'),
        ({"type": "ready"}, "Ready.pid: missing"),
        ({"type": "ready", "pid": True}, "Ready.pid: expected an integer or null, got true"),
        ({"type": "ready", "pid": 3.0}, "Ready.pid: expected an integer or null, got float"),
        ({"type": "hello", "protocol": "1"}, "Hello.protocol: expected an integer, got str"),
        ({"type": "done", "compiled": [], "extra": 1}, "Done.extra: unknown field"),
        # lists and fixed-size points, by index
        ({"type": "metrics", "points": "loss"}, "MetricPoints.points: expected a list, got str"),
        (
            {"type": "metrics", "points": [["loss", 0, "x"]]},
            r"MetricPoints.points\[0\]\[2\]: expected a number, got str",
        ),
        (
            {"type": "metrics", "points": [["loss", 0, 1.0], ["loss", "1", 1.0]]},
            r"MetricPoints.points\[1\]\[1\]: expected an integer, got str",
        ),
        (
            {"type": "metrics", "points": [["loss", True, 1.0]]},
            r"MetricPoints.points\[0\]\[1\]: expected an integer, got true",
        ),
        (
            {"type": "metrics", "points": [["loss", 0]]},
            r"MetricPoints.points\[0\]: expected a list of 3 \[text, an integer, a number\], got a list of 2",
        ),
        (
            {"type": "cell", "raised": 1, "exception_types": [], "message": "", "traceback": ""},
            "CellResult.raised: expected text or null, got int",
        ),
        (
            {"type": "cell", "raised": None, "exception_types": ["A", 2], "message": "", "traceback": ""},
            r"CellResult.exception_types\[1\]: expected text, got int",
        ),
        # the doctor's report: typed data, every field checked
        ({"type": "doctor-report", "report": []}, "DoctorReport.report: expected an object, got a list of 0"),
        (
            {"type": "doctor-report", "report": REPORT_WIRE | {"status": "fine"}},
            'DoctorReport.report.status: expected one of "ok", "findings", "error", "timeout", got "fine"',
        ),
        (
            {
                "type": "doctor-report",
                "report": REPORT_WIRE | {"findings": [FINDING_WIRE, FINDING_WIRE | {"line": "4"}]},
            },
            r"DoctorReport.report.findings\[1\].line: expected an integer, got str",
        ),
        (
            {"type": "doctor-report", "report": REPORT_WIRE | {"findings": [FINDING_WIRE | {"code": "odd"}]}},
            r"DoctorReport.report.findings\[0\].code: expected one of .*, got \"odd\"",
        ),
        (  # a list where a word goes: refused as the others (on e7a425f: TypeError, unhashable)
            {"type": "doctor-report", "report": REPORT_WIRE | {"findings": [FINDING_WIRE | {"code": ["odd"]}]}},
            r"DoctorReport.report.findings\[0\].code: expected one of .*, got a list of 1",
        ),
        (
            {"type": "doctor-report", "report": REPORT_WIRE | {"findings": [FINDING_WIRE | {"message": {"en": "x"}}]}},
            r"DoctorReport.report.findings\[0\].message: unknown field",
        ),
        (
            {"type": "doctor-report", "report": REPORT_WIRE | {"findings": ["retrace"]}},
            r"DoctorReport.report.findings\[0\]: expected an object, got str",
        ),
    ],
)
def test_a_malformed_event_is_refused_naming_the_field(event, refusal):
    with pytest.raises(ProtocolError, match=f"^{refusal}$"):
        parse_event(event)


@pytest.mark.parametrize(
    ("job", "refusal"),
    [
        ({"type": "exit"}, 'job.type: expected one of "exercise", "cell", "doctor", got "exit"'),
        (EXERCISE | {"checks": None}, "ExerciseJob.checks: expected a list, got null"),
        (with_check(name="n"), r'ExerciseJob.checks\[1\].name: expected \{"en","zh"\} text or null, got str'),
        (with_check(name={"en": 1, "zh": ""}), r"ExerciseJob.checks\[1\].name.en: expected text, got int"),
        (with_check(depends="a"), r"ExerciseJob.checks\[1\].depends: expected a list, got str"),
        ({k: v for k, v in EXERCISE.items() if k != "deadline_s"}, "ExerciseJob.deadline_s: missing"),
        (CellJob("c", "").to_wire() | {"expect": None}, "CellJob.expect: expected an object, got null"),
        (CellJob("c", "").to_wire() | {"expect": {"raises": None}}, "CellJob.expect.output_contains: missing"),
        (DoctorJob("s").to_wire() | {"nans": 1}, "DoctorJob.nans: expected true or false, got int"),
        (DoctorJob("s").to_wire() | {"args": ["a", None]}, r"DoctorJob.args\[1\]: expected text, got null"),
    ],
)
def test_a_malformed_job_is_refused_naming_the_field(job, refusal):
    with pytest.raises(ProtocolError, match=f"^{refusal}$"):
        parse_job(job)


def test_a_report_holds_no_words():
    """Findings are data: the parent words them (tutor.doctor.wording), in either language."""
    text = str(REPORT_WIRE)
    assert "message" not in text and "'en'" not in text and "'zh'" not in text


@dataclass(frozen=True)
class Traces(protocol.Message):
    """Shapes no message uses yet (a typed report would): open-keyed objects and lists."""

    wire_type = "traces-sample"  # a plain class attribute: not a field
    counts: dict[str, int]
    values: list[float]
    pairs: tuple[tuple[str, bool], ...] = ()


def test_the_codec_reads_typed_objects_and_lists():
    sample = Traces({"step:3": 2, "loss:9": 1}, [1.0, 2.5], (("a", True),))
    wire = trip(sample)
    assert wire == {
        "type": "traces-sample",
        "counts": {"step:3": 2, "loss:9": 1},
        "values": [1.0, 2.5],
        "pairs": [["a", True]],
    }
    assert protocol._decode(Traces, {k: v for k, v in wire.items() if k != "type"}, "Traces") == sample
    with pytest.raises(ProtocolError, match=r"^Traces.counts.loss:9: expected an integer, got float$"):
        protocol._decode(Traces, {"counts": {"step:3": 2, "loss:9": 1.5}, "values": [], "pairs": []}, "Traces")
    with pytest.raises(ProtocolError, match=r"^Traces.pairs\[0\]\[1\]: expected true or false, got int$"):
        protocol._decode(Traces, {"counts": {}, "values": [], "pairs": [["a", 1]]}, "Traces")


def test_a_field_type_the_codec_does_not_know_is_a_bug_found_at_once():
    @dataclass(frozen=True)
    class Odd(protocol.Message):
        tags: frozenset

    with pytest.raises(TypeError, match="no rule for"):
        protocol._decode(Odd, {"tags": []}, "Odd")


@pytest.mark.parametrize(
    ("first", "version"),
    [
        (Hello(PROTOCOL_VERSION).to_wire(), PROTOCOL_VERSION),
        ({"type": "hello", "protocol": 99, "and": "fields of a newer hello"}, 99),
        ({"type": "hello", "protocol": "1"}, None),
        ({"type": "hello", "protocol": True}, None),
        ({"type": "ready", "pid": 12}, None),  # a worker from before versions: ready comes first
        ([1, 2], None),
    ],
)
def test_the_first_line_announces_a_version_read_before_anything_else(first, version):
    assert announced_version(first) == version


def spelled(hint) -> str:
    text = hint.__name__ if isinstance(hint, type) else str(hint)
    return text.replace("tutor.protocol.", "").replace("tutor.i18n.", "").replace("typing.", "")


def shapes() -> list[str]:
    """Every message as the wire sees it: its tag, its class, its fields and their types."""
    messages = [*get_args(protocol.Job), *get_args(protocol.Event)]
    parts = [  # every part of a message (CheckSpec, the doctor's Finding...), found, not listed
        v
        for v in vars(protocol).values()
        if isinstance(v, type) and issubclass(v, protocol.Message) and v is not protocol.Message and v not in messages
    ]
    classes = messages + sorted(parts, key=lambda c: c.__name__)
    return [
        f"{getattr(cls, 'wire_type', '-')} {cls.__name__}("
        + ", ".join(f"{f.name}: {spelled(get_type_hints(cls)[f.name])}" for f in protocol._wire_fields(cls))
        + ")"
        for cls in classes
    ]


# The messages as each version spelled them. A change to any message is a new version: raise
# PROTOCOL_VERSION and add its shapes here (a worker from before the change then says so).
SHAPES = {
    1: [
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, "
        "deadline_s: float | None)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: str, message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, "
        "duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: dict)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
    ],
    2: [
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: str, message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'unexplained', 'reused', 'global', 'mutation', 'print', 'unusable', 'deleted', 'per-step', 'first'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...])",
        "- TraceCount(function: str, line: int, count: int)",
    ],
    3: [
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: str, message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'constant', 'global', 'mutation', 'print', 'unusable', 'deleted', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...])",
        "- TraceCount(function: str, line: int, count: int)",
    ],
    4: [
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: str, message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'constant', 'global', 'mutation', 'print', 'unusable', 'deleted', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str)",
    ],
    5: [
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: str, message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'constant', 'global', 'mutation', 'print', 'unusable', 'deleted', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str)",
    ],
    6: [
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: str, message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'constant', 'global', 'mutation', 'print', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
    7: [
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: str, message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'constant', 'global', 'mutation', 'print', 'rebound', 'iterator', 'stale', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int, seconds: float, made_line: int | None)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
    8: [  # RunError.kind: one of the verdict kinds (tutor.protocol.VerdictKind), no longer any text
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: Literal['checks', 'expectation', 'doctor', 'syntax', 'exception', 'exit', 'interrupt', 'base-exception', 'signal', 'oom', 'timeout', 'output-limit', 'processes', 'disk', 'reaper', 'tamper', 'channel', 'protocol', 'cancelled', 'stopped', 'startup', 'spawn', 'internal', 'no-result', 'no-report'], message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'constant', 'global', 'mutation', 'print', 'rebound', 'iterator', 'stale', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int, seconds: float, made_line: int | None)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
    9: [  # TraceFacts: what the checks saw of the learner's functions as they traced (the trace panel)
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done()",
        "error RunError(kind: Literal['checks', 'expectation', 'doctor', 'syntax', 'exception', 'exit', 'interrupt', 'base-exception', 'signal', 'oom', 'timeout', 'output-limit', 'processes', 'disk', 'reaper', 'tamper', 'channel', 'protocol', 'cancelled', 'stopped', 'startup', 'spawn', 'internal', 'no-result', 'no-report'], message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "trace TraceFacts(function: str, traces: int, arguments: tuple[tuple[str, str], ...], reason: Bilingual | None, control_flow: tuple[str, ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'constant', 'global', 'mutation', 'print', 'rebound', 'iterator', 'stale', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int, seconds: float, made_line: int | None)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
    10: [  # Done.compiled: JAX's own calls the run compiled, rehearsed by the next spare
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done(compiled: tuple[str, ...])",
        "error RunError(kind: Literal['checks', 'expectation', 'doctor', 'syntax', 'exception', 'exit', 'interrupt', 'base-exception', 'signal', 'oom', 'timeout', 'output-limit', 'processes', 'disk', 'reaper', 'tamper', 'channel', 'protocol', 'cancelled', 'stopped', 'startup', 'spawn', 'internal', 'no-result', 'no-report'], message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "trace TraceFacts(function: str, traces: int, arguments: tuple[tuple[str, str], ...], reason: Bilingual | None, control_flow: tuple[str, ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'constant', 'global', 'mutation', 'print', 'rebound', 'iterator', 'stale', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int, seconds: float, made_line: int | None)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
    11: [  # Finding.code 'captured': a global / closed-over value a trace read, changed after (issue 55)
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done(compiled: tuple[str, ...])",
        "error RunError(kind: Literal['checks', 'expectation', 'doctor', 'syntax', 'exception', 'exit', 'interrupt', 'base-exception', 'signal', 'oom', 'timeout', 'output-limit', 'processes', 'disk', 'reaper', 'tamper', 'channel', 'protocol', 'cancelled', 'stopped', 'startup', 'spawn', 'internal', 'no-result', 'no-report'], message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "trace TraceFacts(function: str, traces: int, arguments: tuple[tuple[str, str], ...], reason: Bilingual | None, control_flow: tuple[str, ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'constant', 'global', 'mutation', 'print', 'rebound', 'iterator', 'stale', 'captured', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int, seconds: float, made_line: int | None)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
    12: [  # Finding.noticed_line: where a key reuse or a NaN showed, when the line to change is elsewhere (issue 55)
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done(compiled: tuple[str, ...])",
        "error RunError(kind: Literal['checks', 'expectation', 'doctor', 'syntax', 'exception', 'exit', 'interrupt', 'base-exception', 'signal', 'oom', 'timeout', 'output-limit', 'processes', 'disk', 'reaper', 'tamper', 'channel', 'protocol', 'cancelled', 'stopped', 'startup', 'spawn', 'internal', 'no-result', 'no-report'], message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "trace TraceFacts(function: str, traces: int, arguments: tuple[tuple[str, str], ...], reason: Bilingual | None, control_flow: tuple[str, ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'handed-down', 'kept', 'constant', 'global', 'mutation', 'print', 'rebound', 'iterator', 'stale', 'captured', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int, seconds: float, made_line: int | None, noticed_line: int | None)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
    13: [  # Finding.changed (a retrace's own comparison of two calls) and Finding.inside (a library's line) (issue 55)
        "exercise ExerciseJob(source: str, filename: str, checks: tuple[CheckSpec, ...], checks_file: str, deadline_s: float | None, seal: str)",
        "cell CellJob(id: str, code: str, expect: Expect, deadline_s: float | None, seal: str)",
        "doctor DoctorJob(script: str, args: tuple[str, ...], cwd: str | None, nans: bool, deadline_s: float | None, module: str | None, seal: str)",
        "hello Hello(protocol: int)",
        "ready Ready(pid: int | None)",
        "started Started()",
        "done Done(compiled: tuple[str, ...])",
        "error RunError(kind: Literal['checks', 'expectation', 'doctor', 'syntax', 'exception', 'exit', 'interrupt', 'base-exception', 'signal', 'oom', 'timeout', 'output-limit', 'processes', 'disk', 'reaper', 'tamper', 'channel', 'protocol', 'cancelled', 'stopped', 'startup', 'spawn', 'internal', 'no-result', 'no-report'], message: Bilingual)",
        "metrics MetricPoints(points: tuple[tuple[str, int, float], ...])",
        "trace TraceFacts(function: str, traces: int, arguments: tuple[tuple[str, str], ...], reason: Bilingual | None, control_flow: tuple[str, ...])",
        "check CheckResult(id: str, status: Literal['pass', 'fail', 'error', 'skipped'], message: Bilingual, duration_s: float | None)",
        "cell CellResult(raised: str | None, exception_types: tuple[str, ...], message: str, traceback: str)",
        "doctor-report DoctorReport(report: ScriptReport)",
        "- CheckSpec(id: str, name: Bilingual | None, depends: tuple[str, ...], advice: Bilingual | None, origin: str)",
        "- Expect(raises: str | None, output_contains: tuple[str, ...], output_matches: tuple[str, ...])",
        "- Finding(kind: Literal['retrace', 'key-reuse', 'side-effect', 'donation', 'host-sync', 'nan', 'crash'], code: Literal['weak-type', 'shape', 'structure', 'static', 'new-function', 'rewrapped', 'unexplained', 'reused', 'loop-constant', 'same-seed', 'remade', 'handed-back', 'handed-down', 'kept', 'constant', 'global', 'mutation', 'print', 'rebound', 'iterator', 'stale', 'captured', 'unusable', 'deleted', 'aliased', 'per-step', 'first', 'immutable', 'concretization', 'tracer-bool', 'leaked-tracer', 'key-reuse-error'], file: str, line: int, function: str | None, count: int, name: str, first_line: int | None, explanation: str, types: str, via: tuple[str, ...], primitive: str, paths: tuple[str, ...], traced: int, seconds: float, made_line: int | None, noticed_line: int | None, changed: tuple[str, ...], inside: str)",
        "- ScriptReport(script: str, status: Literal['ok', 'findings', 'error', 'timeout'], exit_code: int | None, duration_s: float, findings: tuple[Finding, ...], traces: tuple[TraceCount, ...], notes: tuple[Finding, ...], blinded: tuple[str, ...])",
        "- TraceCount(function: str, line: int, count: int, file: str, seconds: float)",
    ],
}


def test_a_change_to_a_message_is_a_new_protocol_version():
    assert shapes() == SHAPES.get(PROTOCOL_VERSION), (
        "a message changed: raise PROTOCOL_VERSION in tutor/protocol.py and add its shapes to SHAPES"
    )
