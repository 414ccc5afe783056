"""Detector (with --nans): the first NaN / inf. `jax_debug_nans` and `jax_debug_infs` stop the
script there; the operation comes from JAX's message, the line from the script's frame. Where
that op only spread a value another op made (a `div` in the gradient of a log of 0),
nan_origin finds the op that made it: that is the line to change, and JAX's stays as the line
where it was noticed."""

from __future__ import annotations

import dataclasses
import re

from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.nan_origin import origin
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
        finding = Finding(
            "nan",
            "first",
            self.code.shown(last.filename),
            last.lineno or 0,
            function=last.name,
            primitive=found.group(1) if found else "",
        )
        try:
            made = origin(failure, self.code)
        except Exception:  # noqa: BLE001 - another JAX, an odd program: JAX's own line stands
            made = None
        if made is None or (self.code.shown(made.filename), made.line) == (finding.file, finding.line):
            return [finding if made is None else _with(finding, primitive=made.primitive)]
        return [
            _with(
                finding,
                file=self.code.shown(made.filename),
                line=made.line,
                function=made.function,
                primitive=made.primitive,
                noticed_line=finding.line if self.code.shown(made.filename) == finding.file else None,
            )
        ]


_with = dataclasses.replace
