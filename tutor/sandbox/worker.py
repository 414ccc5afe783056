"""The worker process: import JAX once, report ready, then run exactly one job and exit.

Started by tutor.sandbox.runner as `python -m tutor.sandbox.worker --event-fd N`.
The parent keeps one such worker waiting ("warm spare") so a check does not pay for
Python start-up and the JAX import.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def _configure_jax(cache_dir: str | None) -> None:
    import jax

    if cache_dir:
        # Cache every compiled program: exercise programs are small but compile often.
        jax.config.update("jax_compilation_cache_dir", cache_dir)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    # Full tracebacks: with JAX's filtering, an error JAX raises about the learner's values
    # (e.g. an unhashable static argument) would look as if the check's own code raised it.
    # What the learner sees is cut to their own frames anyway (harness.learner_traceback).
    jax.config.update("jax_traceback_filtering", "off")
    jax.devices()  # initialise the backend now, not during the learner's first call
    jax.jit(lambda x: x + 1)(1.0).block_until_ready()


def _report_broken(exc: BaseException, harness) -> None:
    """The harness itself failed (learner code broke it, or a tutor bug): say so on the event pipe."""
    from tutor.sandbox import channel

    try:
        harness.restore_environment()
        if harness.is_out_of_memory(exc):
            abort = harness._abort_for(exc)
            channel.emit({"type": "error", "kind": abort.kind, "message": {"en": abort.en, "zh": abort.zh}})
            return
        import traceback

        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-4000:]
        channel.emit({"type": "error", "kind": "internal", "message": {
            "en": f"the tutor could not finish judging this program:\n{text}",
            "zh": f"导师无法完成对这个程序的评判:\n{text}"}})
    except BaseException:  # noqa: BLE001 - out of memory even for this; the exit status still tells
        pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--event-fd", type=int, required=True)
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args(argv)
    del sys.argv[1:]  # learner code has no business with the tutor's paths (the cache lives in its home)

    from tutor.sandbox import channel

    channel.open_channel(args.event_fd)
    _configure_jax(args.cache_dir)
    from tutor.checks import harness  # imports the check library (and JAX) before the job

    channel.emit({"type": "ready", "pid": os.getpid()})
    line = sys.stdin.readline()
    if not line.strip():
        os._exit(0)  # the parent went away or shut the spare down
    job = json.loads(line)
    if job.get("cwd"):
        os.chdir(job["cwd"])
    channel.emit({"type": "started"})
    try:
        if job["type"] == "exercise":
            harness.run_exercise(job)
        else:
            harness.run_cell(job)
        channel.flush_metrics()
    except BaseException as exc:  # noqa: BLE001 - a run that broke the harness is an error, never "done"
        _report_broken(exc, harness)
        os._exit(1)
    harness.flush_std_streams()  # the learner may have closed fds 1/2 or replaced sys.stdout
    channel.emit({"type": "done"})
    os._exit(0)  # skip interpreter teardown: JAX's atexit hooks only cost time here


if __name__ == "__main__":
    main()
