"""Run a command and report, as one JSON line, how it ended and the most processes that were alive
on this host (or in this gVisor sandbox) meanwhile, above those alive before it started:
`python3 tools/tpu/fork_peak.py OUT.json -- COMMAND...`. The command's stdout goes to OUT.json;
when it is a verdict (`check --json`), its status, kind and duration_s (the run's own seconds,
what its time limit counts) are said too; `seconds` is the whole command's.

`left`: the command's processes still alive once it has returned (this tool is a child
subreaper, so every process the command started, in any session, is below it until it is reaped);
each is then killed, so the tool itself leaves nothing behind. Where there is no subreaper
(gVisor: PR_SET_CHILD_SUBREAPER is EINVAL there), `left` counts the live processes running the
tutor's code that were not there before the command started.

For measuring a fork bomb's peak against the tutor's bound from outside the tutor: /proc is listed
every 5 ms (a process is a numbered entry there, threads are not), so a peak shorter than that, or
a sampler starved of the CPU, reads low. Zombies are left out, except under gVisor, where reading
a process's state waits while it forks: there the peak counts the killed but not yet reaped too.
Stdlib only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

# gVisor's fixed version string: there a process's files wait while it forks, so only entries are counted
GVISOR = os.uname().version == "#1 SMP Sun Jan 10 15:06:54 PST 2016"


def _live(name: str) -> bool:
    try:
        with open(f"/proc/{name}/stat", "rb") as f:
            stat = f.read()
        return stat[stat.rindex(b")") + 2 : stat.rindex(b")") + 3] not in (b"Z", b"X")
    except (OSError, ValueError):
        return False


def alive() -> int:
    """Processes now: /proc's numbered entries; outside gVisor, zombies (killed, not yet reaped) left out."""
    names = [name for name in os.listdir("/proc") if name.isdigit()]
    return len(names) if GVISOR else sum(_live(name) for name in names)


def _subreaper() -> bool:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _below(root: int) -> list[int]:
    """Every live process below `root` (zombies left out: killed, only waiting to be reaped)."""
    parent: dict[int, int] = {}
    state: dict[int, bytes] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2 :].split()
            parent[int(name)], state[int(name)] = int(fields[1]), fields[0]
        except (OSError, ValueError, IndexError):
            continue
    found, todo = [], [root]
    while todo:
        here = todo.pop()
        for pid, ppid in parent.items():
            if ppid == here:
                todo.append(pid)
                if state[pid] not in (b"Z", b"X"):
                    found.append(pid)
    return found


def _tutors(name: str) -> bool:
    """Whether process `name` runs the tutor (a worker, or what it forked: the same command line)."""
    try:
        with open(f"/proc/{name}/cmdline", "rb") as f:
            return b"tutor" in f.read()
    except OSError:
        return False


def _new_since(before: set[int]) -> list[int]:
    """Live processes of the tutor's not in `before`, this one aside (nothing else on the host is
    counted, or killed)."""
    me = os.getpid()
    return [
        int(n)
        for n in os.listdir("/proc")
        if n.isdigit() and int(n) not in before and int(n) != me and _live(n) and _tutors(n)
    ]


def _reap() -> None:
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                return
        except ChildProcessError:
            return


def main(argv: list[str]) -> int:
    out_path, command = argv[0], argv[argv.index("--") + 1 :]
    adopts = _subreaper()
    before_pids = {int(n) for n in os.listdir("/proc") if n.isdigit()}
    before = alive()
    start = time.monotonic()
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(command, stdout=out)
        peak, peak_at = 0, 0.0
        while proc.poll() is None:
            now = alive() - before
            if now > peak:
                peak, peak_at = now, time.monotonic() - start
            time.sleep(0.005)
    seconds = time.monotonic() - start
    _reap()

    def rest() -> list[int]:
        return _below(os.getpid()) if adopts else _new_since(before_pids)

    left = len(rest())
    end = time.monotonic() + 60
    while (pids := rest()) and time.monotonic() < end:
        for pid in pids:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        time.sleep(0.05)
        _reap()
    try:
        with open(out_path, "rb") as f:
            verdict = json.load(f)
        status, kind, run_s = verdict.get("status"), verdict.get("kind"), verdict.get("duration_s")
    except (OSError, ValueError, AttributeError):
        status = kind = run_s = None
    print(
        json.dumps(
            {
                "status": status,
                "kind": kind,
                "rc": proc.returncode,
                "run_s": run_s,
                "seconds": round(seconds, 2),
                "peak_processes": peak,
                "peak_at_s": round(peak_at, 2),
                "left": left,
            }
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
