"""Child side of the event pipe: JSON lines written straight to a private file descriptor.

Learner output goes to fds 1 and 2, which the parent reads separately, so nothing the
learner prints can look like an event. References to os.write and json.dumps are taken
at import time so that learner code which monkey-patches them cannot break reporting.
"""

from __future__ import annotations

import json
import os
import time

_write = os.write
_dumps = json.dumps
_fd: int | None = None
_metric_buffer: list[list] = []
_last_flush = 0.0
METRIC_FLUSH_S = 0.1  # the chart redraws at most ~10 times a second anyway


def open_channel(fd: int) -> None:
    """Move the event pipe to a private, non-inheritable descriptor."""
    global _fd
    private = os.dup(fd)  # os.dup makes it non-inheritable
    os.close(fd)
    _fd = private


def emit(event: dict) -> None:
    if _fd is None:
        return
    data = (_dumps(event, ensure_ascii=False, allow_nan=True) + "\n").encode("utf-8")
    while data:
        written = _write(_fd, data)
        data = data[written:]


def metric(series: str, step: int, value: float) -> None:
    """Queue one point of a live chart; points go out in batches."""
    global _last_flush
    _metric_buffer.append([str(series), int(step), float(value)])
    now = time.monotonic()
    if now - _last_flush >= METRIC_FLUSH_S:
        flush_metrics()
        _last_flush = now


def flush_metrics() -> None:
    if _metric_buffer:
        emit({"type": "metrics", "points": list(_metric_buffer)})
        _metric_buffer.clear()
