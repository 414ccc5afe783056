"""One worker process: spawned below its reaper (tutor.sandbox.reaper) in a session of its own, in its
own run folder, under its limits, tied to the tutor by its stdin lifeline and the reaper's control
pipe; waited on until ready, interrupted, killed with everything below the reaper."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.paths import PACKAGE_DIR
from tutor.protocol import REHEARSAL_FILE, Ready, parse_event
from tutor.sandbox.bwrap import Bwrap
from tutor.sandbox.fork_client import ForkedProcess, ForkServer, ServerUnavailable
from tutor.sandbox.reaper import kill_tree
from tutor.sandbox.run_dirs import make_run_dir
from tutor.settings import COURSE_VAR

END_WITHIN_S = 30.0  # how long the reaper may take to end a run it was told to end, before it is killed

# What a run's environment keeps of the tutor's (issue 50): an allow-list, so no secret it was started
# with (a cloud key, a token, serve's seat token) reaches code the tutor runs. Doctor runs the
# learner's own script: it keeps the learner's environment.
RUN_ENV_NAMES = frozenset(
    {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TERM", "NO_COLOR", "LD_LIBRARY_PATH"}
    | {"SYSTEMROOT", "ALLOW_MULTIPLE_LIBTPU_LOAD", "JAXSTATE_TUTOR_COURSE", "JAXSTATE_TUTOR_LANG"}
)
RUN_ENV_PREFIXES: tuple[str, ...] = ("LC_", "PYTHON", "JAX_", "XLA_", "TPU_", "LIBTPU", "CUDA_", "NVIDIA_")
RUN_ENV_PREFIXES += ("ROCR_", "HIP_", "TF_", "OPENBLAS_", "OMP_", "MKL_", "NPY_")
# Names a course author (or a test) hands to runs on purpose, comma-separated: `JAXSTATE_TUTOR_RUN_ENV=DATA_DIR`.
RUN_ENV_VAR = "JAXSTATE_TUTOR_RUN_ENV"


def run_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """What of `environ` a run may see: the allow-list, and the names in JAXSTATE_TUTOR_RUN_ENV."""
    extra = {name.strip() for name in environ.get(RUN_ENV_VAR, "").split(",") if name.strip()}
    return {k: v for k, v in environ.items() if k in RUN_ENV_NAMES or k in extra or k.startswith(RUN_ENV_PREFIXES)}


def worker_env(accelerator: bool, course: Path | None = None, doctor_cwd: str | None = None) -> dict[str, str]:
    """The environment every worker starts from (the run adds its TMPDIR); for doctor, the learner's,
    with a relative PYTHONPATH resolved from the learner's folder (`doctor_cwd`), as Python there would.
    `course`: the course's folder, told to the worker (its fence lets it read the course's lessons);
    None leaves what this process's environment says."""
    env = dict(os.environ) if doctor_cwd is not None else run_environment(os.environ)
    if course is not None:
        env[COURSE_VAR] = str(course)
    env["PYTHONUNBUFFERED"] = "1"  # learner prints stream as they happen
    learner_path = env.get("PYTHONPATH")
    if doctor_cwd is not None:
        learner_path = _learner_pythonpath(learner_path, doctor_cwd)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_DIR.parent), learner_path]))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    # Learner code has no business with the learner's progress; do not point it there.
    # (Not a security boundary: the worker runs as the same user.)
    env.pop("JAXSTATE_TUTOR_HOME", None)
    if not accelerator:
        env["JAX_PLATFORMS"] = "cpu"  # never grab the GPU memory the learner's own jobs need
    elif doctor_cwd is None:  # judging on a GPU or TPU; doctor runs the learner's script as it would run
        # A worker takes what it needs, not 75 % of the GPU up front: the learner's own jobs share it.
        env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        # The checks are about state, not precision: a TPU's default matmul precision (bfloat16
        # passes) agrees with a float64 reference to ~3 digits, "highest" to ~7, as on a CPU.
        env["JAX_DEFAULT_MATMUL_PRECISION"] = "highest"
    return env


@dataclass(frozen=True)
class Limits:
    memory_mb: int | None = 4096  # RLIMIT_DATA; XLA alone needs ~1.2 GiB of address space to compile
    output_bytes: int | None = 8 * 2**20  # beyond this much stdout+stderr the run is stopped
    keep_chars: int = 100_000  # of each stream, kept for the verdict
    startup_s: float = 120.0  # for a worker to import JAX, on a busy machine
    processes: int | None = 100  # live processes below the reaper at once (a fork loop ends here)
    disk_bytes: int | None = 2**30  # on disk in the run folder (its TMPDIR too), open deleted files included

    def reaper_bounds(self) -> dict[str, int]:
        """What the reaper is told: 0 for no bound."""
        return {
            "memory": (self.memory_mb or 0) * 2**20,  # 0: as much as a plain `python` would get (doctor)
            "processes": self.processes or 0,
            "disk": self.disk_bytes or 0,
        }


