"""The worker process: import JAX once, report ready, then run exactly one job and exit.

Started by tutor.sandbox.worker_process as `python -m tutor.child.worker --event-fd N`.
The parent keeps one such worker waiting ("warm spare") so a check does not pay for
Python start-up and the JAX import.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import replace

from tutor.child import compile_flags, seccomp_policy, sight
from tutor.i18n import Bilingual
from tutor.protocol import (
    PROTOCOL_VERSION,
    DoctorJob,
    Done,
    ExerciseJob,
    Hello,
    Job,
    Ready,
    RunError,
    Started,
    parse_job,
)


def configure_jax(cache_dir: str | None) -> None:
    """Set JAX's configuration, then start its backend."""
    configure_jax_settings(cache_dir)
    start_backend()


def start_backend() -> None:
    """Start JAX's backend with the compile flags this XLA accepted (configuration already set)."""
    flags = compile_flags.xla_flags(os.environ.get("XLA_FLAGS"))
    if flags:
        os.environ["XLA_FLAGS"] = flags  # read once, as the backend starts below
    import jax

    jax.devices()  # initialise the backend now, not during the learner's first call
    jax.jit(lambda x: x + 1)(1.0).block_until_ready()


def _warm_up_while_waiting(run_dir: str | None) -> None:
    """A spare worker waits for its job: it spends the wait on what a check's first jit, grad, vmap
    or scan would pay in this process (tutor.child.warm_up), then on the calls the previous run
    compiled (tutor.child.rehearsal). A worker whose job is already in the pipe (a fresh fork for a
    run, verify, grade) goes straight to it. Either way, JAX's calls that compile are noted from here."""
    import select

    from tutor.child import rehearsal

    waiting = lambda: bool(select.select([sys.stdin], [], [], 0)[0])  # noqa: E731
    if not waiting():
        from tutor.child import warm_up

        try:
            warm_up.run()
        except Exception:  # noqa: BLE001 - only a speed-up: a backend that refuses one of them still judges
            pass
    if run_dir is not None:
        rehearsal.rehearse_file(run_dir, waiting)  # the file goes either way: it is not the run's
    rehearsal.note()


def _compiled(doctor: bool) -> tuple[str, ...]:
    """What the run compiled of JAX's own calls, for the next spare (none from a doctor run)."""
    from tutor.child import rehearsal

    return () if doctor else rehearsal.noted()


def configure_jax_settings(cache_dir: str | None) -> None:
    """JAX's configuration for judging, with no backend started (the fork server calls it before
    importing the harness, which keeps these values to restore whatever learner code changes)."""
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
    # JAX_DISABLE_JIT=1 left in the shell from the learner's own debugging: the checks count
    # compilations and need jit (the harness puts it back, as for a file that sets it).
    jax.config.update("jax_disable_jit", False)


def _course_dirs(job) -> list[str]:
    """The course files a run reads: the course's lessons/, and the exercise's folder (its checks)."""
    from tutor.settings import course_of  # the course its parent told it (worker_env)

    dirs = [str(course_of() / "lessons")]
    if isinstance(job, ExerciseJob) and job.checks_file:
        dirs.append(os.path.dirname(job.checks_file))
    return dirs


def _report_broken(exc: BaseException, harness, send) -> None:
    """The harness itself failed (learner code broke it, or a tutor bug): say so on the event pipe."""
    try:
        harness.restore_environment()
        if harness.is_out_of_memory(exc):
            send(harness._abort_for(exc).event())
            return
        import traceback

        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-4000:]
        send(
            RunError(
                "internal",
                Bilingual(
                    en="the tutor itself failed while judging this program; the checks found no fault in your code. "
                    "If your file does not replace parts of JAX, NumPy or the tutor, please report this "
                    f"with the text below:\n{text}",
                    zh="检查程序在评判这个程序时自身出错，检查并未在你的代码中发现问题。如果你的文件没有替换 JAX、NumPy "
                    f"或本教程的部分内容，请连同下面的文字一起报告这个问题：\n{text}",
                ),
            )
        )
    except BaseException:  # noqa: BLE001 - out of memory even for this; the exit status still tells
        pass


def _startup_failed(exc: BaseException) -> None:
    """The worker broke before any learner code ran: a fault of the tutor or its setting, never of
    the learner's program. Say what broke on the event pipe (the parent adds what to do)."""
    import traceback

    from tutor.child import channel

    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:]
    print(text, file=sys.stderr, flush=True)  # the whole traceback, shown with the verdict
    channel.send(RunError("startup", Bilingual.same(text)))


