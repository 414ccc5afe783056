"""CPU time of one exercise's checks on its reference solution, in this process, as a worker
computes them (BENCHMARKS.md, "Check time of the heaviest exercises in CPU seconds"):
`PYTHONPATH=<tree> python tools/cpu_check.py EXERCISE CACHE_DIR [--profile OUT]`; an empty
CACHE_DIR gives the first check, a second run on it the cached one. Prints one JSON line."""

from __future__ import annotations

import json
import os
import sys
import time


def main(argv: list[str]) -> None:
    exercise_id, cache_dir = argv[0], argv[1]
    profile_to = argv[3] if len(argv) > 3 and argv[2] == "--profile" else None

    import tutor
    from tutor.child import compile_flags

    compile_flags.probe()  # forks: before any thread, as the worker's fork server does
    from tutor.child import harness, warm_up
    from tutor.child.worker import configure_jax
    from tutor.course import load_course

    configure_jax(cache_dir)
    warm_up.run()  # a spare worker's wait
    course = load_course()
    exercise = course.exercise(exercise_id)
    path = course.solution_path(exercise.id)
    source = path.read_text(encoding="utf-8")
    profile = None
    if profile_to:
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    functions = harness.load_checks(str(exercise.checks_file))
    module = harness.load_learner(source, str(path))
    per_check = {}
    for check in exercise.checks:
        start = time.process_time()
        result = harness.run_check(check.to_job(exercise.checks_file), functions.get(check.id), module, str(path))
        per_check[check.id] = round(time.process_time() - start, 4)
        assert result.status == "pass", result
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    if profile is not None:
        profile.disable()
        profile.dump_stats(profile_to)
    line = {
        "tutor": tutor.__file__,
        "exercise": exercise_id,
        "cpu_s": round(cpu, 4),
        "wall_s": round(wall, 4),
        "per_check_cpu": per_check,
        "load": os.getloadavg()[0],
    }
    print(json.dumps(line))


if __name__ == "__main__":
    main(sys.argv[1:])
