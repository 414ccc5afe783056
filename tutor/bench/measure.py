"""Benchmarks of the edit -> check -> verdict loop, as ratios measured side by side in one run.

    python -m tutor.bench            a readable table
    python -m tutor.bench --json     one JSON object (seconds / MB)

What it measures comes from the course itself (no exercise is named here): the small exercise
is the one with the shortest reference solution among those that train nothing, the heavy one
the one with the shortest solution among those that plot a training loss (see `choose`); the
JSON says which (small_exercise, heavy_exercise). Its other programs are in tutor/bench/inputs.py.

Figures (medians of repeated runs):
  small_cold_s       the small exercise's verdict latency, a fresh worker forked from the fork server
  small_spawned_s    the same, a fresh worker spawned (Python start-up + the JAX import), as `check` does
  small_warm_s       the same through a warm spare worker that is already waiting
  small_inprocess_s  the same checks computed in this process, with no worker at all
  heavy_first_s      the heavy exercise (training, plotted live) on an empty compilation cache, warm worker
  heavy_cached_s     the same re-run with the persistent compilation cache filled
  stream_on_s        a cell of 1000 jitted training steps, every loss (a JAX scalar) streamed
                     to a chart drawn as the TUI draws it: the whole run, start to verdict
  stream_off_s       the same training without streaming
  stream_loop_on_s   the same runs timed from the loop's first step to the verdict (the
  stream_loop_off_s  training and the streaming alone, without the worker's start-up)
  tui_first_frame_s  `jaxstate-tutor` on an 80x24 pseudo-terminal until the outline is drawn
  tui_rss_mb         the TUI process's resident memory (it never imports JAX)
  outline_tree_pss_mb  the TUI's whole process tree on the outline (PSS): no worker is kept there
  session_pss_mb     the tree once the small exercise is open and its spare worker ready (PSS)
  ui_max_stall_s     longest event-loop gap in the TUI while the heavy exercise is checked
                     (median over 3 runs of each run's worst gap)
  ui_max_stall_cpu_s the TUI's main thread's own CPU time within a gap, the most in a run (median):
                     what of a stall is the TUI's work, where a loaded machine makes gaps longer
  chart_redraws      in those runs, times the loss chart was redrawn before the verdict (median)
  chart_batches      and metric batches it received (median)
  doctor_plain_s     bench_inputs.DOCTOR_SCRIPT (200 Adam steps) run plainly: the script's own
                     time, JAX already imported (fresh process each time)
  doctor_probe_s     the same script under the doctor's probe (what `doctor` runs in its worker)
  doctor_overhead    doctor_probe_s / doctor_plain_s (goal: at most 1.5)
  doctor_plain_wall_s   `python clean_adam_mlp.py`, start to end
  doctor_cli_wall_s     `jaxstate-tutor doctor --json clean_adam_mlp.py` (a worker, the probe), start to end
  doctor_overhead_wall  their ratio: what the learner waits for

`--only heavy,stalls` measures some groups only; `--heavy adam,rnn,train-state` adds the heavy
figures of those exercises (`heavy_first_s.adam`, ...).

Every folder the benchmark makes (homes, and their compilation caches) is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tutor.bench.inputs import DOCTOR_SCRIPT, DOCTOR_SCRIPT_NAME, STREAM_CELL

_homes: list[Path] = []  # every home made here: removed, with its compilation cache, by cleanup()


def _new_home(prefix: str) -> Path:
    home = Path(tempfile.mkdtemp(prefix=prefix))
    _homes.append(home)
    return home


def cleanup() -> None:
    """Remove the benchmark's homes and the compilation caches the sandbox made for them."""
    from tutor.sandbox.runner import cache_dir_for

    for home in _homes:
        shutil.rmtree(cache_dir_for(home), ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
    _homes.clear()


def choose(course) -> tuple:
    """(small, heavy): the exercises the figures measure. Small: the shortest reference solution
    of those that train nothing, so the checks compute little and the loop's own cost shows.
    Heavy: the shortest solution of those whose checks plot a training loss (compiling, training
    and streaming to the chart); ties go to the first on the path."""

    def size(exercise) -> int:
        return len(course.solution_path(exercise.id).read_text(encoding="utf-8"))

    def plots(exercise) -> bool:
        return any(check.plots for check in exercise.checks)

    small = min((e for e in course.exercises if not plots(e)), key=size)
    heavy = min((e for e in course.exercises if plots(e)), key=size)
    return small, heavy


def _median(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def small_latencies(course, exercise, repeat: int = 5) -> dict[str, float]:
    from tutor.sandbox.runner import Sandbox

    path = course.solution_path(exercise.id)
    source = path.read_text(encoding="utf-8")
    home = _new_home("jaxstate-bench-")

    def timed(box) -> float:
        """Seconds until the verdict arrives (cleaning up the worker comes after it)."""
        start = time.perf_counter()
        run = box.run_exercise(exercise, source, str(path))
        elapsed = None
        for event in run.events():
            if event is run.verdict:
                elapsed = time.perf_counter() - start
        assert run.verdict is not None and elapsed is not None, "the run ended without a verdict"
        assert run.verdict.passed, run.verdict.message
        return elapsed

    spawn_box = Sandbox(home, fork_server=False)
    timed(spawn_box)  # fills the compilation cache, so cold vs warm differ only in start-up
    spawned = _median(lambda: timed(spawn_box), repeat)

    cold_box = Sandbox(home, fork_server=True)  # no spare: each run forks a fresh worker
    try:
        timed(cold_box)  # the server's own start-up, once
        cold = _median(lambda: timed(cold_box), repeat)
    finally:
        cold_box.close()

    warm_box = Sandbox(home, keep_spare=True)

    def warm_once() -> float:
        warm_box.warm_up()
        warm_box.wait_ready()
        return timed(warm_box)

    try:
        warm = _median(warm_once, repeat)
    finally:
        warm_box.close()
    inprocess = _median(lambda: _inprocess(exercise, source, str(path), home), repeat)
    return {"small_cold_s": cold, "small_spawned_s": spawned, "small_warm_s": warm, "small_inprocess_s": inprocess}


def _inprocess(exercise, source: str, filename: str, home: Path) -> float:
    """The checks' own compute: load the learner module and run every check right here."""
    from tutor.child import harness
    from tutor.child.worker import configure_jax  # the worker's own JAX settings (run() probed the flags)
    from tutor.sandbox.runner import cache_dir_for

    configure_jax(str(cache_dir_for(home)))
    start = time.perf_counter()
    functions = harness.load_checks(str(exercise.checks_file))
    module = harness.load_learner(source, filename)
    for check in exercise.checks:
        result = harness.run_check(check.to_job(exercise.checks_file), functions.get(check.id), module, filename)
        assert result.status == "pass", result
    return time.perf_counter() - start


def heavy_cache(course, exercise, repeat: int = 3) -> dict[str, float]:
    """The heavy exercise (it trains): first run on an empty compilation cache vs a re-run that
    finds it filled. Both through a warm worker, so only compiling differs."""
    from tutor.sandbox.runner import Sandbox

    path = course.solution_path(exercise.id)
    source = path.read_text(encoding="utf-8")
    firsts: list[float] = []
    cached: list[float] = []
    for _ in range(repeat):
        box = Sandbox(_new_home("jaxstate-bench-heavy-"), keep_spare=True)
        try:
            for into in (firsts, cached):
                box.warm_up()
                box.wait_ready()
                start = time.perf_counter()
                verdict = box.run_exercise(exercise, source, str(path)).result()
                into.append(time.perf_counter() - start)
                assert verdict.passed, verdict.message
        finally:
            box.close()
    return {"heavy_first_s": statistics.median(firsts), "heavy_cached_s": statistics.median(cached)}


def streaming(repeat: int = 3) -> dict[str, float]:
    """1000 training steps with every loss streamed to a chart vs the same loop silent: the
    whole run, and the part from the loop's first step (the worker's clock, printed by the cell;
    CLOCK_MONOTONIC is one clock for every process) to the verdict, which leaves out the start-up
    that is the same either way and keeps the final flush in. The parent consumes the points the
    way the TUI does: the chart's own drawing code, at most once every loss_chart.REDRAW_S.
    On and off runs alternate, so that drift on a busy machine falls on both alike."""
    from tutor.course.model import Cell
    from tutor.protocol import MetricPoints
    from tutor.sandbox.runner import Sandbox
    from tutor.ui.widgets.loss_chart import REDRAW_S

    box = Sandbox(_new_home("jaxstate-bench-stream-"), keep_spare=True)

    def once(stream: bool) -> tuple[float, float]:
        cell = Cell(id="bench-stream", code=STREAM_CELL.format(stream=stream))
        box.warm_up()
        box.wait_ready()
        points: list[float] = []
        last_draw = 0.0
        start = time.monotonic()
        run = box.run_cell(cell)
        for event in run.events():
            if isinstance(event, MetricPoints):
                points.extend(v for _, _, v in event.points)
                now = time.perf_counter()
                if now - last_draw >= REDRAW_S:
                    _draw(points)
                    last_draw = now
            elif event is run.verdict:
                end = time.monotonic()
        assert run.verdict is not None, "the run ended without a verdict"
        assert run.verdict.passed, run.verdict.message
        assert not stream or len(points) == 1000, len(points)
        loop_start = float(run.verdict.stdout.split("loop_start ", 1)[1].split()[0])
        return end - start, end - loop_start

    try:
        once(False)  # fill the compilation cache for both variants
        on, off = [], []
        for _ in range(repeat):
            on.append(once(True))
            off.append(once(False))
    finally:
        box.close()
    return {
        "stream_on_s": statistics.median(r for r, _ in on),
        "stream_off_s": statistics.median(r for r, _ in off),
        "stream_loop_on_s": statistics.median(l for _, l in on),
        "stream_loop_off_s": statistics.median(l for _, l in off),
    }


_figure = None


def _draw(values: list[float]) -> str:
    """One redraw of the TUI's chart (76x9 inside its border at 80x24), to a string."""
    global _figure
    from textual_plotext.plot import Plot

    from tutor.ui.widgets.loss_chart import draw

    if _figure is None:
        _figure = Plot()
    draw(_figure, {"loss": (list(range(len(values))), values)}, ["braille"], 76, 9)
    _figure.plotsize(76, 9)
    return _figure.build()


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def _pss_mb(pid: int) -> float:
    """Proportional set size: shared pages split between the processes that share them, so a
    process tree's figures add up to what it really costs the machine."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, IndexError, ValueError):
        return -1


def _until_idle(pid: int, deadline: float) -> None:
    """Until the process has used no CPU for 0.5 s (a spare worker has imported JAX and waits)."""
    last, still_since = _cpu_ticks(pid), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.1)
        now = _cpu_ticks(pid)
        if now != last:
            last, still_since = now, time.monotonic()
        elif time.monotonic() - still_since >= 0.5:
            return


def tui_figures(exercise, repeat: int = 5) -> dict[str, float]:
    """Start the real `jaxstate-tutor` on a pseudo-terminal (80x24): time to its first frame (the
    outline's title drawn), its RSS, the PSS of its whole process tree on the outline, then after
    `exercise` is opened from the palette (Ctrl+P, its id, Enter) and its spare worker is ready."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import subprocess
    import sys
    import termios

    firsts, rss, outline, opened = [], [], [], []
    for _ in range(repeat):
        home = str(_new_home("jaxstate-bench-tui-"))
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24", JAXSTATE_TUTOR_LANG="en")
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "tutor", "--home", home],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            start_new_session=True,
        )
        os.close(follower)

        def read_until(mark: bytes, timeout: float, leader: int = leader) -> bool:
            seen, deadline = b"", time.monotonic() + timeout
            while time.monotonic() < deadline:
                ready, _, _ = select.select([leader], [], [], 0.05)
                if ready:
                    try:
                        seen += os.read(leader, 65536)
                    except OSError:
                        return False
                    if mark in seen:
                        return True
            return False

        assert read_until(b"Outline", 30), "the TUI never drew its outline"
        firsts.append(time.perf_counter() - start)
        read_until(b"Continue:", 30)  # the course has loaded
        time.sleep(2)  # what an idle tutor holds: whatever it started by now
        rss.append(_rss_mb(proc.pid))
        outline.append(_pss_mb(proc.pid) + sum(_pss_mb(k) for k in _children(proc.pid)))
        os.write(leader, b"\x10")  # Ctrl+P: the palette
        read_until(b"Search", 10)
        os.write(leader, exercise.id.encode())
        read_until(exercise.id.encode() + b":", 10)
        os.write(leader, b"\r")
        deadline = time.monotonic() + 60
        while not _children(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        for kid in _children(proc.pid):
            _until_idle(kid, deadline)
        opened.append(_pss_mb(proc.pid) + sum(_pss_mb(k) for k in _children(proc.pid)))
        # SIGTERM: the TUI closes its sandbox, whose spare worker's run folder a kill would leave behind
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(leader)
    return {
        "tui_first_frame_s": statistics.median(firsts),
        "tui_rss_mb": statistics.median(rss),
        "outline_tree_pss_mb": statistics.median(outline),
        "session_pss_mb": statistics.median(opened),
    }


def ui_stall(course, exercise) -> dict[str, float]:
    """The longest gap in the TUI's event loop while the heavy exercise is checked in it, and
    how live its loss chart was: redraws before the verdict, metric batches received."""
    import asyncio

    from tutor.progress.path import Step
    from tutor.sandbox.runner import Sandbox
    from tutor.ui.app import make_app
    from tutor.ui.screens.exercise import ExerciseScreen
    from tutor.ui.widgets.loss_chart import LossChart

    home = _new_home("jaxstate-bench-stall-")
    box = Sandbox(home, keep_spare=True)
    box.warm_up()
    box.wait_ready()
    workspace = home / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / f"{exercise.id}.py").write_text(course.solution_path(exercise.id).read_text(encoding="utf-8"))
    app = make_app(home, "en", course=course, sandbox=box)

    async def drive() -> dict[str, float]:
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_step(Step("exercise", exercise.id))
            while not isinstance(app.screen, ExerciseScreen):
                await asyncio.sleep(0.05)
            await pilot.pause()
            # The reference curve is trained as the screen opens (a learner reads the task first):
            # measured with it drawn, not competing with the check for the cores.
            deadline = time.monotonic() + 300
            while app.screen.reference_state == "computing" and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            # Its run took the spare: F5 finds a ready one, as before the reference (box.wait_ready above).
            await asyncio.get_running_loop().run_in_executor(None, box.wait_ready)
            await pilot.press("f10")  # with the new panels open: the trace panel too (off at 80x24)
            await asyncio.sleep(0.5)
            await pilot.pause()
            chart = app.screen.query_one(LossChart)
            # Measured with both, or not at all (issue 56: "with the new panels open").
            assert app.screen.trace_panel.display, "the trace panel did not open (F10)"
            assert chart.reference, f"no reference curve under the learner's ({app.screen.reference_state})"
            gaps: list[float] = []
            cpu: list[float] = []  # the main thread's CPU time within each gap (the loop runs on it)
            checking = True

            async def ticker() -> None:
                # A plain asyncio ticker: how late the event loop (where keys are handled) runs.
                last, last_cpu = time.perf_counter(), time.thread_time()
                while checking:
                    await asyncio.sleep(0.01)
                    now, now_cpu = time.perf_counter(), time.thread_time()
                    gaps.append(now - last)
                    cpu.append(now_cpu - last_cpu)
                    last, last_cpu = now, now_cpu

            redraws, batches = chart.redraws, chart.batches
            task = asyncio.get_running_loop().create_task(ticker())
            await pilot.press("f5")
            deadline = time.monotonic() + 120
            while app.screen.verdict is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            redraws, batches = chart.redraws - redraws, chart.batches - batches
            checking = False
            await task
            assert app.screen.verdict is not None and app.screen.verdict.passed
            return {
                "stall": max(max(gaps) - 0.01, 0.0) if gaps else 0.0,
                "stall_cpu": max(cpu, default=0.0),
                "redraws": redraws,
                "batches": batches,
            }

    try:
        return asyncio.run(drive())
    finally:
        box.close()


def ui_stalls(course, exercise, repeat: int = 3) -> dict[str, float]:
    """Medians over runs (of each run's worst stall): one VM hiccup should not decide a figure."""
    runs = [ui_stall(course, exercise) for _ in range(repeat)]
    return {
        "ui_max_stall_s": statistics.median(r["stall"] for r in runs),
        "ui_max_stall_cpu_s": statistics.median(r["stall_cpu"] for r in runs),
        "chart_redraws": statistics.median(r["redraws"] for r in runs),
        "chart_batches": statistics.median(r["batches"] for r in runs),
    }


PLAIN_RUN = """
import runpy, sys, time
import jax
start = time.monotonic()
runpy.run_path(sys.argv[1], run_name="__main__")
print("PLAIN_S", time.monotonic() - start)
"""

# The probe as the worker calls it (tutor.child.doctor_job), JAX imported before it starts.
PROBE_RUN = """
import json, sys
import jax
from tutor.child.doctor.probe import examine
report = examine(sys.argv[1])
print("PROBE " + json.dumps([report.status, len(report.findings), report.duration_s]))
"""


def doctor_overhead(repeat: int = 3) -> dict[str, float]:
    """A clean training script run plainly vs under the doctor's probe, each in a fresh process
    with JAX imported before the clock starts: the probe's cost on the script's own time. Plain
    and doctor runs alternate, so that drift on a busy machine falls on both alike."""
    env = dict(os.environ, JAX_PLATFORMS=os.environ.get("JAX_PLATFORMS", "cpu"))
    # The tutor being measured, wherever it is installed (a checkout, or a wheel's site-packages).
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    report_dir = _new_home("jaxstate-bench-doctor-")  # a copy of the script, run from there
    folder = report_dir / "script"
    folder.mkdir()
    (folder / DOCTOR_SCRIPT_NAME).write_text(DOCTOR_SCRIPT, encoding="utf-8")
    script = str(folder / DOCTOR_SCRIPT_NAME)
    plain, probed, plain_wall, doctor_wall = [], [], [], []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", PLAIN_RUN, script],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            cwd=folder,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        plain.append(float(done.stdout.rsplit("PLAIN_S ", 1)[1]))
        done = subprocess.run(
            [sys.executable, "-c", PROBE_RUN, script],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            cwd=folder,
        )
        assert "PROBE " in done.stdout, done.stderr[-2000:]
        status, findings, probe_s = json.loads(done.stdout.rsplit("PROBE ", 1)[1])
        assert status == "ok" and not findings, (status, findings, done.stderr[-2000:])
        probed.append(float(probe_s))
        # What the learner waits for: `python train.py` vs `jaxstate-tutor doctor train.py`, start to
        # end (a new home each time: its compilation cache starts empty, like the plain run's).
        start = time.monotonic()
        ran = subprocess.run([sys.executable, script], capture_output=True, env=env, timeout=600, cwd=folder)
        plain_wall.append(time.monotonic() - start)
        assert ran.returncode == 0, ran.stderr[-2000:]
        start = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tutor",
                "--home",
                str(_new_home("jaxstate-bench-doctor-home-")),
                "doctor",
                "--json",
                script,
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            cwd=folder,
        )
        doctor_wall.append(time.monotonic() - start)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    plain_s, probe_s = statistics.median(plain), statistics.median(probed)
    wall_plain, wall_doctor = statistics.median(plain_wall), statistics.median(doctor_wall)
    return {
        "doctor_plain_s": plain_s,
        "doctor_probe_s": probe_s,
        "doctor_overhead": probe_s / plain_s,
        "doctor_plain_wall_s": wall_plain,
        "doctor_cli_wall_s": wall_doctor,
        "doctor_overhead_wall": wall_doctor / wall_plain,
    }


