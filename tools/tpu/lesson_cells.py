"""Run a lesson's demo cells on this machine's default JAX backend (a TPU on a TPU VM), each in a
fresh Python process, and print what each printed: what a lesson's claim about "this device" rests
on, quoted in BENCHMARKS.md. The tutor's workers run cells on the CPU unless --accelerator; this
runs them plainly, as a learner's own `python` would.

    python3 tools/tpu/lesson_cells.py 6.6 [CELL_ID_SUBSTRING]

Needs the tutor's runtime (tools/tpu/setup.sh) for reading the course; each cell needs only JAX."""

from __future__ import annotations

import os
import subprocess
import sys

from tutor.course.loader import load_course


def main() -> None:
    lesson_id = sys.argv[1]
    wanted = sys.argv[2] if len(sys.argv) > 2 else ""
    lesson = load_course().lesson(lesson_id)
    if lesson is None:
        sys.exit(f"no lesson {lesson_id}")
    for cell in lesson.cells:
        if wanted not in cell.id:
            continue
        env, where = dict(os.environ), ""
        if cell.cpu_devices > 1:  # a multi-device cell is written for the CPU's virtual devices, as the tutor runs it
            env.update(JAX_PLATFORMS="cpu", JAX_NUM_CPU_DEVICES=str(cell.cpu_devices))
            where = f", on {cell.cpu_devices} virtual CPU devices"
        done = subprocess.run([sys.executable, "-c", cell.code], capture_output=True, text=True, timeout=120, env=env)
        print(f"---- {cell.id} (exit {done.returncode}{where})")
        print(done.stdout.rstrip())
        if done.returncode:
            print(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "")


if __name__ == "__main__":
    main()
