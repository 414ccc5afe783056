"""What a check's run may see on this host, tried for real (issue 50): `check counter-jit` of a correct
program that, as it loads, reads another learner's progress, the course's solution and a red-team
case, a secret in the tutor's environment and its parent's /proc/PID/environ, and connects to a TCP
listener here. Prints one line per try and whether the listener heard anything; "HELD" when every
try was refused, nothing was heard, and the program still passed. Stdlib only.

    python3 tools/tpu/sight_probe.py [--accelerator]"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """import json, os, socket
seen = {{}}
def attempt(name, fn):
    try:
        seen[name] = "read: " + repr(fn())[:80]
    except OSError as exc:
        seen[name] = "refused: " + str(exc)[:80]
for name, path in {targets!r}.items():
    attempt(name, lambda: open(path, "rb").read())
attempt("environ", lambda: [v for v in os.environ.values() if "s3cret" in v] or "nothing")
attempt("parent-environ", lambda: open(f"/proc/{{os.getppid()}}/environ", "rb").read())
attempt("tcp", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=5).sendall(b"stolen"))
print("SEEN " + json.dumps(seen), flush=True)
def update_counter(count, increment):
    return count + 1, increment
"""


def main() -> None:
    work = Path(tempfile.mkdtemp())
    other = work / "other-home"
    other.mkdir()
    (other / "progress.json").write_text('{"exercises": {"counter-jit": {"status": "passed"}}}')
    targets = {
        "other-progress": str(other / "progress.json"),
        "solution": str(ROOT / "solutions" / "counter-jit.py"),
        "case": str(next((ROOT / "tests" / "cases" / "counter-jit").glob("pass_*.py"))),
    }
    try:
        listener: socket.socket | None = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
    except OSError as exc:  # a host with no network at all (the TPU VM's sandbox): nothing to reach
        print(f"  (no TCP listener can be made here: {exc}; the run's try reaches nothing either)")
        listener, port = None, 9
    program = work / "attack.py"
    program.write_text(PROGRAM.format(targets=targets, port=port))
    env = {**os.environ, "GITHUB_TOKEN": "ghp-s3cret", "JAXSTATE_TUTOR_HOME": str(work / "home")}
    argv = [sys.executable, "-m", "tutor", *sys.argv[1:], "check", "counter-jit", "--file", str(program), "--json"]
    done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
    try:
        heard = (listener.accept()[0].recv(100) or b"(a connection)") if listener else b""
    except OSError:
        heard = b""
    doc = json.loads(done.stdout)
    seen = json.loads(next(l for l in doc["stdout"].splitlines() if l.startswith("SEEN "))[5:])
    for name, what in seen.items():
        print(f"  {name}: {what}")
    held = doc["status"] == "pass" and not heard
    held = held and all(v.startswith("refused") or v == "read: 'nothing'" for v in seen.values())
    print(f"verdict {doc['status']}/{doc['kind']}, listener heard {heard!r}: {'HELD' if held else 'NOT HELD'}")


if __name__ == "__main__":
    main()