@dataclass(frozen=True)
class DoctorSpawn:
    """A worker for `doctor`, to run the learner's script as `python` would: no JAX backend made
    before the script (XLA_FLAGS and jax_num_cpu_devices still work), a relative PYTHONPATH read
    from the learner's folder, the learner's TMPDIR, and (from the command line) its stdin."""

    cwd: str
    stdin_fd: int | None = None  # the parent's descriptor to hand the script as its fd 0


def _learner_pythonpath(value: str | None, cwd: str) -> str | None:
    """PYTHONPATH with relative entries made absolute from the learner's folder, as Python would
    have read them there (the worker starts in its run folder)."""
    if not value:
        return value
    return os.pathsep.join(os.path.join(cwd, entry) if entry else cwd for entry in value.split(os.pathsep))


def _reaper_command(
    write_fd: int,
    control_read: int,
    argv: list[str],
    bounds: dict[str, int],
    doctor: DoctorSpawn | None,
    passed: list[int],
) -> list[str]:
    """The reaper's command line with the worker's after it. The reaper in between
    (tutor.sandbox.reaper): limits, deadline and the learner's every descendant stay in a process
    learner code has no hold on. A doctor's worker gets a copy of the learner's stdin (added to `passed`)."""
    worker = [sys.executable, "-m", "tutor.child.worker", "--event-fd", str(write_fd), *argv]
    if doctor is not None:
        worker.append("--doctor")
        stdin_copy = _copy_fd(doctor.stdin_fd)
        if stdin_copy is not None:
            worker += ["--stdin-fd", str(stdin_copy)]
            passed.append(stdin_copy)
    cmd = [sys.executable, "-I", "-S", str(Path(__file__).with_name("reaper.py"))]
    cmd += ["--control-fd", str(control_read), "--memory", str(bounds["memory"])]
    cmd += ["--max-processes", str(bounds["processes"]), "--max-disk", str(bounds["disk"]), "--", *worker]
    return cmd


def _copy_fd(fd: int | None) -> int | None:
    """A copy of `fd` above 2 to pass to the worker (whose 0-2 are its pipes), or None if it is
    not open (CI may give no stdin at all)."""
    if fd is None:
        return None
    try:
        os.fstat(fd)
        return os.dup(fd)
    except OSError:
        return None


def _write_private(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)


def _is_ready(line: bytes) -> bool:
    try:
        return isinstance(parse_event(json.loads(line)), Ready)
    except ValueError:  # not JSON, or not an event (ProtocolError): the run will say so
        return False


