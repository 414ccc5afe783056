"""The reference solution's loss on the same data as the learner's, for the chart under their curve.

The course's solution is run through the exercise's plotting checks only (the ones that train
and stream points), in a worker like any learner run: confined as every run is, it reads no
solutions/ folder; this module, tutor-owned code in the parent, reads the solution's text and
hands it over as `verify` does. What comes back to the caller is the points, never the code:
the UI asks for numbers and gets numbers. Kept in the home under a fingerprint of the solution
and the checks' text, so each exercise trains its reference once per course version.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tutor.files.atomic import replace_atomically
from tutor.protocol import MetricPoints

if TYPE_CHECKING:
    from tutor.sandbox.runner import Sandbox

Points = tuple[tuple[str, int, float], ...]
FOLDER = "reference-curves"  # in the home: numbers only


# The course's Exercise and Course (tutor.course imports the sandbox, so not named here): Any.
def plotting_checks(exercise: Any) -> list[Any]:
    return [c for c in exercise.checks if c.plots]


def _fingerprint(course: Any, exercise: Any) -> str | None:
    digest = hashlib.sha256(exercise.id.encode())
    try:
        digest.update(course.solution_path(exercise.id).read_bytes())
        digest.update(Path(exercise.checks_file).read_bytes())
    except OSError:
        return None
    return digest.hexdigest()[:20]


def cached(home: Path, course: Any, exercise: Any) -> Points | None:
    """The reference's points if this course version's were computed before, else None."""
    key = _fingerprint(course, exercise)
    if key is None:
        return None
    try:
        data = json.loads((Path(home) / FOLDER / f"{exercise.id}-{key}.json").read_text(encoding="utf-8"))
        return tuple((str(s), int(i), float(v)) for s, i, v in data["points"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def compute(sandbox: Sandbox, home: Path, course: Any, exercise: Any) -> Points | None:
    """Run the solution through the plotting checks and keep its points (None: no reference here,
    e.g. the course ships no solution, or the run failed; the chart then shows the learner's alone)."""
    found = cached(home, course, exercise)
    if found is not None:
        return found
    checks = plotting_checks(exercise)
    key = _fingerprint(course, exercise)
    if not checks or key is None:
        return None
    source = course.solution_path(exercise.id).read_text(encoding="utf-8")
    # Only what trains, without its prerequisites: the solution passes them.
    only = replace(exercise, checks=tuple(replace(c, depends=()) for c in checks))
    run = sandbox.run_exercise(only, source, f"{exercise.id}.py")
    points: list[tuple[str, int, float]] = []
    for event in run.events():
        if isinstance(event, MetricPoints):
            points.extend(event.points)
    verdict = run.verdict
    if verdict is None or not verdict.passed or not points:
        return None
    folder = Path(home) / FOLDER
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        finite = [(s, i, v) for s, i, v in points if math.isfinite(v)]
        target = folder / f"{exercise.id}-{key}.json"
        data = json.dumps({"points": finite}).encode()
        replace_atomically(target, data, folder / f".{target.name}.{os.getpid()}.tmp", durable=False)
    except OSError:
        pass  # computed again next time
    return tuple(points)
