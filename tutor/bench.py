"""Benchmarks of the edit -> check -> verdict loop, as ratios measured side by side in one run.

    python -m tutor.bench            a readable table
    python -m tutor.bench --json     one JSON object (seconds / MB)

Figures (medians of repeated runs):
  small_cold_s       counter-jit verdict latency, spawning a fresh worker (Python + JAX import)
  small_warm_s       the same through a warm spare worker that is already waiting
  small_inprocess_s  the same checks computed in this process, with no worker at all
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

SMALL = "counter-jit"


def _median(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def small_latencies(course, repeat: int = 5) -> dict[str, float]:
    from tutor.sandbox.runner import Sandbox

    exercise = course.exercise(SMALL)
    path = course.solution_path(SMALL)
    source = path.read_text(encoding="utf-8")
    home = Path(tempfile.mkdtemp(prefix="jaxstate-bench-"))

    def timed(box) -> float:
        start = time.perf_counter()
        verdict = box.run_exercise(exercise, source, str(path)).result()
        assert verdict.passed, verdict.message
        return time.perf_counter() - start

    cold_box = Sandbox(home)
    timed(cold_box)  # fills the compilation cache, so cold vs warm differ only in start-up
    cold = _median(lambda: timed(cold_box), repeat)

    warm_box = Sandbox(home, keep_spare=True)

    def warm_once() -> float:
        warm_box.warm_up()
        warm_box.wait_ready()
        return timed(warm_box)

    try:
        warm = _median(warm_once, repeat)
    finally:
        warm_box.close()
    inprocess = _median(lambda: _inprocess(exercise, source, str(path), home), repeat)
    return {"small_cold_s": cold, "small_warm_s": warm, "small_inprocess_s": inprocess}


def _inprocess(exercise, source: str, filename: str, home: Path) -> float:
    """The checks' own compute: load the learner module and run every check right here."""
    import jax

    from tutor.checks import harness

    jax.config.update("jax_compilation_cache_dir", str(home / "cache" / "jax"))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    start = time.perf_counter()
    module = harness.load_learner(source, filename)
    for check in exercise.checks:
        result = harness.run_check(check.to_job(), module, filename)
        assert result["status"] == "pass", result
    return time.perf_counter() - start


def run(repeat: int = 5) -> dict:
    from tutor.course import load_course

    course = load_course()
    figures = small_latencies(course, repeat)
    figures["repeat"] = repeat
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor.bench")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    figures = run(args.repeat)
    if args.json:
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in figures.items()}))
        return 0
    for key, value in figures.items():
        print(f"{key:<22} {value:.4f}" if isinstance(value, float) else f"{key:<22} {value}")
    if figures.get("small_warm_s"):
        print(f"{'cold / warm':<22} {figures['small_cold_s'] / figures['small_warm_s']:.1f}x")
        print(f"{'warm - in-process':<22} {1000 * (figures['small_warm_s'] - figures['small_inprocess_s']):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
