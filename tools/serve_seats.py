"""Learners per box under `serve`: the memory of N served seats, idle and with an exercise open, and
while K of them check at once.

    python tools/serve_seats.py [--seats 20] [--checking 2] [--worker-idle MIN] [--repo DIR] [--json]

One `jaxstate-tutor serve --learner s01 ... --learner sNN` on a fresh home, each seat's solution of
counter-jit already in its workspace; one tab per seat, its keys sent over the page's websocket as
textual.js sends them (the browsers are on the learners' machines: not measured). Phases, each
measured once the process tree has settled: every seat on its outline (idle); every seat with
counter-jit open (Ctrl+P, its name, Enter); K seats checking it at once (F5; the peak while they
run, until each pass is in progress.json); with --worker-idle, after that many minutes of no code.
Memory is PSS (/proc/PID/smaps_rollup): a page shared by processes is counted once in all, so the
shared libraries of N fork servers are split N ways. Per seat = the whole tree (server included) / N.
--repo runs another checkout's tutor (e.g. a worktree of an older commit) with this script. Linux.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_memory import tree  # the process tree, read from /proc, as P11 reads it

ROOT = Path(__file__).resolve().parents[1]
OPEN = ["\x10", "counter-jit", "\r"]  # Ctrl+P, the exercise's name, Enter
CHECK = "\x1b[15~"  # F5
SETTLE_S = 4.0
DEADLINE_S = 600.0


def pss_mb(pids: list[int], fields: tuple[str, ...] = ("Pss",)) -> float:
    """The sum of smaps_rollup's `fields` over `pids`, in MB (USS: Private_Clean + Private_Dirty)."""
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.split(":")[0] in fields:
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


USS = ("Private_Clean", "Private_Dirty")  # pages no other process maps: what a seat costs at the least


def jax_processes(pids: list[int]) -> int:
    count = 0
    for pid in pids:
        try:
            count += b"tutor.child" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            pass
    return count


def settled(root: int, want=lambda pids: True, deadline_s: float = DEADLINE_S) -> None:
    """Until the tree is unchanged for SETTLE_S and `want(tree)` holds."""
    last, since, end = None, time.monotonic(), time.monotonic() + deadline_s
    while time.monotonic() < end:
        now = sorted(tree(root))
        if now != last or not want(now):
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= SETTLE_S:
            return
        time.sleep(0.3)
    raise SystemExit(f"the process tree did not settle in {deadline_s:.0f} s")


def snapshot(server: int, seats: int) -> dict:
    pids = tree(server)
    total = pss_mb(pids)
    return {
        "total_pss_mb": round(total, 1),
        "server_pss_mb": round(pss_mb([server]), 1),
        "per_seat_pss_mb": round(total / seats, 1),
        # PSS splits a shared library's pages among every process on the box that maps it (other
        # JAX programs too): USS per seat is the floor, whatever else runs.
        "per_seat_uss_mb": round(pss_mb(pids, USS) / seats, 1),
        "jax_processes": jax_processes(pids),
        "loadavg": Path("/proc/loadavg").read_text().split()[:3],
    }


def passed(home: Path) -> bool:
    try:
        data = json.loads((home / "progress.json").read_text())
    except (OSError, ValueError):
        return False
    return data.get("exercises", {}).get("counter-jit", {}).get("status") == "passed"


