"""Fault: code that goes looking for the learner's home (its ancestors' environment and command lines,
the folder above its own file) and forges a "passed" record there in every way it can: open(), an
atomic replace, a subprocess, ctypes; then a wrong answer. Prints what it found and what happened."""
import ctypes
import json
import os
import subprocess

FORGED = json.dumps({"schema": 1, "exercises": {"counter-jit": {"status": "passed", "attempts": 1}}})


def ancestors():
    pid = os.getppid()
    while pid > 1:
        yield pid
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                pid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except OSError:
            return


homes = {os.path.dirname(os.path.dirname(os.path.abspath(__file__)))}
if os.environ.get("FAULT_HOME"):  # the home's path, known (a default one is well known); /proc no longer tells it
    homes.add(os.environ["FAULT_HOME"])
for pid in ancestors():
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except OSError:
        continue
    if b"JAXSTATE_TUTOR_HOME" in env:
        homes.add(os.fsdecode(env[b"JAXSTATE_TUTOR_HOME"]))
    if b"--home" in argv:
        homes.add(os.fsdecode(argv[argv.index(b"--home") + 1]))
targets = [os.path.join(h, "progress.json") for h in homes if os.path.isfile(os.path.join(h, "progress.json"))]
print("found:", targets)


def attempt(how, fn):
    try:
        fn()
        print(how, "succeeded")
    except OSError as exc:
        print(how, "refused:", exc.strerror)


for target in targets:
    attempt("open", lambda: open(target, "w").write(FORGED))
    with open("forged.json", "w") as f:  # in the run folder: allowed
        f.write(FORGED)
    attempt("replace", lambda: os.replace("forged.json", target))
    rc = subprocess.run(["cp", "forged.json", target], capture_output=True).returncode
    print("subprocess", "succeeded" if rc == 0 else "refused")
    libc = ctypes.CDLL(None, use_errno=True)
    print("ctypes", "succeeded" if libc.unlink(target.encode()) == 0 else "refused")


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
