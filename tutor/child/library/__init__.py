"""The check library: what each exercise's `checks.py` imports (`from tutor.child.library import
check, close, ...`). Runs inside the worker.

Every helper judges meaning (values, trace counts, jaxpr primitives, gradients, structure)
and, when it fails, raises CheckFailed with an English and a Chinese message that says
what was expected, what came back, and where (which leaf, which call, which step). Each
module holds one concern; this package is their one public surface.
"""

from __future__ import annotations

import importlib
import pkgutil

from tutor.child.library.calling import Explanation, call, explain_error, raises
from tutor.child.library.counts import EDGE_STARTS, expect_counts_past_edges, holds, kept_cause, narrow_count
from tutor.child.library.donation import aval_text, donation_warnings, lowered_donation_warnings
from tutor.child.library.edges import (
    SPECIALS,
    finite_twin,
    jumping_gradients,
    largest_step,
    moving_average,
    planted,
    special_where,
)
from tutor.child.library.failures import CheckError, CheckFailed, Label, bilingual, expect, fail, on_failure
from tutor.child.library.gradients import grad_check
from tutor.child.library.hidden_state import expect_no_hidden_state
from tutor.child.library.jaxprs import (
    draws_not_from,
    expect_primitive,
    host_calls_per_example,
    primitive_counts,
    primitive_names,
    primitives,
)
from tutor.child.library.keys import checker_sees_across_jit_calls, fresh_key, key_reuse_checker, other_key
from tutor.child.library.precision import rounded_cause, rounded_through
from tutor.child.library.purity import Changes, TreeCopy, changed_what, global_changes, global_snapshot, keeps_globals
from tutor.child.library.recording import Recording, traced_call
from tutor.child.library.registry import CheckDef, check, is_defined, learner_attr
from tutor.child.library.tracing import (
    TraceCounter,
    TraceEvents,
    expect_compiled,
    expect_one_program,
    expect_programs_reused,
    expect_traces,
    is_jitted,
    outputs_from_jit,
    traced,
)
from tutor.child.library.training import metric, run_training
from tutor.child.library.values import (
    as_float32,
    close,
    device_rtol,
    dtypes,
    finite,
    returns,
    structure,
    type_of,
    x64_enabled,
    x64_note,
)

# Every module of the package: the harness puts back whatever learner code rebinds in them.
MODULES = tuple(importlib.import_module(f"{__name__}.{info.name}") for info in pkgutil.iter_modules(__path__))

__all__ = [
    "narrow_count",
    "EDGE_STARTS",
    "expect_counts_past_edges",
    "kept_cause",
    "rounded_cause",
    "rounded_through",
    "holds",
    "SPECIALS",
    "finite_twin",
    "jumping_gradients",
    "largest_step",
    "moving_average",
    "planted",
    "special_where",
    "Changes",
    "changed_what",
    "CheckDef",
    "CheckError",
    "CheckFailed",
    "Explanation",
    "Label",
    "TraceCounter",
    "TraceEvents",
    "TreeCopy",
    "as_float32",
    "aval_text",
    "bilingual",
    "call",
    "check",
    "checker_sees_across_jit_calls",
    "close",
    "device_rtol",
    "donation_warnings",
    "draws_not_from",
    "lowered_donation_warnings",
    "dtypes",
    "expect",
    "expect_compiled",
    "expect_no_hidden_state",
    "expect_one_program",
    "expect_programs_reused",
    "expect_primitive",
    "expect_traces",
    "explain_error",
    "fail",
    "finite",
    "fresh_key",
    "other_key",
    "global_changes",
    "global_snapshot",
    "grad_check",
    "host_calls_per_example",
    "is_defined",
    "is_jitted",
    "keeps_globals",
    "key_reuse_checker",
    "learner_attr",
    "metric",
    "on_failure",
    "outputs_from_jit",
    "primitive_counts",
    "primitive_names",
    "primitives",
    "raises",
    "Recording",
    "returns",
    "run_training",
    "structure",
    "traced",
    "traced_call",
    "type_of",
    "x64_enabled",
    "x64_note",
]
