"""Fault injection: learner programs that hang, crash, flood, escape or tamper, run for real.

Every program in tests/faults/ is run twice, through the Sandbox (the session fixture of
conftest.py) and through the real CLI (`python -m tutor check counter-jit --file F --json`).
For each one the verdict must be the named outcome (status and kind) with a message in both
languages, never "pass"; it must come back within its timeout plus a margin; no process of
the run may survive it; and the Sandbox must still judge a correct solution right after.

The exercise is the real counter-jit, copied alone into a temporary course (the CLI is
pointed at it with JAXSTATE_TUTOR_COURSE), so other exercises being edited cannot break
this suite. The cases run in a few threads at once (most of the time is spent waiting for timeouts or
for workers to import JAX), once per module; each test below then asserts on one case.

Out of scope, and so not tested: processes that leave the worker's process group (setsid,
setpgid) and deliberate forgery through the event pipe or the learner's home. Learner code
runs in the worker process as the same user; isolating that needs OS sandboxing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import traceback
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT, cli_env, run_source
from tutor.course import load_course

FAULTS = Path(__file__).resolve().parent / "faults"
EXERCISE = "counter-jit"
CORRECT = Path(__file__).resolve().parent / "cases" / EXERCISE / "pass_tuple_literal.py"
HANG_S = 5.0  # timeout for the programs that never finish
QUICK_S = 30.0  # timeout for the others: they end on their own, long before this
MARGIN_S = 10.0  # verdict within timeout + this (generous: the machine is shared)
CLI_MARGIN_S = 20.0  # the CLI also starts Python, and a worker that imports JAX
GONE_WITHIN_S = 3.0  # every process of a run must be gone this soon after the verdict


@dataclass(frozen=True)
class Fault:
    name: str  # tests/faults/<name>.py
    status: str
    kind: str
    timeout: float = QUICK_S
    failing: str | None = None  # for status "fail": a check that must be the one failing
    heavy: bool = False  # may use gigabytes of memory: never run two of these at once

    @property
    def path(self) -> Path:
        return FAULTS / f"{self.name}.py"

    @property
    def marker(self) -> str:
        """argv[0] of the processes the program starts, so leftovers can be found by name."""
        return "faultmark-" + self.name.replace("_", "-")


CASES = [
    Fault("loop_python", "timeout", "timeout", HANG_S),
    Fault("loop_xla", "timeout", "timeout", HANG_S),
    Fault("sleep_forever", "timeout", "timeout", HANG_S),
    # 4 GiB of memory really touched: tens of seconds on a slow, shared machine
    Fault("mem_list", "error", "oom", 60.0, heavy=True),
    Fault("mem_numpy", "error", "oom", heavy=True),
    Fault("mem_jnp", "error", "oom", heavy=True),
    Fault("recursion", "fail", "checks", failing="returns-pair"),  # RecursionError, reported with the learner's traceback
    # Python 3.11 overflows the C stack (SIGSEGV); 3.12 guards C recursion and raises RecursionError.
    Fault("recursion_c_stack", *(("error", "signal") if sys.version_info < (3, 12) else ("fail", "checks"))),
    Fault("segfault", "error", "signal"),
    Fault("os_exit", "error", "exit"),
    Fault("sys_exit", "error", "exit"),
    Fault("keyboard_interrupt", "error", "interrupt"),
    Fault("base_exception", "error", "base-exception"),
    Fault("close_std_fds", "fail", "checks", failing="counts-up"),
    Fault("close_all_fds", "error", "exit"),  # the event pipe is gone: exit status CHANNEL_LOST
    Fault("flood", "error", "output-limit"),
    Fault("event_pipe_garbage", "error", "protocol"),  # the parent stops reading, its memory stays bounded
    Fault("binary_stdout", "fail", "checks", failing="counts-up"),
    Fault("fake_verdict", "fail", "checks", failing="counts-up"),
    Fault("many_children", "fail", "checks", failing="counts-up"),
    Fault("child_left_running", "fail", "checks", failing="counts-up"),
    Fault("patch_jax_jit", "fail", "checks", failing="jit-once"),
    Fault("patch_builtins", "fail", "checks", failing="returns-pair"),
    Fault("progress_write", "fail", "checks", failing="counts-up"),
    Fault("read_stdin", "fail", "checks", failing="returns-pair"),  # stdin is closed: EOFError, not a hang
]
BY_NAME = {f.name: f for f in CASES}


def test_every_fault_program_is_in_the_table():
    assert sorted(p.stem for p in FAULTS.glob("*.py")) == sorted(BY_NAME)


# ------------------------------------------------------------------ finding leftovers

def _processes():
    """(pid, pgid, cmdline, environ) of every live (non-zombie) process we can read."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2:].split()
            if fields[0] in (b"Z", b"X"):
                continue  # dead, only waiting to be reaped
            pgid = int(fields[2])
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                cmdline = f.read()
            try:
                with open(f"/proc/{entry.name}/environ", "rb") as f:
                    environ = f.read()
            except OSError:
                environ = b""
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or not ours to read
        yield int(entry.name), pgid, cmdline, environ


