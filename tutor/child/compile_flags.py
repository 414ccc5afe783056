"""XLA flags that make the small programs of checks and cells compile faster, used only where
this process's XLA knows them: an unknown flag in XLA_FLAGS ends the process when its backend
starts (jaxlib 0.10 has the first flag below, 0.12 has not), so each is first tried in a forked
child of its own.

Why: a check compiles dozens of programs of a few operations each and runs most of them once.
- jaxlib 0.10's CPU fusion emitters (MLIR-based) take about twice as long as the older LLVM
  emitters to compile such a program (15 ms instead of 29 ms for one operation, 45 ms instead of
  95 ms for an Adam update; BENCHMARKS.md, "Compiling less, and faster"); what they win back at
  run time is a few microseconds per loop iteration.
- LLVM at -O0 compiles threefry and normal sampling three times faster (0.41 s to 0.13 s for a
  small MLP's init), and the programs of checks and cells run for microseconds. A long training
  loop is the exception: `run_training(..., long=True)` compiles it fully optimized
  (BENCHMARKS.md, "LLVM at -O0 for what runs once").

Never for `doctor`: it runs the learner's program as `python` would."""

from __future__ import annotations

import os
import time

FAST_COMPILE = ("--xla_cpu_use_fusion_emitters=false", "--xla_backend_optimization_level=0")
PROBE_TIMEOUT_S = 20.0  # a backend start that takes longer is a machine in trouble: no flags

_known: tuple[str, ...] | None = None


def probe() -> tuple[str, ...]:
    """The flags of FAST_COMPILE this XLA accepts, each tried once in a forked child that starts
    the CPU backend with it (all at once); kept, so processes forked from this one know them
    without a probe. Call while this process has one thread and no backend (fork copies only the
    calling thread)."""
    global _known
    if _known is None:
        children = [(flag, _start_with((flag,))) for flag in FAST_COMPILE]
        deadline = time.monotonic() + PROBE_TIMEOUT_S
        _known = tuple(flag for flag, pid in children if pid is not None and _exits_cleanly(pid, deadline))
    return _known


def known() -> tuple[str, ...]:
    """What probe() found, or nothing if no probe ran in this process or the one it was forked from."""
    return _known or ()


def xla_flags(learner_flags: str | None) -> str:
    """XLA_FLAGS for a judging worker: the accepted flags first, then the learner's own, which
    win where they name the same flag (XLA keeps the last value it reads)."""
    return " ".join(filter(None, [*known(), learner_flags or ""]))


def _start_with(flags: tuple[str, ...]) -> int | None:
    """A child that starts the CPU backend with these flags before the learner's, then exits 0;
    None when there is no process to spare (ulimit -u): judge without the flags, never fail for them."""
    try:
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)  # XLA's fatal "Unknown flag" line is the answer, not a message
            os.environ["XLA_FLAGS"] = " ".join([*flags, os.environ.get("XLA_FLAGS", "")])
            import jax

            jax.config.update("jax_platforms", "cpu")  # never start a GPU backend just to ask
            jax.devices()
        except BaseException:  # noqa: BLE001 - any failure means "not with these flags"
            os._exit(1)
        os._exit(0)
    return pid


def _exits_cleanly(pid: int, deadline: float) -> bool:
    """Whether the child exits 0 before the deadline (killed and reaped if not)."""
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status) == 0
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return False
        time.sleep(0.005)
