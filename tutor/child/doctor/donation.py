"""Detector: donation that does not pay. JAX's "donated buffers were not usable" warning,
caught at warnings.warn before any filter sees it; and an array used after it was donated,
which ends the script with JAX's RuntimeError, reported at the script's line."""

from __future__ import annotations

import functools
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
        # JAX warns while compiling the call that just traced: name that function
        top = self.retraces.last_own
        name = top.name if top and top.call_line == frame.f_lineno else frame.f_code.co_name
        self.unusable.append((self.code.shown(frame.f_code.co_filename), name, frame.f_lineno, types))

    def findings(self, failure: BaseException | None) -> list[Finding]:
        out = [
            Finding("donation", "unusable", file, line, function=fn, types=types)
            for file, fn, line, types in self.unusable
        ]
        text = str(failure)
        last = self.code.last_frame(failure)
        if isinstance(failure, RuntimeError) and ("deleted" in text or "donated" in text) and last is not None:
            out.append(
                Finding("donation", "deleted", self.code.shown(last.filename), last.lineno or 0, function=last.name)
            )
        return out