GROUPS = ("small", "heavy", "stream", "tui", "stalls", "doctor")


def run(repeat: int = 5, only: tuple[str, ...] = GROUPS, heavy_ids: tuple[str, ...] = ()) -> dict:
    """Every figure of the groups in `only`; `heavy_ids`: the heavy figures for these exercises
    as well (`heavy_first_s.<id>`, `heavy_cached_s.<id>`), besides the one `choose` picks."""
    from tutor.child import compile_flags
    from tutor.course import load_course

    if "small" in only:
        compile_flags.probe()  # forks: before any thread here, for small_inprocess_s (as a worker compiles)
    course = load_course()
    small, heavy = choose(course)
    few = min(repeat, 3)  # the slow figures
    figures: dict = {"small_exercise": small.id, "heavy_exercise": heavy.id}
    if "small" in only:
        figures.update(small_latencies(course, small, repeat))
    if "heavy" in only:
        figures.update(heavy_cache(course, heavy, few))
        for exercise_id in heavy_ids:
            exercise = course.exercise(exercise_id)
            if exercise is None:
                raise SystemExit(f"no exercise named {exercise_id}")
            for key, value in heavy_cache(course, exercise, few).items():
                figures[f"{key}.{exercise_id}"] = value
    if "stream" in only:
        figures.update(streaming(repeat))  # short runs, a small ratio: more pairs against the noise
    if "tui" in only:
        figures.update(tui_figures(small, repeat))
    if "stalls" in only:
        figures.update(ui_stalls(course, heavy, few))
    if "doctor" in only:
        figures.update(doctor_overhead(few))
    figures["repeat"] = repeat
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor.bench")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default=",".join(GROUPS), help=f"figures of these groups only: {','.join(GROUPS)}")
    parser.add_argument("--heavy", default="", help="exercise ids: heavy figures for these too (adam,rnn,train-state)")
    args = parser.parse_args(argv)
    only = tuple(g for g in args.only.split(",") if g)
    unknown = set(only) - set(GROUPS)
    if unknown:
        parser.error(f"unknown group(s) {', '.join(sorted(unknown))}: choose from {', '.join(GROUPS)}")
    try:
        figures = run(args.repeat, only, tuple(i for i in args.heavy.split(",") if i))
    finally:
        cleanup()
    if args.json:
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in figures.items()}))
        return 0
    for key, value in figures.items():
        print(f"{key:<22} {value:.4f}" if isinstance(value, float) else f"{key:<22} {value}")
    for key in [k for k in figures if k.startswith("heavy_first_s")]:
        suffix = key[len("heavy_first_s") :] or f".{figures['heavy_exercise']}"
        cached = figures[key.replace("first", "cached")]
        print(f"{'heavy first / cached' + suffix:<22} {figures[key] / cached:.2f}")
    if figures.get("stream_off_s"):
        print(f"{'stream on / off':<22} {figures['stream_on_s'] / figures['stream_off_s']:.2f}")
        print(f"{'stream loop on / off':<22} {figures['stream_loop_on_s'] / figures['stream_loop_off_s']:.2f}")
    if figures.get("doctor_plain_s"):
        print(f"{'doctor / plain':<22} {figures['doctor_overhead']:.2f}x (the script's own time)")
        print(f"{'doctor CLI / python':<22} {figures['doctor_overhead_wall']:.2f}x (start to end)")
    if figures.get("small_warm_s"):
        print(f"{'cold / warm':<22} {figures['small_cold_s'] / figures['small_warm_s']:.1f}x")
        print(f"{'warm - in-process':<22} {1000 * (figures['small_warm_s'] - figures['small_inprocess_s']):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