class WorkerProcess:
    """One spawned worker: its process, its pipes, and whether it said it is ready."""

    def __init__(
        self,
        cache_dir: Path | None,
        limits: Limits,
        accelerator: bool,
        server: ForkServer | None = None,
        doctor: DoctorSpawn | None = None,
        wrap: Bwrap | None = None,
        cpu_devices: int = 1,
        course: Path | None = None,
        rehearsal: tuple[str, ...] = (),
    ):
        """`course`: the course's folder, told to the worker (worker_env). `wrap`: the wall the worker is spawned inside (tutor.sandbox.bwrap: what goes before the
        reaper's command, and what of the environment it keeps); such a worker is spawned, never
        forked (a fork server's child cannot enter new namespaces). `cpu_devices` > 1: JAX's virtual
        CPU devices for a cell's multi-device code, read as JAX is imported, so spawned, never forked."""
        read_fd, write_fd = os.pipe()
        self.workdir, lock_fd = make_run_dir()  # the worker keeps the folder's lock for its life
        tmp = self._furnish_run_dir(rehearsal)
        self._closed = False
        self._removed = False
        self._removing = threading.Lock()
        self._killing: threading.Thread | None = None  # kill()'s: waits for the reaper's end, then forces it
        # The run's TMPDIR, except for doctor: the learner's script gets the learner's own.
        run_env = {} if doctor is not None else {"TMPDIR": tmp, "TEMP": tmp, "TMP": tmp}
        if cpu_devices > 1:
            run_env["JAX_NUM_CPU_DEVICES"] = str(cpu_devices)
        argv = ["--run-dir", self.workdir]  # the reaper adds the worker's --parent (itself)
        # The compilation cache the worker may write to (doctor's worker has none): its growth is the run's.
        self.cache_dir = str(cache_dir) if cache_dir is not None and doctor is None else None
        if self.cache_dir is not None:
            argv += ["--cache-dir", self.cache_dir]
        bounds = limits.reaper_bounds()
        # The reaper's socket: the deadline goes down it, its last word comes back, and EOF tells it the tutor died.
        control_read, self._control = (s.detach() for s in socket.socketpair())
        os.set_blocking(self._control, False)
        passed = [write_fd, lock_fd, control_read]
        try:
            forked = None
            if server is not None and doctor is None and wrap is None and cpu_devices == 1:
                forked = self._forked(server, run_env, argv, bounds, passed)
            self.proc: subprocess.Popen[bytes] | ForkedProcess
            if forked is not None:
                self.proc = forked
            else:
                cmd = _reaper_command(write_fd, control_read, argv, bounds, doctor, passed)
                env = {**worker_env(accelerator, course, doctor.cwd if doctor else None), **run_env}
                if wrap is not None:
                    cmd = [*wrap.prefix(self.workdir), *cmd]
                    env = wrap.environment(env)
                self.proc = subprocess.Popen(
                    cmd,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    pass_fds=tuple(passed),
                    start_new_session=True,
                    env=env,
                    cwd=self.workdir,
                )
        except BaseException:
            os.close(self._control)
            raise
        finally:
            for fd in passed:
                os.close(fd)  # the reaper's copies: the event pipe, the lock, its control socket, the learner's stdin
        self.event_fd = read_fd
        self.spawned_at = time.monotonic()
        self.ready = False
        self.early_events = b""  # event bytes read by wait_ready(), replayed by the run
        self.on_removed: list[Any] = []  # called once the process is gone (the device it held is free)
        self._heard = b""  # what the reaper said back on its socket

    def _furnish_run_dir(self, rehearsal: tuple[str, ...]) -> str:
        """The run's own temporary folder (what learner code makes there goes with the run), and the
        calls the previous run compiled (the worker reads and removes the file). Returns the former."""
        tmp = os.path.join(self.workdir, "tmp")
        os.mkdir(tmp)
        if rehearsal:
            _write_private(os.path.join(self.workdir, REHEARSAL_FILE), json.dumps(list(rehearsal)))
        return tmp

    def reaper_word(self) -> str | None:
        """The reaper's last word (`exit S`, or `limit <what> N`: processes, threads, disk, memory) once it has ended;
        None if it ended without one: something killed it from outside."""
        try:
            while chunk := os.read(self._control, 4096):
                self._heard += chunk
        except (BlockingIOError, OSError):
            pass
        lines = [line for line in self._heard.decode(errors="replace").split("\n") if line]
        return lines[-1] if lines else None

    def limit_said(self) -> bool:
        """Whether the reaper has said a bound was passed (`limit ...`), while it may still be killing
        the tree: under gVisor that walk can outlast the run's time limit, and the bound, not the
        clock, ended the run."""
        word = self.reaper_word()
        return word is not None and word.startswith("limit ")

    def _forked(
        self, server: ForkServer, run_env: dict[str, Any], argv: list[str], bounds: dict[str, int], fds: list[int]
    ) -> ForkedProcess | None:
        """The reaper and its worker forked by the server, on pipes made here (`fds`: the event pipe,
        the lock, the control socket); None if the server cannot serve."""
        pipes = [os.pipe() for _ in range(3)]  # stdin, stdout, stderr
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1], *fds]
        try:
            proc = server.spawn(self.workdir, run_env, argv, bounds, theirs)
        except ServerUnavailable:
            for r, w in pipes:
                os.close(r)
                os.close(w)
            return None
        for fd in theirs[:3]:
            os.close(fd)
        proc.stdin = open(pipes[0][1], "wb")
        proc.stdout = open(pipes[1][0], "rb")
        proc.stderr = open(pipes[2][0], "rb")
        return proc

    def wait_ready(self, timeout: float) -> bool:
        """Block until the worker has imported JAX and waits for its job (or timeout)."""
        deadline = time.monotonic() + timeout
        while not self.ready and self.alive():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            readable, _, _ = select.select([self.event_fd], [], [], min(left, 0.1))
            if readable:
                chunk = os.read(self.event_fd, 65536)
                if not chunk:
                    return False
                self.early_events += chunk
                self.ready = any(_is_ready(line) for line in self.early_events.split(b"\n")[:-1])
        return self.ready

    def alive(self) -> bool:
        return self.proc.poll() is None

    def ended(self, within: float) -> bool:
        """Whether the process ends within `within` seconds (its event pipe closes a moment before)."""
        try:
            self.proc.wait(timeout=within)
        except subprocess.TimeoutExpired:
            return False
        return True

    def set_deadline(self, seconds: float) -> None:
        """Tell the reaper when to end the whole tree, whatever the learner's code does to its own timers."""
        try:
            os.write(self._control, f"deadline {seconds:.3f}\n".encode())
        except OSError:
            pass  # the reaper is gone (the worker went with it), or its socket is full: it is not reading

    def tell_ready(self) -> None:
        """Tell the reaper the worker is ready: what the tree holds from here on is the run's
        (the JAX runtime's own start-up, on a TPU gigabytes of mapped host memory, is not)."""
        try:
            os.write(self._control, b"ready\n")
        except OSError:
            pass

    def send_job(self, data: bytes) -> None:
        """Write the job. stdin stays open: it is the worker's lifeline (its hang-up tells the worker
        the parent is gone); the worker reads the job, then gives learner code /dev/null (EOF, not a hang)."""
        assert self.proc.stdin is not None  # spawned with pipes
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (OSError, ValueError):
            pass  # the worker already died (or was killed); the run reports how

    def interrupt(self) -> None:
        """SIGINT to the worker alone, passed on by the reaper (the doctor's probe turns it into a stop
        that still reports)."""
        try:
            os.kill(self.proc.pid, signal.SIGINT)
        except (ProcessLookupError, PermissionError):
            pass

    def end(self) -> None:
        """Ask the reaper to end the run: it kills the worker's process group until it is empty (a
        check's processes cannot leave it), then its tree, and exits; returns at once. kill() and
        remove_files() wait for that, and kill what is left once END_WITHIN_S has passed."""
        try:
            os.write(self._control, b"end\n")
        except OSError:
            pass  # the reaper is gone, or its socket is full: kill() does it by force

    def kill(self) -> None:
        """Kill the worker and everything it started, in any group or session (all of it is below
        the reaper, a subreaper), then the reaper."""
        if self.proc.poll() is not None:  # a reaper that exited ended its tree first; reaped, its pid is not ours
            self._kill_reaper()
            return
        self.end()
        with self._removing:
            if self._killing is not None:
                return
            # The verdict does not wait for the end: the reaper ends the tree meanwhile (under
            # gVisor, where each file of a forking process waits, a walk took 20 s after a setsid
            # fork bomb's bound was said); remove_files() waits for it.
            self._killing = threading.Thread(target=self._kill_tree_then_reaper, name="kill", daemon=True)
            self._killing.start()

    def _kill_tree_then_reaper(self) -> None:
        # The reaper's own end first (asked by end()): it reaches the worker's whole group, also
        # what a host without subreapers (gVisor) gave to init; by force only if it does not end.
        if self.ended(END_WITHIN_S):
            return  # reaped: its pid is no longer ours to signal
        kill_tree(self.proc.pid)  # first: once the reaper is gone, its tree is no longer below it
        self._kill_reaper()

    def _kill_reaper(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.kill()
        except ProcessLookupError:
            pass

    def remove_files(self) -> None:
        """Kill, reap and remove the run folder; safe from any thread, the pipes stay open.
        Once only: after the reap the pid may belong to someone else."""
        with self._removing:
            if self._removed:
                return
            self._removed = True
        self.kill()
        killing = self._killing
        if killing is not None:
            killing.join(END_WITHIN_S + 5)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        shutil.rmtree(self.workdir, ignore_errors=True)
        for call in self.on_removed:
            call()

    def failed_start(self, timeout: float = 2.0) -> bytes:
        """What a worker that died before it was ready wrote on stderr; put back, so the run that
        reads this worker still sees all of it (at most a pipe's worth, the end kept)."""
        assert self.proc.stderr is not None  # spawned with pipes
        fd = self.proc.stderr.fileno()
        data, deadline = b"", time.monotonic() + timeout
        while time.monotonic() < deadline:
            readable, _, _ = select.select([fd], [], [], 0.1)
            if readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                data += chunk
        read_end, write_end = os.pipe()
        os.write(write_end, data[-60000:])
        os.close(write_end)
        self.proc.stderr.close()
        self.proc.stderr = open(read_end, "rb")
        return data

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """remove_files, then close the pipes: once, by the thread that reads them."""
        self.remove_files()
        if self._closed:
            return  # a descriptor closed twice could be someone else's by now
        self._closed = True
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is None:
                continue
            try:
                stream.close()
            except OSError:
                pass
        for fd in (self.event_fd, self._control):
            try:
                os.close(fd)
            except OSError:
                pass
