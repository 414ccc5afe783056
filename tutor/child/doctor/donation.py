"""Detector: donation that does not pay. JAX's "donated buffers were not usable" warning,
caught at warnings.warn before any filter sees it; and an array used after it was donated,
which ends the script with JAX's RuntimeError, reported at the script's line."""

from __future__ import annotations

import functools
import types
import warnings

from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.retraces import Retraces
from tutor.child.doctor.script_code import ScriptCode
from tutor.jax_signals import DONATION_UNUSABLE
from tutor.protocol import Finding


class Donation:
    def __init__(self, code: ScriptCode, retraces: Retraces):
        self.code = code
        self.retraces = retraces
        self.unusable: list[tuple[str, str, int, str]] = []  # (file, function, line, the buffers' types)

    def install(self, hooks: Hooks) -> None:
        original = warnings.warn

        def warn(message, category=None, stacklevel=1, *a, **k):
            try:
                found = DONATION_UNUSABLE.search(str(message))
                if found:
                    self._on_unusable(found.group(1).strip())
            except Exception:  # noqa: BLE001 - reading the warning must never break the script
                pass
            return original(message, category, stacklevel + 1, *a, **k)

        functools.update_wrapper(warn, original)
        hooks.patch(warnings, "warn", warn)

    def _on_unusable(self, types: str) -> None:
        frame = self.code.frame_here()
        if frame is None:
            return
        # JAX warns while compiling the call that just traced: that function, reported where jax.jit
        # was asked to donate (one place for every compile of it), else at the call
        top = self.retraces.last_own
        if top is None or top.call_line != frame.f_lineno:
            self.unusable.append(
                (self.code.shown(frame.f_code.co_filename), frame.f_code.co_name, frame.f_lineno, types)
            )
            return
        code = self.code.function(top.name, top.def_line, top.def_file)
        wrapped = self.retraces.wrapped_at.get(self.code.place_of(code)) if code is not None else None
        file, line = (wrapped[0], wrapped[1]) if wrapped and wrapped[2] else (frame.f_code.co_filename, frame.f_lineno)
        self.unusable.append((self.code.shown(file), top.name, line, types))

    def findings(self, failure: BaseException | None) -> list[Finding]:
        out = [
            Finding("donation", "unusable", file, line, function=fn, types=types)
            for file, fn, line, types in self.unusable
        ]
        text = str(failure)
        if isinstance(failure, RuntimeError) and ("deleted" in text or "donated" in text):
            frame = self._stale_reference(failure)
            if frame is not None:
                file, name, line = frame
                out.append(Finding("donation", "deleted", self.code.shown(file), line, function=name))
        return out

    def _stale_reference(self, failure: BaseException) -> tuple[str, str, int] | None:
        """Where the learner still holds the donated value: the outermost of their frames in the
        traceback whose variables hold a deleted array (`acc = accuracy(old_state)`, not the line
        inside accuracy() that read it); the innermost of their frames if none is found."""
        frames = []
        tb = failure.__traceback__
        while tb is not None:
            if self.code.owns(tb.tb_frame.f_code.co_filename):
                frames.append((tb.tb_frame, tb.tb_lineno))
            tb = tb.tb_next
        if not frames:
            return None
        for frame, line in frames:  # outermost first
            if _holds_deleted(frame.f_locals):
                return (frame.f_code.co_filename, frame.f_code.co_name, line)
        frame, line = frames[-1]
        return (frame.f_code.co_filename, frame.f_code.co_name, line)


def _holds_deleted(names: dict) -> bool:
    import jax

    for value in list(names.values()):
        if isinstance(value, (type, types.ModuleType, types.FunctionType)):
            continue
        try:
            leaves = jax.tree_util.tree_leaves(value)[:1000]
        except Exception:  # noqa: BLE001 - not a pytree we can walk
            continue
        for leaf in leaves:
            deleted = getattr(leaf, "is_deleted", None)
            try:
                if callable(deleted) and deleted():
                    return True
            except Exception:  # noqa: BLE001
                continue
    return False