async def drive(urls: dict[str, str], homes: dict[str, Path], server: int, args, out: dict) -> dict:
    """The phases, each one's figures put in `out` as it ends (kept if a later one fails)."""
    import aiohttp

    n = len(urls)
    async with aiohttp.ClientSession() as client:
        tabs, seen = {}, {name: b"" for name in urls}
        for name, url in urls.items():
            base, token = url.split("/?token=")
            tabs[name] = await client.ws_connect(f"{base.replace('http', 'ws', 1)}/ws/{token}?width=100&height=30")

        drawn: set[str] = set()

        async def read(name: str) -> None:
            # Cheap per frame: a reader that falls behind misses the server's heartbeat, and the
            # server then ends the tab (and its tutor).
            async for message in tabs[name]:
                if message.type == aiohttp.WSMsgType.BINARY:
                    seen[name] = seen[name][-16:] + message.data
                    if b"Continue:" in seen[name]:
                        drawn.add(name)
            out.setdefault("tabs_closed", []).append(name)

        readers = [asyncio.ensure_future(read(name)) for name in urls]

        async def until(test, label: str) -> None:
            end = time.monotonic() + DEADLINE_S
            while not test():
                if time.monotonic() > end:
                    raise SystemExit(f"{label}: not within {DEADLINE_S:.0f} s")
                await asyncio.sleep(0.3)

        await until(lambda: len(drawn) == n, "every outline drawn")
        await asyncio.to_thread(settled, server)
        out["idle_outline"] = snapshot(server, n)

        for name in urls:
            for key in OPEN:
                await tabs[name].send_str(json.dumps(["stdin", key]))
                await asyncio.sleep(0.5)
        if args.worker_idle is not None and args.worker_idle < 2:
            # A short idle time: only what is left once it has passed (the processes come and go).
            await asyncio.sleep(30)
            await asyncio.to_thread(settled, server, lambda pids: jax_processes(pids) == 0)
            out["after_worker_idle"] = snapshot(server, n)
            for ws in tabs.values():
                await ws.close()
            return out
        # Each seat's exercise makes a fork server and a spare ready (two processes or more each).
        await asyncio.to_thread(settled, server, lambda pids: jax_processes(pids) >= 2 * n)
        out["exercise_open"] = snapshot(server, n)

        checking = list(urls)[: args.checking]
        start, peak = time.monotonic(), 0.0
        for name in checking:
            await tabs[name].send_str(json.dumps(["stdin", CHECK]))
        while not all(passed(homes[name]) for name in checking):
            peak = max(peak, pss_mb(tree(server)))
            if time.monotonic() - start > DEADLINE_S:
                raise SystemExit("the checks did not pass in time")
            await asyncio.sleep(0.2)
        out["checking"] = {
            "seats_checking": len(checking),
            "all_passed_s": round(time.monotonic() - start, 1),
            "peak_total_pss_mb": round(peak, 1),
            "peak_per_seat_pss_mb": round(peak / n, 1),
            "loadavg": Path("/proc/loadavg").read_text().split()[:3],
        }
        for ws in tabs.values():
            await ws.close()
        for reader in readers:
            reader.cancel()
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seats", type=int, default=20)
    p.add_argument("--checking", type=int, default=2)
    p.add_argument(
        "--worker-idle",
        type=float,
        default=None,
        metavar="MIN",
        help="pass it to serve; under 2: measure after it instead",
    )
    p.add_argument("--repo", type=Path, default=ROOT, help="the checkout whose tutor is served (default: this one)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    repo = args.repo.resolve()
    home = Path(tempfile.mkdtemp(prefix="seats-")) / "home"
    names = [f"s{i:02d}" for i in range(1, args.seats + 1)]
    homes = {name: home / "learners" / name for name in names}
    for seat in homes.values():
        (seat / "workspace").mkdir(parents=True)
        shutil.copy(repo / "solutions" / "counter-jit.py", seat / "workspace" / "counter-jit.py")
    env = dict(os.environ, PYTHONPATH=str(repo), TERM="xterm-256color")
    env.setdefault("LANG", "C.UTF-8")
    words = [sys.executable, "-m", "tutor", "--home", str(home), "--lang", "en", "serve", "--port", "0"]
    words += [w for name in names for w in ("--learner", name)]
    if args.worker_idle is not None:
        words += ["--worker-idle", str(args.worker_idle)]
    server = subprocess.Popen(words, stdout=subprocess.PIPE, text=True, env=env, cwd=repo)
    assert server.stdout is not None
    urls: dict[str, str] = {}
    for line in server.stdout:
        name, sep, url = line.strip().partition(": http://")
        if sep:
            urls[name] = "http://" + url
        if "Ctrl+C" in line:
            break
    # Read on (and drop): a server whose stdout pipe fills up stalls, and its tabs with it.
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()  # type: ignore[union-attr]
    git = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    result: dict = {"commit": git.stdout.strip(), "seats": args.seats}
    try:
        asyncio.run(drive(urls, homes, server.pid, args, result))
    except SystemExit as exc:
        result["error"] = str(exc)  # what was measured before stays
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(120)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(home.parent, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{result['commit']}: {args.seats} seats")
        for phase, figures in result.items():
            if isinstance(figures, dict):
                print(f"  {phase}: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
