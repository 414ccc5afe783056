"""Where one check's time goes on this machine's backend: the exercise's checks run in this process
as a worker runs them (its JAX settings, compile flags and compilation cache, then the harness),
with JAX's monitoring events summed: tracing, lowering, compiling, cache hits and misses.
Run it in fresh processes one after another with the same --cache-dir to see what a warm cache
saves on a re-check. Usage: recheck_profile.py ID [--cache-dir DIR] [--solution PATH]"""

import argparse
import collections
import time

from tutor.child import compile_flags
from tutor.child.worker import configure_jax_settings, start_backend
from tutor.course import load_course
from tutor.protocol import ExerciseJob


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("exercise")
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--solution", default=None)
    args = parser.parse_args()
    configure_jax_settings(args.cache_dir)
    compile_flags.probe()
    t = time.perf_counter()
    start_backend()
    import jax
    import jax.monitoring

    opened = time.perf_counter() - t
    durations: dict[str, float] = collections.defaultdict(float)
    counts: collections.Counter = collections.Counter()

    def on_duration(event, duration, **_):
        durations[event] += duration
        counts[event] += 1

    def on_event(event, **_):
        counts[event] += 1

    jax.monitoring.register_event_duration_secs_listener(on_duration)
    jax.monitoring.register_event_listener(on_event)
    from tutor.child import harness

    course = load_course()
    exercise = course.exercise(args.exercise)
    path = args.solution or str(course.solution_path(args.exercise))
    source = open(path).read()
    job = ExerciseJob(
        source=source,
        filename=path,
        checks=tuple(c.to_job(exercise.checks_file) for c in exercise.checks),
        checks_file=str(exercise.checks_file),
    )
    results = []
    t = time.perf_counter()
    harness.run_exercise(job, results.append)
    total = time.perf_counter() - t
    statuses = collections.Counter(getattr(r, "status", type(r).__name__) for r in results)
    print(f"backend {jax.default_backend()}  opened {opened:.2f} s  checks {total:.3f} s  {dict(statuses)}")
    for r in results:
        print(
            f"  {getattr(r, 'id', '?'):28} {getattr(r, 'status', '?'):8} {getattr(r, 'duration_s', 0) or 0:.3f} s  {str(getattr(r, 'message', r))[:300] if getattr(r, 'status', '') != 'pass' else ''}"
        )
    for event in sorted(set(durations) | set(counts)):
        print(f"  {event:60} n={counts[event]:4}  {durations.get(event, 0.0):.3f} s")


if __name__ == "__main__":
    main()
