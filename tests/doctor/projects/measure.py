"""The doctor's cost, measured (not a test: figures for BENCHMARKS.md).

    .venv/bin/python tests/doctor/projects/measure.py [--rounds 3] [--projects a,b]

1. Whole runs: each clean program of tests/doctor/projects/ run as `python ENTRY ARGS` and as
   `jaxstate-tutor doctor ENTRY ARGS`, alternately, `--rounds` times; the median of each and
   their ratio.
2. Key watching per jitted step: a jitted step that splits its key, timed per call inside the
   script, plainly and under the doctor (the same alternation).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PROJECTS = HERE
TUTOR = [sys.executable, "-m", "tutor"]

STEP = """
import time, jax, jax.numpy as jnp
@jax.jit
def step(w, key):
    key, sub = jax.random.split(key)
    return w + 0.01 * jax.random.normal(sub, w.shape), key
w, key = jnp.zeros(10), jax.random.key(0)
for _ in range(50):
    w, key = step(w, key)
w.block_until_ready()
start = time.perf_counter()
for _ in range(N):
    w, key = step(w, key)
w.block_until_ready()
print("PER_STEP_US", (time.perf_counter() - start) / N * 1e6)
"""


def _env() -> dict:
    return dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(HERE.parents[2]))


def _timed(cmd: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=_env(), timeout=900)
    return time.perf_counter() - start, done.stdout


def whole_runs(rounds: int, only: set[str]) -> None:
    print("program, plain s, doctor s, ratio (medians)")
    ratios = []
    for folder in sorted(p for p in PROJECTS.iterdir() if (p / "plants.yaml").is_file()):
        if only and folder.name not in only:
            continue
        spec = yaml.safe_load((folder / "plants.yaml").read_text(encoding="utf-8"))
        args = [str(a) for a in spec.get("args", ())]
        plain, doctor = [], []
        entry = spec["entry"]
        script = entry
        if entry.endswith(".ipynb"):  # python cannot run a notebook: its cells, as one script
            from tutor.doctor import notebook

            script = "_cells_of_" + Path(entry).stem + ".py"
            (folder / script).write_text(notebook.read(str(folder / entry)).source, encoding="utf-8")
        try:
            for _ in range(rounds):
                plain.append(_timed([sys.executable, script, *args], folder)[0])
                doctor.append(_timed([*TUTOR, "doctor", entry, *args], folder)[0])
        finally:
            if script != entry:
                (folder / script).unlink()
        p, d = statistics.median(plain), statistics.median(doctor)
        ratios.append(d / p)
        print(f"{folder.name}, {p:.2f}, {d:.2f}, {d / p:.2f}")
    if ratios:
        print(f"whole-run ratio: median {statistics.median(ratios):.2f}, max {max(ratios):.2f}")


def per_step(rounds: int, steps: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "step_keys.py"
        script.write_text(STEP.replace("N", str(steps)), encoding="utf-8")
        plain, doctor = [], []
        for _ in range(rounds):
            for cmd, into in (([sys.executable, script.name], plain), ([*TUTOR, "doctor", script.name], doctor)):
                out = _timed(cmd, Path(tmp))[1]
                found = re.search(r"PER_STEP_US ([\d.]+)", out)
                into.append(float(found.group(1)) if found else float("nan"))
        p, d = statistics.median(plain), statistics.median(doctor)
        print(f"jitted step that splits its key, {steps} calls: plain {p:.1f} us, doctor {d:.1f} us, ratio {d / p:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--projects", default="")
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--skip-whole", action="store_true")
    args = parser.parse_args()
    print("load average", os.getloadavg())
    per_step(args.rounds, args.steps)
    if not args.skip_whole:
        whole_runs(args.rounds, {p for p in args.projects.split(",") if p})


if __name__ == "__main__":
    main()
