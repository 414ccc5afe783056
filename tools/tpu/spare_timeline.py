"""When the device spare of `--accelerator` is ready again after a check: the TUI's sandbox driven
directly (counter-jit's solution, checked again after pauses of 15, 12, 8 and 4 s), with the
sandbox's device steps timed: the last worker gone (the device free), each worker spawned, ready,
and each re-check split into waiting for the worker and the run. Usage: spare_timeline.py [--cpu]"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tutor.course import load_course
from tutor.sandbox import fork_client, orphans, runner, worker_process
from tutor.sandbox.runner import Sandbox

T0 = time.monotonic()
PAUSES = (None, 15, 12, 8, 4)


def say(what: str) -> None:
    print(f"{time.monotonic() - T0:7.2f}  {what}", flush=True)


def timed(cls, name, label):
    original = getattr(cls, name)

    def wrapper(self, *args, **kwargs):
        say(f"{label} ...")
        result = original(self, *args, **kwargs)
        say(f"{label} done")
        return result

    setattr(cls, name, wrapper)


def main() -> None:
    accelerator = "--cpu" not in sys.argv
    timed(worker_process.WorkerProcess, "remove_files", "worker removed (device free)")
    timed(worker_process.WorkerProcess, "wait_ready", "worker ready")
    timed(runner.Sandbox, "_open_device", "open device")
    # the parts of a spawn
    timed(runner.Sandbox, "_fork_server", "  fork server")
    timed(fork_client.ForkServer, "spawn", "  forked by the server")
    timed(subprocess.Popen, "__init__", "  Popen")
    timed(worker_process.WorkerProcess, "__init__", "  worker spawned")
    sweep = orphans.sweep

    def timed_sweep(*args):
        say("  orphans swept ...")
        sweep(*args)
        say("  orphans swept done")

    orphans.sweep = timed_sweep
    course = load_course()
    exercise = course.exercise("counter-jit")
    source = course.solution_path("counter-jit").read_text()
    sandbox = Sandbox(Path(tempfile.mkdtemp()), keep_spare=True, accelerator=accelerator)
    sandbox.warm_up()
    for pause in PAUSES:
        if pause:
            say(f"-- the learner reads for {pause} s")
            time.sleep(pause)
        t = time.monotonic()
        say("-- check")
        run = sandbox.run_exercise(exercise, source, "counter-jit.py")
        took = time.monotonic() - t
        verdict = run.result()
        total = time.monotonic() - t
        say(f"-- {getattr(verdict, 'status', verdict)}: worker taken in {took:.2f} s, verdict after {total:.2f} s")
    sandbox.close()


if __name__ == "__main__":
    main()