def main(argv: list[str] | None = None) -> None:
    """A worker's life: say hello, get ready (warm, for a spare), take one job, fence it, run it, end."""
    args = _arguments(argv)
    del sys.argv[1:]  # learner code has no business with the tutor's paths

    # SIGINT means "stop and report" to a doctor job only (which turns it back on); before a job,
    # or in learner code, a stray one must not break the worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from tutor.child import channel

    channel.open_channel(args.event_fd)
    channel.send(Hello(PROTOCOL_VERSION))  # first, before anything can fail: the parent checks it
    _get_ready(args)
    channel.send(Ready(os.getpid()))
    # The run's sender, sealed with its secret: held in this frame and handed down as an argument,
    # never kept where a module attribute reaches it.
    job, send = _take_job(args)
    _fence(job, args)
    send(Started())
    _run(job, args, send)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--event-fd", type=int, required=True)
    parser.add_argument("--cache-dir", default=None)
    parser.add_argument("--parent", type=int, default=None)  # the tutor's pid: die with it
    parser.add_argument("--run-dir", default=None)  # removed if the tutor dies first
    # doctor: JAX imported but no backend made (the script's XLA_FLAGS / jax_num_cpu_devices must
    # still count), and the learner's stdin on this descriptor
    parser.add_argument("--doctor", action="store_true")
    parser.add_argument("--stdin-fd", type=int, default=None)
    return parser.parse_args(argv)


def _get_ready(args: argparse.Namespace) -> None:
    """Everything before "ready": JAX and its backend (a doctor's worker makes none), the lifeline,
    the harness and the fence imported, then a spare warmed and confined. Whatever breaks is said
    on the event pipe as the worker's own failure, and the worker ends."""
    try:
        if not args.doctor:
            # JAX imported (no backend, no thread), then the compile flags tried in a forked
            # child: before the lifeline's thread. A forked worker has the server's answer.
            configure_jax_settings(args.cache_dir)
            compile_flags.probe()
    except BaseException as exc:  # noqa: BLE001 - whatever broke, the parent must hear it was us
        _startup_failed(exc)
        os._exit(1)
    from tutor.child import lifeline

    if args.parent is not None:
        lifeline.start(args.parent, args.run_dir)
    try:
        if not args.doctor:
            start_backend()
        from tutor.child import (  # noqa: F401 - imported before the job, used by _fence and _run
            fence,  # before the job too: importing it then cost 5-8 ms of the verdict
            harness,  # imports the check library (and JAX) before the job
        )

        if args.doctor:
            import tutor.child.doctor.probe  # noqa: F401 - the probe's imports, before the job (no backend)
        else:
            sight.base()  # what every run may read of Python and the system, before the job (a forked one has it)
    except BaseException as exc:  # noqa: BLE001 - whatever broke, the parent must hear it was us
        _startup_failed(exc)
        os._exit(1)

    if not args.doctor:
        _warm_up_while_waiting(args.run_dir)  # before "ready": a spare that says it is ready is warm
        # Every job of this worker is fenced (tutor.child.fence): the confinement filter, which does
        # not depend on the run, is set now rather than after the job is read.
        seccomp_policy.confine()


def _take_job(args: argparse.Namespace) -> tuple[Job, Callable[[object], None]]:
    """The one job, read from stdin, and the sender sealed with its secret; the secret leaves the
    job, and the line it came in goes with this frame. No job (the parent went away): the end."""
    from tutor.child import channel, lifeline

    line = sys.stdin.readline()
    if not line.strip():
        if args.parent is not None:
            lifeline.abandoned()  # the parent went away: the run folder is ours to remove
        os._exit(0)
    job = parse_job(json.loads(line))
    send = channel.sealed(job.seal)
    job = replace(job, seal="")
    del line
    if args.parent is not None:
        lifeline.hide_stdin()
    if args.stdin_fd is not None:
        os.dup2(args.stdin_fd, 0)  # the doctor's script reads what `python script.py` would
        os.close(args.stdin_fd)
    return job, send


def _fence(job: Job, args: argparse.Namespace) -> None:
    """What the run may touch, and its deadline, set before any of its code runs."""
    from tutor.child import fence, lifeline

    if not isinstance(job, DoctorJob):  # a check may change its run folder, read what it needs (tutor.child.fence)
        run_dir = args.run_dir or os.getcwd()
        fence.install([run_dir, args.cache_dir], sight=sight.for_run(run_dir, args.cache_dir, _course_dirs(job)))
    else:  # the learner's own script writes where it likes, but signals only what it started
        fence.install_signal_guard()
    if job.deadline_s:
        lifeline.arm_deadline(job.deadline_s)  # even if the parent is stopped or learner code blocks in C


def _run(job: Job, args: argparse.Namespace, send: Callable[[object], None]) -> None:
    """Run the job, then say done (or what broke the harness) and end the process."""
    from tutor.child import channel, harness

    try:
        if not isinstance(job, DoctorJob) and args.doctor:
            configure_jax(args.cache_dir)  # never sent to a doctor worker; judged as in any worker
        if isinstance(job, ExerciseJob):
            harness.run_exercise(job, send)
        elif isinstance(job, DoctorJob):
            from tutor.child import doctor_job

            doctor_job.run(job, send)
        else:
            harness.run_cell(job, send)
        channel.flush_metrics()
    except BaseException as exc:  # noqa: BLE001 - a run that broke the harness is an error, never "done"
        _report_broken(exc, harness, send)
        os._exit(1)
    harness.flush_std_streams()  # the learner may have closed fds 1/2 or replaced sys.stdout
    send(Done(compiled=_compiled(args.doctor)))
    os._exit(0)  # skip interpreter teardown: JAX's atexit hooks only cost time here


if __name__ == "__main__":
    main()
