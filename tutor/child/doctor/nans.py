"""Detector (with --nans): the first NaN / inf. `jax_debug_nans` and `jax_debug_infs` stop the
script there; the operation comes from JAX's message, the line from the script's frame."""

from __future__ import annotations

import re

from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.script_code import ScriptCode
from tutor.protocol import Finding

_NAN_IN = re.compile(r"encountered in (\S+?)[.:,]?(?:\s|$)")


class Nans:
    def __init__(self, code: ScriptCode):
        self.code = code

    def install(self, hooks: Hooks) -> None:
        hooks.option("jax_debug_nans", True)
        hooks.option("jax_debug_infs", True)

    def findings(self, failure: BaseException | None) -> list[Finding]:
        last = self.code.last_frame(failure)
        if not isinstance(failure, FloatingPointError) or last is None:
            return []
        found = _NAN_IN.search(str(failure))
        primitive = found.group(1) if found else ""
        return [
            Finding(
                "nan",
                "first",
                self.code.shown(last.filename),
                last.lineno or 0,
                function=last.name,
                primitive=primitive,
            )
        ]
