"""What a run makes of its worker's bytes, no worker: every line a valid event, output within its caps."""

from __future__ import annotations

import json

from tutor.i18n import Bilingual
from tutor.protocol import CheckResult, Done, MetricPoints, Ready, Started
from tutor.sandbox.events import Output
from tutor.sandbox.intake import Intake
from tutor.sandbox.worker_process import Limits

OK = Bilingual.same("ok")


def lines(*messages) -> bytes:
    return b"".join(json.dumps(m if isinstance(m, dict) else m.to_wire()).encode() + b"\n" for m in messages)


def test_events_are_heard_one_by_one():
    intake = Intake(Limits())
    data = lines(Ready(7), Started(), CheckResult("a", "pass", OK), MetricPoints((("l", 0, 1.0),)))
    shown = [e for i in range(0, len(data), 5) for e in intake.feed_events(data[i : i + 5])]  # in pieces
    assert shown == [CheckResult("a", "pass", OK), MetricPoints((("l", 0, 1.0),))]
    assert intake.ready and not intake.done and not intake.over
    list(intake.feed_events(lines(Done())))
    assert intake.done and len(intake.seen) == 5


def test_garbage_is_unreadable():
    intake = Intake(Limits())
    list(intake.feed_events(b"xx\n"))
    assert intake.over and intake.protocol_error == "a line that is not JSON"


def test_a_bad_event_names_its_field():
    intake = Intake(Limits())
    list(intake.feed_events(lines(Ready(1), {"type": "metrics", "points": [["l", 0, "x"]]}, Done())))
    assert intake.protocol_error == "MetricPoints.points[0][2]: expected a number, got str" and not intake.done


def test_output_is_kept_within_its_cap():
    intake = Intake(Limits(keep_chars=4, output_bytes=10))
    assert intake.feed_output("stdout", "héllo".encode()) == Output("stdout", "héll")
    assert intake.feed_output("stdout", b"more") is None and intake.truncated and not intake.flooded
    intake.feed_output("stderr", b"xxxxxxxx")
    assert intake.flooded and intake.over
