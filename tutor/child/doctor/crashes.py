"""Detector: the script ended with an error the chapter teaches. Python's traceback alone says
what broke; the finding says where in the learner's code and which lesson shows the fix:
`x[0] = 2.0` on a JAX array, a traced value used where Python needs a concrete one
(ConcretizationTypeError), a traced value in an `if` (TracerBoolConversionError), a tracer leaked
out of its transformation (UnexpectedTracerError), and jax_debug_key_reuse's KeyReuseError.
A donated array used after the call is the donation detector's."""

from __future__ import annotations

import jax

from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.script_code import ScriptCode
from tutor.protocol import Finding, FindingCode

IMMUTABLE = "JAX arrays are immutable"


def _code_of(failure: BaseException) -> FindingCode | None:
    errors = jax.errors
    key_reuse = getattr(errors, "KeyReuseError", None)
    if key_reuse is not None and isinstance(failure, key_reuse):
        return "key-reuse-error"
    if isinstance(failure, errors.TracerBoolConversionError):  # before its base class
        return "tracer-bool"
    if isinstance(failure, errors.ConcretizationTypeError):
        return "concretization"
    if isinstance(failure, errors.UnexpectedTracerError):
        return "leaked-tracer"
    if isinstance(failure, TypeError) and IMMUTABLE in str(failure):
        return "immutable"
    if isinstance(failure, TypeError) and "Tracer" in str(failure) and "not a valid JAX type" in str(failure):
        return "leaked-tracer"  # a leaked tracer passed to an op, once another trace is current
    return None


class Crashes:
    def __init__(self, code: ScriptCode):
        self.code = code

    def install(self, hooks: Hooks) -> None:
        pass  # reads the failure only

    def findings(self, failure: BaseException | None) -> list[Finding]:
        if failure is None:
            return []
        code = _code_of(failure)
        last = self.code.last_frame(failure)
        if code is None or last is None:
            return []
        return [Finding("crash", code, self.code.shown(last.filename), last.lineno or 0, function=last.name)]
