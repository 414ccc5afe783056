"""P11: what one served session costs in memory, against the terminal UI alone.

    python tools/serve_memory.py [--json]

Both runs do the same: open the exercise counter-jit through the palette (its solution already
in the workspace), check it (F5), wait for the pass in progress.json, then for the process tree to
settle (the spare worker made again). The terminal UI runs in a pseudo-terminal; the served tutor
runs under `jaxstate-tutor serve`, its keys sent over the page's websocket as textual.js sends
them (no browser needed: the browser is not on the server). Memory is the sum over the tree of
RSS (what the issue measured) and of PSS (pages shared between the fork server and its workers
counted once), read from /proc: Linux only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pty
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEYS = ["\x10", "counter-jit", "\r", "\x1b[15~"]  # Ctrl+P, the exercise's name, Enter, F5
SETTLE_S = 3.0  # the tree unchanged this long counts as settled
DEADLINE_S = 300.0


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            kids.setdefault(ppid, []).append(int(entry))
    return kids


def tree(pid: int) -> list[int]:
    kids, out, todo = _children(), [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def _kib(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _name(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        return " ".join(w.decode(errors="replace") for w in cmd[:4] if w)[:80]
    except OSError:
        return "?"


def measure(pid: int) -> dict:
    pids = tree(pid)
    rows = [{"pid": p, "cmd": _name(p), "rss_mb": _kib(p, "Rss") / 1024, "pss_mb": _kib(p, "Pss") / 1024} for p in pids]
    return {
        "processes": rows,
        "rss_mb": round(sum(r["rss_mb"] for r in rows), 1),
        "pss_mb": round(sum(r["pss_mb"] for r in rows), 1),
    }


def _passed(home: Path) -> bool:
    try:
        data = json.loads((home / "progress.json").read_text())
    except (OSError, ValueError):
        return False
    return data.get("exercises", {}).get("counter-jit", {}).get("status") == "passed"


def _settled(pid: int) -> None:
    last, since = None, time.monotonic()
    while time.monotonic() - since < SETTLE_S:
        now = sorted(tree(pid))
        if now != last:
            last, since = now, time.monotonic()
        time.sleep(0.2)


def _home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="p11-")) / "home"
    (home / "workspace").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "counter-jit.py", home / "workspace" / "counter-jit.py")
    return home


def _env(home: Path) -> dict:
    env = dict(os.environ, JAXSTATE_TUTOR_HOME=str(home), PYTHONPATH=str(ROOT), TERM="xterm-256color")
    env.setdefault("LANG", "C.UTF-8")
    return env


def _wait_pass(home: Path, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not _passed(home):
        if time.monotonic() > deadline:
            raise SystemExit(f"{what}: counter-jit did not pass within {DEADLINE_S} s")
        time.sleep(0.2)


def terminal_ui() -> dict:
    home = _home()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-m", "tutor", "--lang", "en"], _env(home))
    try:
        os.set_blocking(fd, False)

        def drain() -> None:
            try:
                while os.read(fd, 65536):
                    pass
            except OSError:
                pass

        time.sleep(3)  # the outline's first screen (the TUI reads keys from the start; this is for the eye)
        for key in KEYS:
            drain()
            os.write(fd, key.encode())
            time.sleep(1.0)
        deadline = time.monotonic() + DEADLINE_S
        while not _passed(home) and time.monotonic() < deadline:
            drain()
            time.sleep(0.2)
        _wait_pass(home, "the terminal UI")
        _settled(pid)
        return measure(pid)
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)


async def _browser_keys(url: str) -> None:
    import aiohttp

    base, token = url.split("/?token=")
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"{base.replace('http', 'ws', 1)}/ws/{token}?width=80&height=24") as ws:

            async def read() -> None:
                async for _ in ws:
                    pass

            reader = asyncio.ensure_future(read())
            await asyncio.sleep(3)
            for key in KEYS:
                await ws.send_str(json.dumps(["stdin", key]))
                await asyncio.sleep(1.0)
            while not reader.done():
                await asyncio.sleep(0.5)
                if Path(os.environ["P11_DONE"]).exists():
                    break
            await ws.close()


def served() -> dict:
    home = _home()
    server = subprocess.Popen(
        [sys.executable, "-m", "tutor", "--lang", "en", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(home),
    )
    assert server.stdout is not None
    url = ""
    for line in server.stdout:
        if "http://" in line:
            url = line.split(": ", 1)[1].strip()
            break
    done = home.parent / "done"
    os.environ["P11_DONE"] = str(done)
    loop = asyncio.new_event_loop()
    try:
        task = loop.create_task(_browser_keys(url))
        deadline = time.monotonic() + DEADLINE_S
        while not _passed(home) and time.monotonic() < deadline:
            loop.run_until_complete(asyncio.sleep(0.2))
        _wait_pass(home, "the served tutor")
        loop.run_until_complete(asyncio.to_thread(_settled, server.pid))
        figures = measure(server.pid)
        done.touch()
        loop.run_until_complete(task)
        return figures
    finally:
        loop.close()
        server.send_signal(signal.SIGINT)
        server.wait(60)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    tui = terminal_ui()
    web = served()
    out = {"tui": tui, "served": web, "served_minus_tui_rss_mb": round(web["rss_mb"] - tui["rss_mb"], 1)}
    out["served_minus_tui_pss_mb"] = round(web["pss_mb"] - tui["pss_mb"], 1)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for name, figures in (("terminal UI", tui), ("served", web)):
            print(f"{name}: RSS {figures['rss_mb']:.0f} MB, PSS {figures['pss_mb']:.0f} MB")
            for row in figures["processes"]:
                print(f"  {row['pid']:>7} RSS {row['rss_mb']:6.1f} PSS {row['pss_mb']:6.1f}  {row['cmd']}")
        print(f"served - terminal UI: RSS {out['served_minus_tui_rss_mb']} MB, PSS {out['served_minus_tui_pss_mb']} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
