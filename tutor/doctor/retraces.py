"""Retraces from JAX's own words: the "TRACING CACHE MISS" explanations that
`jax_explain_cache_misses` logs (logger `jax._src.interpreters.partial_eval` on JAX 0.10.2 and
0.12.0.1), parsed and turned into findings. Pure text handling, no JAX.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from tutor.doctor.findings import Finding

LOGGER = "jax._src.interpreters.partial_eval"
MARK = "TRACING CACHE MISS"

_HEAD = re.compile(r"TRACING CACHE MISS at (?P<file>.+?):(?P<line>\d+)(?::\d+)? \((?P<caller>[^)]*)\):")
_NEW = re.compile(r"never seen function:\s*\n\s*(?P<name>\S+) id=\d+ defined at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_SEEN = re.compile(r"^\s*for (?P<name>\S+) defined at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_URL = re.compile(r"https?://\S+")
_STATIC = re.compile(
    r"at input path (?P<path>\S+), now .*?Static\(val=(?P<now>.*?)\) and before .*?"
    r"Static\(val=(?P<before>.*?)\)"
)

# How many retraces of one function for one reason before it is worth a finding. A function
# compiled for two static flags, or for the train batch and then the eval set, is idiomatic;
# a weak-typed start retraces once and is always a mistake.
THRESHOLD = {"weak-type": 1, "shape": 3, "structure": 3, "static": 3, "unexplained": 3, "new-function": 2}


@dataclass(frozen=True)
class Miss:
    """One trace of a jitted function, as JAX explained it."""

    name: str
    def_file: str
    def_line: int
    call_file: str
    call_line: int
    first: bool  # never seen before (the first trace, or a new function object)
    same_line: bool  # ... while another function defined on this line was seen: re-created
    reason: str  # weak-type | shape | structure | static | unexplained | "" for a first trace
    explanation: str  # JAX's own words for the difference, one line


def parse(message: str) -> Miss | None:
    """A Miss from one log message, or None if it is not a cache-miss explanation."""
    head = _HEAD.search(message)
    if head is None:
        return None
    new, seen = _NEW.search(message), _SEEN.search(message)
    if new is None and seen is None:
        return None
    match = new or seen
    first = new is not None
    same_line = first and "defined on the same line" in message
    diff = message[match.end() :] if not first else ""
    reason, explanation = ("new-function" if same_line else "", "") if first else classify(diff)
    return Miss(
        match["name"],
        match["file"],
        int(match["line"]),
        head["file"],
        int(head["line"]),
        first,
        same_line,
        reason,
        explanation,
    )


def classify(diff: str) -> tuple[str, str]:
    """(reason, JAX's explanation in one line) from the part of a message after "for f ..."."""
    lines = [ln.strip() for ln in diff.splitlines() if ln.strip()]
    starred = [ln.lstrip("* ").strip() for ln in lines if ln.startswith("*")]
    explanation = _URL.sub("", starred[0] if starred else (lines[-1] if lines else "")).strip()
    static = _STATIC.search(explanation)
    if static:  # JAX 0.10 spells a static value out as pytree metadata: say it plainly
        explanation = f"static argument {static['path']} was {static['before']}, now {static['now']}"
    if len(explanation) > 200:
        explanation = explanation[:197] + "..."
    text = "\n".join(lines)
    if "weak_type=" in text:
        return "weak-type", explanation
    if "Static(" in text or "static" in text.lower():
        return "static", explanation
    if "different input types" in text:
        return "shape", explanation
    if "different input pytree" in text:
        return "structure", explanation
    return "unexplained", ""


def findings(misses: list[Miss], script: str, owns) -> list[Finding]:
    """Findings for the script's jitted functions traced more often than their reason allows.
    `owns(filename)` tells the script's own file; each finding points at the call that retraced
    (or at the function's definition when that call is not in the script)."""
    mine = [m for m in misses if owns(m.def_file)]
    retraces = [m for m in mine if not m.first or m.same_line]
    totals = Counter((m.name, m.def_line, m.reason) for m in retraces)
    out: dict[tuple, Finding] = {}
    explained: dict[tuple, list[str]] = defaultdict(list)
    for m in retraces:
        if totals[(m.name, m.def_line, m.reason)] < THRESHOLD.get(m.reason, 2):
            continue
        line = m.call_line if owns(m.call_file) else m.def_line
        key = (m.name, line, m.reason)
        if m.explanation and m.explanation not in explained[key]:
            explained[key].append(m.explanation)
        if key in out:
            out[key].count += 1
        else:
            out[key] = Finding("retrace", m.name, script, line, 1, m.reason or "unexplained")
    for key, f in out.items():
        if explained[key]:
            f.details["explanation"] = explained[key][0]
    return list(out.values())


def traces_per_function(misses: list[Miss], owns) -> dict[str, int]:
    """How many times each of the script's jitted functions was traced ("name:line" -> n)."""
    return dict(Counter(f"{m.name}:{m.def_line}" for m in misses if owns(m.def_file)))
