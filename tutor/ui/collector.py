"""Python's garbage collector in the TUI process, kept off the moments the screen must stay live.

A full collection walks every tracked object of the process and holds the GIL throughout, so no
thread helps: with the course, Textual and an exercise open (~140k objects) it took 65-120 ms of
CPU, and one landing while a training check streamed its loss was the worst stall of the check.
Two things make it short and rare:

- `settle()`, once the course and the first screen are made: what exists then (modules, the
  course, the outline) lives as long as the app, so it is moved out of the collector's view
  (`gc.freeze`) until the app ends (`unsettle()`); a full collection walks only what came later.
- `hold()` / `release()` around each run: while code runs, the young generations still collect
  (their cycles cost little), the full collection waits until the last run has ended and its
  verdict is drawn (RELEASE_AFTER_S): given back at once, the collection the run had put off came
  with the next allocation, in the frame that lays out the verdict.

Frozen objects are still freed by reference counting; a cycle among them waits for `unsettle()`.
"""

from __future__ import annotations

import gc
import threading

HELD_THRESHOLD = 1_000_000  # young collections before a full one, while a run goes: not within it
RELEASE_AFTER_S = 1.0  # after the last run ends, the threshold comes back this much later

_lock = threading.Lock()
_runs = 0
_threshold: tuple[int, int, int] | None = None  # the collector's own, while runs hold it
_endings = 0  # times the last run ended: a give-back timer of an earlier one does nothing
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
        if _threshold is None:  # else still held since the last run (its release is pending)
            _threshold = gc.get_threshold()
            young, middle, _ = _threshold
            gc.set_threshold(young, middle, HELD_THRESHOLD)


def release() -> None:
    """A run ended (any thread); RELEASE_AFTER_S after the last one, the collector has its
    threshold back."""
    global _runs, _endings
    with _lock:
        if _runs == 0:
            return
        _runs -= 1
        if _runs:
            return
        _endings += 1
        ending = _endings
    timer = threading.Timer(RELEASE_AFTER_S, _give_back, (ending,))
    timer.daemon = True  # an app that ends meanwhile does not wait for it
    timer.start()


def _give_back(ending: int) -> None:
    global _threshold
    with _lock:
        if _runs == 0 and ending == _endings and _threshold is not None:  # no run since that one
            gc.set_threshold(*_threshold)
            _threshold = None


def held() -> bool:
    """The full collection is held back: a run goes, or one ended less than RELEASE_AFTER_S ago."""
    with _lock:
        return _threshold is not None
