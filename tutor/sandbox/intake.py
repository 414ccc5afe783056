"""What a run has received from its worker so far: output kept within its caps, and the worker's
events validated in order (the first must announce this tutor's protocol version).

Events are also taken only in the turn the harness sends them: one hello, one ready, then
(sealed with the run's secret, all but metric points) one started, each check asked for once and in the order asked,
at most one cell result, doctor report or error, metric points, and one done, after which
nothing. Anything else can only have been written by learner code (into the pipe, or through
the harness's own functions): the run is then an error, and nothing from that line on is believed."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import Any

from tutor.protocol import (
    PROTOCOL_VERSION,
    CellResult,
    CheckResult,
    DoctorReport,
    Done,
    Event,
    Hello,
    MetricPoints,
    ProtocolError,
    Ready,
    RunError,
    Started,
    TraceFacts,
    announced_version,
    parse_event,
    unseal,
)
from tutor.sandbox.events import Output
from tutor.sandbox.worker_process import Limits


class Intake:
    """Output (capped) and the worker's events, in order, for the verdict; and why reading must stop."""

    def __init__(self, limits: Limits, pass_all: bool = False, checks: tuple[str, ...] | None = None, seal: str = ""):
        self.limits = limits
        # The checks asked for, in order (None: not checked); the run's seal ("": not checked).
        self.checks = checks
        self.seal = seal
        self.forged = ""  # why an event cannot have come from the harness in its turn
        self._hello = False
        self._started = False
        self._results = 0  # check results taken so far
        self._ended = False  # a cell result, a doctor report or an error came: only metrics and done may follow
        # doctor: every chunk is passed on as it comes (the learner sees all its output), and
        # only what is kept goes into the verdict; chars_seen says how much there was.
        self.pass_all = pass_all
        self.chars_seen = {"stdout": 0, "stderr": 0}
        self.decoders = {s: codecs.getincrementaldecoder("utf-8")("replace") for s in ("stdout", "stderr")}
        self.kept = {"stdout": 0, "stderr": 0}  # characters kept of each stream
        self.total_bytes = 0
        self.truncated = False
        self.flooded = False
        self.event_buffer = b""
        self.greeted = False  # the first event line was read (a Hello, or the run is over)
        # The version the worker's first event announced (None: none); ours until it says otherwise.
        self.worker_protocol: int | None = PROTOCOL_VERSION
        self.protocol_error = ""  # what was wrong with the first bad event line
        self.ready = False
        self.done = False
        self.seen: list[Any] = []  # Output chunks and worker events, as they came

    @property
    def over(self) -> bool:
        """Reading must stop: too much output, an unreadable event, or a worker of another version."""
        return (
            self.flooded or bool(self.protocol_error) or bool(self.forged) or self.worker_protocol != PROTOCOL_VERSION
        )

    def feed_output(self, stream: str, data: bytes) -> Output | None:
        self.total_bytes += len(data)
        if self.limits.output_bytes is not None and self.total_bytes > self.limits.output_bytes:
            self.flooded = True
        room = self.limits.keep_chars - self.kept[stream]
        if room <= 0 and not self.pass_all:
            self.truncated = True
            return None
        text = self.decoders[stream].decode(data)
        self.chars_seen[stream] += len(text)
        if not self.pass_all:
            text = text[:room]
            return self._keep(Output(stream, text)) if text else None
        if not text:
            return None
        if room < len(text):
            self.truncated = True
        if room > 0:
            self._keep(Output(stream, text[:room]))
        return Output(stream, text)

    def _keep(self, out: Output) -> Output:
        self.kept[out.stream] += len(out.text)
        self.seen.append(out)
        return out

    def flush_text(self) -> Iterator[Output]:
        for stream, dec in self.decoders.items():
            tail = dec.decode(b"", final=True)
            self.chars_seen[stream] += len(tail)
            if tail and self.kept[stream] < self.limits.keep_chars:
                yield self._keep(Output(stream, tail))
            elif tail and self.pass_all:
                self.truncated = True
                yield Output(stream, tail)

    def feed_events(self, data: bytes) -> Iterator[CheckResult | MetricPoints | TraceFacts]:
        """Take event bytes; yields the events a reader shows as they come (checks, metric points)."""
        if self.protocol_error or self.forged or self.worker_protocol != PROTOCOL_VERSION:
            return  # the run is over; nothing after a bad event is believed
        self.event_buffer += data
        *lines, self.event_buffer = self.event_buffer.split(b"\n")
        if len(self.event_buffer) > max(self.limits.output_bytes or 0, 8 * 2**20):
            self.protocol_error = "a line longer than any event"  # stop before it eats the parent's memory
            self.event_buffer = b""
            return
        for line in lines:
            try:
                obj, sealed = unseal(json.loads(line))
                if not self.greeted:
                    self.greeted = True
                    self.worker_protocol = announced_version(obj)  # before anything else: any version's hello reads
                    if self.worker_protocol != PROTOCOL_VERSION:
                        return
                event = parse_event(obj)
            except ProtocolError as exc:
                self.protocol_error = str(exc)
            except ValueError:
                self.protocol_error = "a line that is not JSON"
            if self.protocol_error:
                return
            self.forged = self._out_of_turn(event, sealed)
            if self.forged:
                return
            self.seen.append(event)
            self.ready = self.ready or isinstance(event, Ready)
            self.done = self.done or isinstance(event, Done)
            if isinstance(event, (CheckResult, MetricPoints, TraceFacts)):
                yield event

    def _out_of_turn(self, event: Event, sealed: str | None) -> str:
        """Why `event` cannot be the harness's next one ("" when it can); updates the turn."""
        name = type(event).__name__
        if self.done:
            return f"a {name} event after the run said it was done"
        if isinstance(event, Hello):
            said, self._hello = self._hello, True
            return "a second hello" if said else ""
        if isinstance(event, Ready):
            return "a second ready" if self.ready else ""
        if isinstance(event, RunError) and not self.ready:
            return ""  # the worker broke while starting: before any job, so before any seal
        if not self.ready:
            return f"a {name} event before the worker was ready"
        if self.seal and sealed != self.seal and not isinstance(event, (MetricPoints, TraceFacts)):
            return f"a {name} event without the run's seal"  # metric points and trace facts judge nothing
        if isinstance(event, Started):
            if self._started:
                return "a second started"
            self._started = True
            return ""
        if not self._started:
            return f"a {name} event before the job started"
        if isinstance(event, (MetricPoints, TraceFacts, Done)):
            return ""
        if self._ended:
            return f"a {name} event after the run's result"
        if isinstance(event, CheckResult) and self.checks is not None:
            asked = self.checks
            if self._results >= len(asked):
                return f"a result for check '{event.id}' after every check asked for had one"
            if event.id != asked[self._results]:
                return f"a result for check '{event.id}' when '{asked[self._results]}' was next"
            self._results += 1
            return ""
        if isinstance(event, (CellResult, DoctorReport, RunError)):
            self._ended = True
        return ""
