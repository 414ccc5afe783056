"""Child side of the event pipe: JSON lines written straight to a private file descriptor.

Learner output goes to fds 1 and 2, which the parent reads separately, so nothing the
learner prints can look like an event. References to os.write and json.dumps are taken
at import time so that learner code which monkey-patches them cannot break reporting.
If the pipe is gone (closed by the learner, or its number reused for one of the learner's
files), the worker exits with status CHANNEL_LOST instead of writing events anywhere else.

Once the job is read, the run's results go out through one sender made for it (`sealed`), whose
events carry the run's seal (tutor.protocol.SEAL); `send` goes on sending metric points, which need
none. The seal lives only in that sender's closure, and the sender only in the locals of the worker's
frames: no module attribute leads to it, so learner code that writes into the pipe itself, or calls
`send`, sends events the parent refuses. Code that walks the interpreter's frames or objects can still
find it (RELIABILITY.md says what holds then).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable

from tutor.protocol import CHANNEL_LOST, SEAL, MetricPoints

_write = os.write
_dumps = json.dumps
_exit = os._exit
_fstat = os.fstat
# A lone surrogate (a file name that is not UTF-8, decoded by os.fsdecode) cannot be encoded: sent as
# the visible text `\udcff` (an escaped backslash in the JSON), as Python's repr shows it.
_surrogates = re.compile("[\ud800-\udfff]").sub
MAX_TEXT = 100_000  # characters of any one text in an event (as many as the parent keeps of a stream)
_fd: int | None = None
_identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the event pipe
_asarray = None  # numpy.asarray, taken when the channel opens (in the worker, before learner code runs)
_metric_buffer: list[list] = []
OWN_STATE = ("_fd", "_identity", "_asarray", "_last_flush")  # what this module rebinds as it works
_last_flush = 0.0
METRIC_FLUSH_S = 0.04  # a batch a little more often than the chart redraws (every 0.05 s)


def open_channel(fd: int) -> None:
    """Move the event pipe to a private, non-inheritable descriptor."""
    global _fd, _identity, _asarray
    try:
        import numpy

        _asarray = numpy.asarray
    except ImportError:
        _asarray = None
    private = os.dup(fd)  # os.dup makes it non-inheritable
    os.close(fd)
    _fd = private
    st = os.fstat(private)
    _identity = (st.st_dev, st.st_ino)


def sealed(secret: str) -> Callable[[object], None]:
    """The sender of this run's events (results, errors, done), each sealed with `secret`."""

    def send_sealed(event) -> None:
        emit(event.to_wire(), secret)

    return send_sealed


def send(event) -> None:
    """Send one tutor.protocol event (a dataclass with to_wire())."""
    emit(event.to_wire())


def emit(event: dict, seal: str = "") -> None:
    """Write one event, already in its wire form, as a JSON line (sealed with `seal`, if given)."""
    if _fd is None:
        return
    wire = _fit(event)
    if seal:
        wire[SEAL] = seal
    text = _dumps(wire, ensure_ascii=False, allow_nan=True)
    try:
        data = (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        data = (_surrogates(lambda m: f"\\\\u{ord(m.group()):04x}", text) + "\n").encode("utf-8")
    try:
        st = _fstat(_fd)
        same = (st.st_dev, st.st_ino) == _identity
    except OSError:
        same = False
    if not same:
        # The learner closed the pipe (its number may now belong to one of their files).
        _exit(CHANNEL_LOST)
    while data:
        try:
            written = _write(_fd, data)
        except OSError:
            # Nothing can be reported any more; a distinct exit status tells the parent why.
            _exit(CHANNEL_LOST)
        data = data[written:]


def _fit(value, zh: bool = False):
    """The event with every text cut to MAX_TEXT characters, saying so (in Chinese under a "zh" key):
    a 20 MB exception message must reach the parent as a message, not as a line too long to read."""
    if isinstance(value, str):
        if len(value) <= MAX_TEXT:
            return value
        cut = len(value) - MAX_TEXT
        note = f"…［其余 {cut} 个字符已截去］" if zh else f"… [{cut} more characters cut]"
        return value[:MAX_TEXT] + note
    if isinstance(value, dict):
        return {k: _fit(v, k == "zh") for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_fit(v, zh) for v in value]
    return value


def metric(series: str, step: int, value) -> None:
    """Queue one point of a live chart; points go out in batches.

    The value is kept as given (often a JAX scalar) and turned into a float only when the
    batch is sent: float() waits for the device, and doing that on every step would stop
    JAX from running ahead of Python (it costs ~25% on a small training loop)."""
    global _last_flush
    _metric_buffer.append([str(series), int(step), value])
    if time.monotonic() - _last_flush >= METRIC_FLUSH_S:
        flush_metrics()
        _last_flush = time.monotonic()  # after the flush, which may have waited for the device


def _as_float(value) -> float:
    """float(value); for a JAX scalar through numpy.asarray, which costs ~4 us a point where
    float() on the JAX array itself costs ~20 us (measured on 1000 fresh CPU scalars)."""
    if type(value) is float:
        return value
    if _asarray is not None and not isinstance(value, (int, str, bytes)):
        return float(_asarray(value))
    return float(value)


def flush_metrics() -> None:
    if not _metric_buffer:
        return
    points: list[tuple[str, int, float]] = []
    for series, step, value in _metric_buffer:
        try:
            points.append((series, step, _as_float(value)))
        except Exception:  # noqa: BLE001 - e.g. a tracer (metric called inside jit): skip the point
            continue
    _metric_buffer.clear()
    if points:
        send(MetricPoints(tuple(points)))
