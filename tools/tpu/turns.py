"""With --accelerator: a lesson cell runs on the CPU beside the chip, and a check waits for a chip
another process holds (held 12 s: it passes once freed; held past the wait: it names the cause)."""

import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from tutor.course import load_course
from tutor.sandbox.runner import DEVICE_WAIT_S, Sandbox

course = load_course()
box = Sandbox(Path(tempfile.mkdtemp()), accelerator=True, fork_server=True)
cell = next(c for lesson in course.lessons for c in lesson.cells if c.predict is None)
probe = replace(
    cell, code="import jax\nprint('backend', jax.default_backend(), jax.devices())\n", expect=type(cell.expect)()
)
t = time.monotonic()
v = box.run_cell(probe).result()
print(f"cell: {v.status} {v.stdout.strip()} in {time.monotonic() - t:.1f} s", flush=True)

exercise = course.exercise("counter-jit")
source = course.solution_path("counter-jit").read_text()
hold = "import jax, sys, time; jax.devices(); print('held', flush=True); time.sleep(float(sys.argv[1]))"
for held_s in (12, DEVICE_WAIT_S + 25):
    holder = subprocess.Popen(
        [sys.executable, "-c", hold, str(held_s)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    print(f"holder: {holder.stdout.readline().decode().strip()} for {held_s:.0f} s", flush=True)
    t = time.monotonic()
    v = box.run_exercise(exercise, source, "/tmp/counter-jit.py").result()
    print(
        f"check while held {held_s:.0f} s: {v.status} {v.kind} wall {time.monotonic() - t:.1f} s: {v.message.en[:300]}",
        flush=True,
    )
    holder.kill()
    holder.wait()
box.close()