def survivors(pgid: int | None = None, marker: str | None = None, tag: str | None = None,
              within: float = GONE_WITHIN_S) -> list[str]:
    """Processes of a run still alive after `within` seconds: same process group as the worker,
    a marker in the command line, or a tag in the environment."""
    deadline = time.monotonic() + within
    while True:
        found = []
        for pid, group, cmdline, environ in _processes():
            if pid == os.getpid():
                continue
            if ((pgid is not None and group == pgid)
                    or (marker and marker.encode() in cmdline)
                    or (tag and tag.encode() in environ)):
                shown = cmdline.replace(b"\0", b" ").decode(errors="replace")[:120]
                found.append(f"{pid} (pgid {group}): {shown}")
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.1)


def test_leftover_detector_sees_live_processes():
    """The leftover checks below would pass vacuously if this detector went blind."""
    tag = uuid.uuid4().hex
    child = subprocess.Popen(["faultmark-selftest", "1000"], executable="sleep", start_new_session=True,
                             env={**os.environ, "FAULT_RUN_TAG": tag})
    try:
        for how in ({"pgid": child.pid}, {"marker": "faultmark-selftest"}, {"tag": f"FAULT_RUN_TAG={tag}"}):
            assert len(survivors(within=0, **how)) == 1, how
    finally:
        child.kill()
        child.wait()
    assert survivors(marker="faultmark-selftest", within=GONE_WITHIN_S) == []


# ------------------------------------------------------------------ running every case once

@dataclass
class Outcome:
    seconds: float = 0.0
    verdict: object = None  # Verdict (sandbox) or the parsed JSON (CLI)
    left: list | None = None
    after: object = None  # sandbox: the verdict of a correct solution right after
    home: Path | None = None  # CLI: the learner's home it used
    returncode: int | None = None
    raw: str = ""
    crash: str = ""  # the test machinery itself failed


@pytest.fixture(scope="module")
def mini_course(tmp_path_factory):
    """The real counter-jit exercise alone, so other exercises being edited cannot break this suite."""
    root = tmp_path_factory.mktemp("course")
    (root / "lessons" / "exercises").mkdir(parents=True)
    (root / "solutions").mkdir()
    shutil.copy(ROOT / "lessons" / "exercises" / f"{EXERCISE}.yaml", root / "lessons" / "exercises")
    shutil.copy(ROOT / "solutions" / f"{EXERCISE}.py", root / "solutions")
    return root


def _sandbox_case(fault: Fault, sandbox, exercise) -> Outcome:
    out = Outcome()
    start = time.monotonic()
    run = sandbox.run_exercise(exercise, fault.path.read_text(), f"/learner/{fault.path.name}", fault.timeout)
    out.verdict = run.result()
    out.seconds = time.monotonic() - start
    out.left = survivors(pgid=run.worker.proc.pid, marker=fault.marker)
    out.after = run_source(sandbox, exercise, CORRECT.read_text(), CORRECT.name, timeout=QUICK_S)
    return out


