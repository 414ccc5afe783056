"""What a run makes of its worker's bytes, no worker: the first event line must announce this
tutor's protocol version (read before anything else), then every line is a valid event."""

from __future__ import annotations

import json

from tutor.i18n import Bilingual
from tutor.protocol import PROTOCOL_VERSION, CheckResult, Done, Hello, MetricPoints, Ready, Started
from tutor.sandbox.events import Output
from tutor.sandbox.intake import Intake
from tutor.sandbox.worker_process import Limits

OK = Bilingual.same("ok")


def lines(*messages) -> bytes:
    return b"".join(json.dumps(m if isinstance(m, dict) else m.to_wire()).encode() + b"\n" for m in messages)


def test_a_worker_of_this_version_is_heard_event_by_event():
    intake = Intake(Limits())
    data = lines(
        Hello(PROTOCOL_VERSION), Ready(7), Started(), CheckResult("a", "pass", OK), MetricPoints((("l", 0, 1.0),))
    )
    shown = [e for i in range(0, len(data), 5) for e in intake.feed_events(data[i : i + 5])]  # in pieces
    assert shown == [CheckResult("a", "pass", OK), MetricPoints((("l", 0, 1.0),))]
    assert intake.ready and not intake.done and not intake.over and intake.worker_protocol == PROTOCOL_VERSION
    list(intake.feed_events(lines(Done())))
    assert intake.done and intake.seen[0] == Hello(PROTOCOL_VERSION) and len(intake.seen) == 6


def test_a_worker_of_another_version_ends_the_run_at_its_hello():
    intake = Intake(Limits())
    # A newer worker's hello may carry more; what follows is not believed, even if it reads as ours.
    assert (
        list(intake.feed_events(lines({"type": "hello", "protocol": 99, "build": "x"}, CheckResult("a", "pass", OK))))
        == []
    )
    assert intake.over and intake.worker_protocol == 99 and intake.seen == [] and not intake.protocol_error
    assert list(intake.feed_events(lines(Ready(1), Done()))) == [] and not intake.ready and not intake.done


def test_a_worker_from_before_versions_announces_none():
    intake = Intake(Limits())
    list(intake.feed_events(b'{"type": "ready", "pid": 12}\n'))  # how such a worker began
    assert intake.over and intake.worker_protocol is None and intake.seen == []


def test_garbage_first_is_unreadable_not_a_version():
    intake = Intake(Limits())
    list(intake.feed_events(b"xx\n"))
    assert intake.over and intake.protocol_error == "a line that is not JSON"
    assert intake.worker_protocol == PROTOCOL_VERSION  # nothing was announced against it


def test_a_bad_event_after_the_hello_names_its_field():
    intake = Intake(Limits())
    list(intake.feed_events(lines(Hello(PROTOCOL_VERSION), {"type": "metrics", "points": [["l", 0, "x"]]}, Done())))
    assert intake.protocol_error == "MetricPoints.points[0][2]: expected a number, got str" and not intake.done


def test_output_is_kept_within_its_cap():
    intake = Intake(Limits(keep_chars=4, output_bytes=10))
    assert intake.feed_output("stdout", "héllo".encode()) == Output("stdout", "héll")
    assert intake.feed_output("stdout", b"more") is None and intake.truncated and not intake.flooded
    intake.feed_output("stderr", b"xxxxxxxx")
    assert intake.flooded and intake.over
