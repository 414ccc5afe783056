"""Python's garbage collector in the TUI process, kept off the moments the screen must stay live.

A full collection walks every tracked object of the process and holds the GIL throughout, so no
thread helps: with the course, Textual and an exercise open (~140k objects) it took 65-120 ms of
CPU, and one landing while a training check streamed its loss was the worst stall of the check.
Two things make it short and rare:

- `settle()`, once the course and the first screen are made: what exists then (modules, the
  course, the outline) lives as long as the app, so it is moved out of the collector's view
  (`gc.freeze`) until the app ends (`unsettle()`); a full collection walks only what came later.
- `hold()` / `release()` around each run: while code runs, the young generations still collect
  (their cycles cost little), the full collection waits for the last run to end.

Frozen objects are still freed by reference counting; a cycle among them waits for `unsettle()`.
"""

from __future__ import annotations

import gc
import threading

HELD_THRESHOLD = 1_000_000  # young collections before a full one, while a run goes: not within it

_lock = threading.Lock()
_runs = 0
_threshold: tuple[int, int, int] | None = None  # the collector's own, while runs hold it
_froze = False  # settle() froze, so unsettle() unfreezes


def settle() -> None:
    """Collect once (start-up's garbage is not kept), then freeze what is left: the app's
    long-lived objects. Not where the process froze its own already (the test suite does, at
    collection): one freeze is all there is, and it is theirs to undo."""
    global _froze
    if _froze or gc.get_freeze_count():
        return
    gc.collect()
    gc.freeze()
    _froze = True


def unsettle() -> None:
    """The app ends: what settle() froze is collected as usual again (an app made after it in the
    same process, as the bench does, must not keep this one's cycles)."""
    global _froze
    if _froze:
        gc.unfreeze()
        _froze = False


def hold() -> None:
    """A run starts (any thread): no full collection until every run has ended."""
    global _runs, _threshold
    with _lock:
        _runs += 1
        if _runs == 1:
            _threshold = gc.get_threshold()
            young, middle, _ = _threshold
            gc.set_threshold(young, middle, HELD_THRESHOLD)


def release() -> None:
    """A run ended (any thread); the last one gives the collector its threshold back."""
    global _runs, _threshold
    with _lock:
        if _runs == 0:
            return
        _runs -= 1
        if _runs == 0 and _threshold is not None:
            gc.set_threshold(*_threshold)
            _threshold = None


def held() -> bool:
    """A run holds the full collection back (tests)."""
    with _lock:
        return _runs > 0