def _cli_case(fault: Fault, course_root: Path, home: Path) -> Outcome:
    out = Outcome(home=home)
    tag = f"FAULT_RUN_TAG={uuid.uuid4().hex}"  # inherited by the worker and everything it starts
    env = cli_env(home)
    env["JAXSTATE_TUTOR_COURSE"] = str(course_root)
    env["FAULT_RUN_TAG"] = tag.split("=", 1)[1]
    cmd = [sys.executable, "-m", "tutor", "check", EXERCISE, "--file", str(fault.path), "--json",
           "--timeout", f"{fault.timeout:g}"]
    start = time.monotonic()
    proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True,
                          timeout=fault.timeout + 120)
    out.seconds = time.monotonic() - start
    out.returncode = proc.returncode
    out.raw = proc.stdout.decode("utf-8", "replace") + "\n--- stderr ---\n" + proc.stderr.decode("utf-8", "replace")[-3000:]
    out.left = survivors(marker=fault.marker, tag=tag)
    try:
        out.verdict = json.loads(proc.stdout)
    except ValueError as exc:
        out.crash = f"the CLI did not print one JSON document: {exc}"
    return out


@pytest.fixture(scope="module")
def outcomes(sandbox, mini_course, tmp_path_factory):
    exercise = load_course(mini_course).exercise(EXERCISE)
    results: dict[tuple[str, str], Outcome] = {}

    def one(where: str, fault: Fault) -> None:
        try:
            if where == "sandbox":
                results[where, fault.name] = _sandbox_case(fault, sandbox, exercise)
            else:
                home = tmp_path_factory.mktemp(f"home-{fault.name}")
                results[where, fault.name] = _cli_case(fault, mini_course, home)
        except BaseException:  # noqa: BLE001 - reported by the test of this case
            results[where, fault.name] = Outcome(crash=traceback.format_exc())

    def several(runs) -> None:
        for where, fault in runs:
            one(where, fault)

    # The memory hogs run one after another (gigabytes each), as one job started first;
    # the waits of the hanging programs overlap with everything else.
    heavy = [(where, f) for f in CASES if f.heavy for where in ("sandbox", "cli")]
    hanging = [(where, f) for f in CASES if f.status == "timeout" for where in ("sandbox", "cli")]
    rest = [(where, f) for f in CASES if not f.heavy and f.status != "timeout" for where in ("sandbox", "cli")]
    with ThreadPoolExecutor(max_workers=4) as pool:  # 2 cores: mostly waiting on timeouts and JAX imports
        pool.submit(several, heavy)
        for run in hanging + rest:
            pool.submit(several, [run])
    yield results
    lines = [f"{'fault':<20} {'sandbox':<26} {'s':>6}   {'cli':<26} {'s':>6}"]
    for fault in CASES:
        row = [fault.name]
        for where in ("sandbox", "cli"):
            o = results.get((where, fault.name))
            v = o.verdict if o else None
            if v is None:
                row += ["(crashed)", 0.0]
            elif where == "sandbox":
                row += [f"{v.status}/{v.kind}", o.seconds]
            else:
                row += [f"{v.get('status')}/{v.get('kind')}", o.seconds]
        lines.append(f"{row[0]:<20} {row[1]:<26} {row[2]:6.1f}   {row[3]:<26} {row[4]:6.1f}")
    print("\n" + "\n".join(lines))


def _get(outcomes, where: str, name: str) -> Outcome:
    out = outcomes.get((where, name))
    assert out is not None, f"{where} run of {name} did not happen"
    assert not out.crash, f"{where} run of {name} broke the test machinery:\n{out.crash}\n{out.raw}"
    return out


# ------------------------------------------------------------------ the assertions, per case

