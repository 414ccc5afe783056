"""What a run makes of its worker's bytes, no worker: the first event line must announce this
tutor's protocol version (read before anything else), then every line is a valid event."""

from __future__ import annotations

import json

import pytest

from tutor.i18n import Bilingual
from tutor.protocol import (
    PROTOCOL_VERSION,
    SEAL,
    CellResult,
    CheckResult,
    Done,
    Hello,
    MetricPoints,
    Ready,
    RunError,
    Started,
)
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


# ---- events only in the harness's turn: learner code that writes to the channel ends the run

SECRET = "5eal"


def sealed(*messages, seal: str = SECRET) -> list[dict]:
    return [m.to_wire() | {SEAL: seal} for m in messages]


def run_of(*events, checks=("a", "b"), seal=SECRET) -> Intake:
    intake = Intake(Limits(), checks=checks, seal=seal)
    list(intake.feed_events(lines(Hello(PROTOCOL_VERSION), Ready(1), *events)))
    return intake


def test_the_harness_in_its_turn_is_believed():
    a, b = CheckResult("a", "pass", OK), CheckResult("b", "fail", OK)
    intake = run_of(*sealed(Started(), a), MetricPoints((("l", 0, 1.0),)), *sealed(b, Done()))
    assert intake.done and not intake.forged and not intake.over
    assert [e for e in intake.seen if isinstance(e, CheckResult)] == [a, b]


@pytest.mark.parametrize(
    "events, why",
    [
        # raw bytes in the pipe: no seal (or a wrong one)
        (lambda: [*sealed(Started()), CheckResult("a", "pass", OK)], "without the run's seal"),
        (lambda: [*sealed(Started()), *sealed(CheckResult("a", "pass", OK), seal="guess")], "without the run's seal"),
        (lambda: [*sealed(Started()), Done()], "Done event without the run's seal"),
        # sealed, but not in the order and number asked for
        (lambda: sealed(Started(), CheckResult("b", "pass", OK)), "'b' when 'a' was next"),
        (
            lambda: sealed(Started(), CheckResult("a", "fail", OK), CheckResult("a", "pass", OK)),
            "'a' when 'b' was next",
        ),
        (
            lambda: sealed(
                Started(), CheckResult("a", "pass", OK), CheckResult("b", "pass", OK), CheckResult("b", "pass", OK)
            ),
            "after every check asked for had one",
        ),
        (lambda: sealed(Started(), CheckResult("a", "pass", OK), Done(), Done()), "after the run said it was done"),
        (lambda: sealed(Started(), Started()), "a second started"),
        (lambda: sealed(CheckResult("a", "pass", OK)), "before the job started"),
        (lambda: sealed(Started(), RunError("exit", OK), CheckResult("a", "pass", OK)), "after the run's result"),
        (lambda: [*sealed(Started()), Hello(PROTOCOL_VERSION)], "a second hello"),
        (lambda: [*sealed(Started()), Ready(2)], "a second ready"),
    ],
)
def test_anything_out_of_turn_is_forged_and_nothing_after_it_is_believed(events, why):
    intake = run_of(*events())
    assert why in intake.forged, intake.forged
    assert intake.over
    believed, done = len(intake.seen), intake.done
    list(intake.feed_events(lines(*sealed(Done()))))  # nothing after it is read
    assert len(intake.seen) == believed and intake.done == done


def test_a_run_without_checks_takes_no_check_result():
    intake = run_of(*sealed(Started(), CheckResult("a", "pass", OK)), checks=())
    assert "after every check asked for had one" in intake.forged
    intake = run_of(*sealed(Started(), CellResult(None, (), "", ""), Done()), checks=())
    assert intake.done and not intake.forged


def test_a_worker_that_breaks_while_starting_is_heard_unsealed():
    intake = Intake(Limits(), checks=("a",), seal=SECRET)
    list(intake.feed_events(lines(Hello(PROTOCOL_VERSION), RunError("startup", OK))))
    assert not intake.forged and isinstance(intake.seen[-1], RunError)
