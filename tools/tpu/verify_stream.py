"""`verify --accelerator` [solution|starter] [EXERCISE_ID...], one line as each run ends (the device's time is short: what finished is kept)."""

import sys
import tempfile
import time
from pathlib import Path

from tutor.course import load_course
from tutor.sandbox.runner import Sandbox

course = load_course()
box = Sandbox(Path(tempfile.mkdtemp()), accelerator=True, fork_server=True)
which = [a for a in sys.argv[1:] if a in ("solution", "starter")] or ["solution", "starter"]
only = {a for a in sys.argv[1:] if a not in ("solution", "starter")}  # exercise ids; none: all
ok = n = 0
start = time.monotonic()
try:
    for kind in which:
        for ex in course.exercises:
            if only and ex.id not in only:
                continue
            source = course.solution_path(ex.id).read_text() if kind == "solution" else ex.starter
            t = time.monotonic()
            v = box.run_exercise(ex, source, f"/tmp/{ex.id}.{kind}.py").result()
            good = v.passed if kind == "solution" else not v.passed
            ok, n = ok + good, n + 1
            print(
                f"{'✓' if good else '✗'} {ex.id:20} {kind:8} {v.status:8} {v.kind:10} run {v.duration_s:6.2f} s  wall {time.monotonic() - t:6.2f} s  {v.message.en[:120] if not good else ''}",
                flush=True,
            )
finally:
    box.close()
print(f"{ok}/{n} ok in {time.monotonic() - start:.1f} s", flush=True)