@pytest.mark.parametrize("name", [f.name for f in CASES])
def test_sandbox_fault(name, outcomes):
    fault = BY_NAME[name]
    out = _get(outcomes, "sandbox", name)
    v = out.verdict
    detail = f"{v.status}/{v.kind}: {v.message}\nchecks: {[(c.id, c.status) for c in v.checks]}\nstderr: {v.stderr[-1500:]}"
    assert v.status != "pass", detail
    assert (v.status, v.kind) == (fault.status, fault.kind), detail
    assert v.message.get("en") and v.message.get("zh"), detail
    if fault.failing:
        failing = {c.id: c for c in v.checks}[fault.failing]
        assert failing.status == "fail", detail
        assert failing.message.get("en") and failing.message.get("zh"), detail
    assert out.seconds < fault.timeout + MARGIN_S, f"verdict took {out.seconds:.1f} s"
    assert not out.left, "processes of the run survived it:\n" + "\n".join(out.left)
    after = out.after
    assert after.status == "pass", f"a correct solution right after: {after.status}/{after.kind}: {after.message}"


@pytest.mark.parametrize("name", [f.name for f in CASES])
def test_cli_fault(name, outcomes):
    fault = BY_NAME[name]
    out = _get(outcomes, "cli", name)
    doc = out.verdict
    detail = f"exit {out.returncode}\n{out.raw[-4000:]}"
    assert out.returncode == 1, detail
    assert doc["status"] != "pass", detail
    assert (doc["status"], doc["kind"]) == (fault.status, fault.kind), detail
    assert doc["message"], detail
    if fault.failing:
        assert {c["id"]: c["status"] for c in doc["checks"]}[fault.failing] == "fail", detail
    assert out.seconds < fault.timeout + CLI_MARGIN_S, f"the CLI took {out.seconds:.1f} s"
    assert not out.left, "processes of the run survived it:\n" + "\n".join(out.left)


# ------------------------------------------------------------------ what particular faults must not achieve

def test_fake_verdict_is_only_output(outcomes):
    """Event-shaped JSON on stdout is shown as output and never read as an event."""
    v = _get(outcomes, "sandbox", "fake_verdict").verdict
    assert '{"type": "done"}' in v.stdout
    assert {c.id: c.status for c in v.checks}["counts-up"] == "fail"


def test_binary_output_is_decoded_with_replacement(outcomes):
    v = _get(outcomes, "sandbox", "binary_stdout").verdict
    assert "\ufffd" in v.stdout and "invalid" in v.stdout
    json.dumps(v.to_json(EXERCISE, "en"))  # still a valid verdict document
    doc = _get(outcomes, "cli", "binary_stdout").verdict
    assert "\ufffd" in doc["stdout"]


def test_flood_is_cut_short(outcomes, sandbox):
    v = _get(outcomes, "sandbox", "flood").verdict
    assert len(v.stdout) <= sandbox.limits.keep_chars
    assert v.output_truncated


def test_progress_file_is_not_reachable_through_env_or_argv(outcomes, sandbox):
    """The worker is not told where the home is: the forged record never lands."""
    out = _get(outcomes, "cli", "progress_write")
    assert "forged: []" in out.verdict["stdout"], out.verdict["stdout"]
    progress = json.loads((out.home / "progress.json").read_text())
    assert progress["exercises"][EXERCISE]["status"] == "attempted"
    v = _get(outcomes, "sandbox", "progress_write").verdict
    assert "forged: []" in v.stdout, v.stdout
    assert not (sandbox.cache_dir.parent.parent / "progress.json").exists()


def test_os_exit_after_passing_checks_is_not_a_pass(outcomes):
    """Checks that passed before the process ended do not make the run a pass."""
    v = _get(outcomes, "sandbox", "os_exit").verdict
    statuses = {c.id: c.status for c in v.checks}
    assert statuses["returns-pair"] == "pass" and statuses["jit-once"] == "skipped"
