"""Parent side of running learner code: spawn workers, keep a warm spare, enforce limits.

Every run gets a fresh process. Learner stdout/stderr arrive on the process's own pipes;
everything the tutor needs to judge arrives as JSON lines on a separate event pipe. The
verdict is decided here, from those events *and* how the process ended: a run that
crashed, was killed, timed out, or never said "done" is never a pass.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
import resource
import select
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from tutor.paths import PACKAGE_DIR
from tutor.protocol import (CHANNEL_LOST, CellJob, CellResult, CheckResult, CheckSpec, Done, ExerciseJob, Job,
                            MetricPoints, ProtocolError, Ready, RunError, parse_event)
from tutor.sandbox.events import Output, Verdict

WORKER_GRACE_S = 2.0  # the worker's own deadline is this much after the parent's: the parent decides


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 4096  # RLIMIT_DATA; XLA alone needs ~1.2 GiB of address space to compile
    output_bytes: int = 8 * 2**20  # beyond this much stdout+stderr the run is stopped
    keep_chars: int = 100_000  # of each stream, kept for the verdict
    startup_s: float = 120.0  # for a worker to import JAX, on a busy machine


def _summary(checks: list) -> dict:
    """"2 of 7 checks failed, 3 skipped (waiting on those)": failures and skips counted apart."""
    counts = {k: sum(1 for c in checks if c.status == k) for k in ("fail", "error", "skipped")}
    en = [f"{counts['fail']} of {len(checks)} checks failed"]
    zh = [f"{len(checks)} 项检查中 {counts['fail']} 项未通过"]
    if counts["error"]:
        en.append(f"{counts['error']} could not judge")
        zh.append(f"{counts['error']} 项无法评判")
    if counts["skipped"]:
        en.append(f"{counts['skipped']} skipped (they wait on a failed one)")
        zh.append(f"{counts['skipped']} 项被跳过（它们依赖未通过的检查）")
    return _message(", ".join(en), ",".join(zh))


def _message(en: str, zh: str) -> dict:
    return {"en": en, "zh": zh}


_OOM_PATTERN = re.compile(r"bad_alloc|out of memory|Cannot allocate|RESOURCE_EXHAUSTED|^MemoryError", re.I | re.M)
_SIGNAL_HINTS = {
    "SIGKILL": (" (this can be the system running out of memory)", "（可能是系统内存耗尽）"),
    "SIGSEGV": (" (a crash in native code: ctypes, a C extension, or recursion too deep for the C stack)",
                "（原生代码崩溃：ctypes、C 扩展，或递归深到超出了 C 栈）"),
    "SIGABRT": (" (native code aborted, e.g. a failed assertion inside XLA)", "（原生代码中止，例如 XLA 内部断言失败）"),
}


def cache_dir_for(home: Path) -> Path:
    """JAX's compilation cache for a home, outside it: the path is in the worker's JAX config,
    where learner code can read it, so it must not lead to progress.json. One folder per home
    (named by a hash), in the platform's cache folder."""
    import platformdirs

    key = hashlib.sha256(str(Path(home).resolve()).encode()).hexdigest()[:16]
    return Path(platformdirs.user_cache_dir("jaxstate-tutor", appauthor=False)) / f"jax-{key}"


def _send_job(stdin, data: bytes) -> None:
    """Write the job. stdin stays open: it is the worker's lifeline (its hang-up tells the worker
    the parent is gone); the worker reads the job, then gives learner code /dev/null (EOF, not a hang)."""
    try:
        stdin.write(data)
        stdin.flush()
    except (OSError, ValueError):
        pass  # the worker already died (or was killed); the run reports how


def _is_ready(line: bytes) -> bool:
    try:
        return isinstance(parse_event(json.loads(line)), Ready)
    except ValueError:  # not JSON, or not an event (ProtocolError): the run will say so
        return False


_SETTING_VARS = re.compile(r"^(JAX_|XLA_|LIBTPU|CUDA_VISIBLE_DEVICES$|LD_PRELOAD$)")  # what can break JAX


def _startup_message(what: str) -> dict:
    """A worker that broke before any learner code ran: what broke and what to do, no advice on code."""
    names = sorted((k for k in os.environ if _SETTING_VARS.match(k)), key=lambda k: (k not in what, k))
    if names:
        shown = ", ".join(names)
        en_do = (f"your shell sets {shown}: unset them (e.g. `env -u {names[0]} jaxstate-tutor ...`) and try again; "
                 "if that is not it, reinstall the tutor and its JAX (`pip install -e .`)")
        zh_do = (f"你的 shell 设置了 {shown}，请先取消这些设置（例如 `env -u {names[0]} jaxstate-tutor ...`）再试；"
                 "若仍不行，请重新安装本教程及其 JAX（`pip install -e .`）")
    else:
        en_do = "reinstall the tutor and its JAX (`pip install -e .`), then try again"
        zh_do = "请重新安装本教程及其 JAX（`pip install -e .`）后再试"
    return _message(f"the tutor could not start its worker, so your code did not run and nothing was judged "
                    f"(this is not a fault in your code): {what}. To fix: {en_do}",
                    f"检查程序的工作进程没能启动，你的代码没有运行，也没有任何评判（问题不在你的代码）：{what}。"
                    f"解决办法：{zh_do}")


def _last_line(text: str) -> str:
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else ""


class WorkerProcess:
    """One spawned worker: its process, its pipes, and whether it said it is ready."""

    def __init__(self, cache_dir: Path | None, limits: Limits, accelerator: bool):
        read_fd, write_fd = os.pipe()
        self.workdir = tempfile.mkdtemp(prefix="jaxstate-run-")
        # The run's own temporary folder: what learner code makes there goes with the run.
        tmp = os.path.join(self.workdir, "tmp")
        os.mkdir(tmp)
        self._closed = False
        self._removed = False
        self._removing = threading.Lock()
        env = dict(os.environ)
        env.update(TMPDIR=tmp, TEMP=tmp, TMP=tmp)
        env["PYTHONUNBUFFERED"] = "1"  # learner prints stream as they happen
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE_DIR.parent), env.get("PYTHONPATH")]))
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
        # Learner code has no business with the learner's progress; do not point it there.
        # (Not a security boundary: the worker runs as the same user.)
        env.pop("JAXSTATE_TUTOR_HOME", None)
        if not accelerator:
            env["JAX_PLATFORMS"] = "cpu"  # never grab the GPU memory the learner's own jobs need
        cmd = [sys.executable, "-m", "tutor.child.worker", "--event-fd", str(write_fd),
               "--parent", str(os.getpid()), "--run-dir", self.workdir]
        if cache_dir is not None:
            cmd += ["--cache-dir", str(cache_dir)]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(write_fd,), start_new_session=True, env=env, cwd=self.workdir,
        )
        os.close(write_fd)
        self.event_fd = read_fd
        self.spawned_at = time.monotonic()
        self.ready = False
        self.early_events = b""  # event bytes read by wait_ready(), replayed by the run
        try:
            # A notch below the tutor itself: on a 2-core machine an XLA compile in the worker
            # must not starve the UI's event loop.
            os.setpriority(os.PRIO_PROCESS, self.proc.pid, min(os.getpriority(os.PRIO_PROCESS, 0) + 5, 19))
        except OSError:
            pass
        limit = limits.memory_mb * 2**20
        try:
            resource.prlimit(self.proc.pid, resource.RLIMIT_DATA, (limit, limit))
        except (OSError, ValueError):
            pass  # not fatal: the wall-clock timeout still bounds the run

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

    def kill(self) -> None:
        """Kill the worker and everything it started in its process group."""
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
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        shutil.rmtree(self.workdir, ignore_errors=True)

    def close(self) -> None:
        """remove_files, then close the pipes: once, by the thread that reads them."""
        self.remove_files()
        if self._closed:
            return  # a descriptor closed twice could be someone else's by now
        self._closed = True
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        try:
            os.close(self.event_fd)
        except OSError:
            pass


class Run:
    """One job in one worker. Iterate `events()`; the last event is always a Verdict."""

    def __init__(self, worker: WorkerProcess, job: Job, timeout: float, limits: Limits, on_finish=None):
        self.worker = worker
        self.job = replace(job, deadline_s=timeout + WORKER_GRACE_S)
        self.timeout = timeout
        self.limits = limits
        self.expected_checks = job.checks if isinstance(job, ExerciseJob) else ()
        self.on_finish = on_finish
        self._cancel = threading.Event()
        self.verdict: Verdict | None = None

    def cancel(self) -> None:
        """Stop the run from any thread; its whole process group is killed."""
        self._cancel.set()
        self.worker.kill()

    def result(self) -> Verdict:
        for _ in self.events():
            pass
        assert self.verdict is not None
        return self.verdict

    def events(self) -> Iterator[object]:
        w = self.worker
        try:
            yield from self._events(w)
        finally:
            # Also when the reader stops early (Ctrl+C in `check`, a closed generator): the run
            # folder and the process never outlive the run. (Usually a no-op by now.)
            w.close()

    def _events(self, w: "WorkerProcess") -> Iterator[object]:
        started = time.monotonic()
        # From a thread: a job bigger than the pipe buffer would otherwise block here, before
        # any deadline is enforced, until a worker that may be stuck starting up reads it.
        threading.Thread(target=_send_job, args=(w.proc.stdin, (json.dumps(self.job.to_wire()) + "\n").encode()),
                         name="send-job", daemon=True).start()
        state = _RunState(self.limits)
        yield from state.feed_events(w.early_events)
        sel = selectors.DefaultSelector()
        for name, fd in (("stdout", w.proc.stdout.fileno()), ("stderr", w.proc.stderr.fileno()),
                         ("events", w.event_fd)):
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_READ, name)
        ready_at = None
        ending = None  # (status, kind, message) once the run is decided by force
        try:
            while True:
                now = time.monotonic()
                if self._cancel.is_set():
                    ending = ("error", "cancelled", _message("the check was cancelled", "检查已取消"))
                    break
                if ready_at is None and state.ready:
                    ready_at = now
                deadline = (ready_at + self.timeout) if ready_at else (w.spawned_at + self.limits.startup_s)
                if now >= deadline:
                    if ready_at:
                        ending = ("timeout", "timeout", self._timeout_message())
                    else:
                        ending = ("error", "startup", _startup_message(
                            f"it did not get ready in {self.limits.startup_s:g} s (JAX import too slow or stuck)"))
                    break
                for key, _ in sel.select(timeout=min(0.05, max(deadline - now, 0))):
                    yield from self._read(key, sel, state)
                if state.flooded:
                    ending = ("error", "output-limit", _message(
                        f"the program printed more than {self.limits.output_bytes // 2**20} MB; it was stopped",
                        f"程序输出超过 {self.limits.output_bytes // 2**20} MB，已被终止"))
                    break
                if state.protocol_error:
                    break  # _decide names it
                if state.done or w.proc.poll() is not None:
                    # "done" comes after the worker flushed the learner's output, so whatever
                    # is left is already in the pipes: drain it without waiting for the exit.
                    for key in list(sel.get_map().values()):
                        for _ in range(64):
                            if key.fd not in sel.get_map():
                                break
                            chunk = list(self._read(key, sel, state))
                            yield from chunk
                            if not chunk and not self._pending(key.fd):
                                break
                    break
        except Exception as exc:  # noqa: BLE001 - a bug on this side still ends in a verdict, never a hang
            ending = ("error", "internal", _message(
                f"the tutor failed while reading this run (not a fault in your code): {type(exc).__name__}: {exc}",
                f"本教程在读取这次运行时自身出错（问题不在你的代码）：{type(exc).__name__}：{exc}"))
        finally:
            sel.close()
            w.kill()  # only the signal: reaping a JAX-sized process can wait until after the verdict
        yield from state.flush_text()
        self.verdict = self._decide(state, ending, time.monotonic() - (ready_at or started))
        try:
            yield self.verdict
        finally:
            w.close()
            if self.on_finish:  # after the verdict is out: a new spare costs a fork
                self.on_finish()

    def _timeout_message(self) -> dict:
        return _message(
            f"time limit of {self.timeout:g} s exceeded: is there an endless loop, or a wait that never ends?",
            f"超过了 {self.timeout:g} 秒的时间限制：是否有死循环，或者永远等不到的等待？")

    @staticmethod
    def _pending(fd: int) -> bool:
        sel = selectors.DefaultSelector()
        try:
            sel.register(fd, selectors.EVENT_READ)
            return bool(sel.select(timeout=0))
        except (ValueError, OSError):
            return False
        finally:
            sel.close()

    def _read(self, key, sel, state: "_RunState"):
        try:
            data = os.read(key.fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            sel.unregister(key.fd)
            return
        if key.data == "events":
            yield from state.feed_events(data)
        else:
            out = state.feed_output(key.data, data)
            if out is not None:
                yield out

    def _decide(self, s: "_RunState", ending, duration: float) -> Verdict:
        checks = self._complete_checks(s)
        rc = self.worker.proc.returncode
        if self._cancel.is_set():  # the kill it caused must not read as a crash
            status, kind, message = "error", "cancelled", _message("the check was cancelled", "检查已取消")
        elif ending is not None:
            status, kind, message = ending
        elif s.protocol_error:
            status, kind, message = "error", "protocol", _message(
                f"the worker sent an event the tutor cannot read ({s.protocol_error}), so the run was stopped; "
                "if your program does not write to the tutor's pipes, this is a fault of the tutor",
                f"工作进程发来了无法识别的事件（{s.protocol_error}），运行已停止；"
                "如果你的程序没有向检查程序的管道写入内容，这是本教程自身的问题")
        elif not s.ready:  # it broke before any learner code ran
            what = (s.error["message"].get("en", "") if s.error and s.error["kind"] == "startup" else "") \
                or s.text["stderr"]
            rc = self.worker.proc.returncode
            status, kind, message = "error", "startup", _startup_message(
                _last_line(what) or (f"it ended with exit status {rc}" if rc is not None else "it ended"))
        elif not s.done and self.worker.proc.returncode == -signal.SIGALRM:
            # The worker's own deadline (WORKER_GRACE_S after ours) ended it first: a timeout all the same.
            status, kind, message = "timeout", "timeout", self._timeout_message()
        elif s.error is not None:
            status, kind, message = "error", s.error["kind"], s.error["message"]
        elif not s.done:
            status, kind, message = "error", *self._early_exit(rc, s)
        elif isinstance(self.job, CellJob):
            status, kind, message = self._cell_outcome(s)
        else:
            failing = [c for c in checks if c.status != "pass"]
            if failing or not checks:
                status, kind = "fail", "checks"
                message = _summary(checks)
            else:
                status, kind = "pass", "checks"
                message = _message(f"all {len(checks)} checks passed", f"全部 {len(checks)} 项检查通过")
        return Verdict(status=status, kind=kind, message=message, checks=checks,
                       stdout=s.text["stdout"], stderr=s.text["stderr"], duration_s=duration,
                       metrics=s.metrics, cell=s.cell, output_truncated=s.truncated)

    def _complete_checks(self, s: "_RunState") -> list[CheckResult]:
        """Every expected check, in order; those never reported are marked not run."""
        out = []
        why = (_message("not run: the program stopped before this check", "未运行：程序在这项检查之前就停止了")
               if s.ready else _message("not run: the tutor's worker did not start", "未运行：检查程序的工作进程没有启动"))
        for spec in self.expected_checks:
            got = s.checks.get(spec.id) or CheckResult(spec.id, "skipped", why)
            out.append(replace(got, name=spec.name))
        return out

    def _early_exit(self, rc: int | None, s: "_RunState") -> tuple[str, dict]:
        tail = s.text["stderr"][-20000:]
        if rc is not None and rc < 0:
            sig = signal.Signals(-rc).name if -rc in signal.valid_signals() else str(-rc)
            if _OOM_PATTERN.search(tail):
                return "oom", _message(f"out of memory: the program was stopped by {sig} while allocating",
                                       f"内存不足：程序在分配内存时被 {sig} 终止")
            hint_en, hint_zh = _SIGNAL_HINTS.get(sig, ("", ""))
            return "signal", _message(f"the program crashed: killed by signal {sig}{hint_en}",
                                      f"程序崩溃：被信号 {sig} 终止{hint_zh}")
        if rc == CHANNEL_LOST:
            return "exit", _message(
                "the program closed the tutor's event pipe, so its results could not be reported; "
                "do not close file descriptors you did not open",
                "程序关闭了检查程序的事件管道，结果无法上报；不要关闭不是你自己打开的文件描述符")
        if rc and _OOM_PATTERN.search(tail):
            return "oom", _message(f"out of memory: the program stopped (exit code {rc}) while allocating",
                                   f"内存不足：程序在分配内存时停止（退出码 {rc}）")
        return "exit", _message(
            f"the program ended the process (exit code {rc}) before the checks finished; "
            "do not call os._exit or sys.exit, and do not close the tutor's pipes",
            f"程序在检查完成前结束了进程（退出码 {rc}）；不要调用 os._exit 或 sys.exit，也不要关闭检查程序的管道")

    def _cell_outcome(self, s: "_RunState") -> tuple[str, str, dict]:
        expect = self.job.expect
        cell = s.cell
        if cell is None:
            return "error", "no-result", _message("the cell reported nothing", "单元没有返回任何结果")
        problems = []
        raised = expect.raises
        if raised and raised not in cell.exception_types:
            problems.append(f"expected {raised}, got {cell.raised or 'no exception'}")
        if not raised and cell.raised:
            problems.append(f"raised {cell.raised}: {cell.message}")
        text = s.text["stdout"]
        for needle in expect.output_contains:
            if needle not in text:
                problems.append(f"output lacks {needle!r}")
        for pattern in expect.output_matches:
            if not re.search(pattern, text, re.M):
                problems.append(f"output does not match {pattern!r}")
        if problems:
            joined = "; ".join(problems)
            return "fail", "expectation", _message(joined, "与预期不符：" + joined)
        return "pass", "expectation", _message("the cell did what it declares", "单元的行为与声明一致")


class _RunState:
    """What has arrived so far: decoded output, events, metrics."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.decoders = {s: codecs.getincrementaldecoder("utf-8")("replace") for s in ("stdout", "stderr")}
        self.text = {"stdout": "", "stderr": ""}
        self.total_bytes = 0
        self.truncated = False
        self.flooded = False
        self.event_buffer = b""
        self.protocol_error = ""  # what was wrong with the first bad event line
        self.ready = False
        self.done = False
        self.error: dict | None = None
        self.checks: dict[str, CheckResult] = {}
        self.metrics: dict[str, list[float]] = {}
        self.cell: CellResult | None = None

    def feed_output(self, stream: str, data: bytes) -> Output | None:
        self.total_bytes += len(data)
        if self.total_bytes > self.limits.output_bytes:
            self.flooded = True
        room = self.limits.keep_chars - len(self.text[stream])
        if room <= 0:
            self.truncated = True
            return None
        text = self.decoders[stream].decode(data)[:room]
        self.text[stream] += text
        return Output(stream, text) if text else None

    def flush_text(self):
        for stream, dec in self.decoders.items():
            tail = dec.decode(b"", final=True)
            if tail and len(self.text[stream]) < self.limits.keep_chars:
                self.text[stream] += tail
                yield Output(stream, tail)

    def feed_events(self, data: bytes):
        if self.protocol_error:
            return  # the run is over; nothing after a bad event is believed
        self.event_buffer += data
        *lines, self.event_buffer = self.event_buffer.split(b"\n")
        if len(self.event_buffer) > max(self.limits.output_bytes, 2**20):
            self.protocol_error = "a line longer than any event"  # stop before it eats the parent's memory
            self.event_buffer = b""
            return
        for line in lines:
            try:
                event = parse_event(json.loads(line))
            except ProtocolError as exc:
                self.protocol_error = str(exc)
            except ValueError:
                self.protocol_error = "a line that is not JSON"
            if self.protocol_error:
                return
            if isinstance(event, Ready):
                self.ready = True
            elif isinstance(event, CheckResult):
                self.checks[event.id] = event
                yield event
            elif isinstance(event, MetricPoints):
                for series, _, value in event.points:
                    self.metrics.setdefault(series, []).append(value)
                yield event
            elif isinstance(event, RunError):
                self.error = {"kind": event.kind, "message": event.message}
            elif isinstance(event, CellResult):
                self.cell = event
            elif isinstance(event, Done):
                self.done = True


class Sandbox:
    """Runs learner code in fresh worker processes, keeping one warm spare when asked."""

    def __init__(self, home: Path | None = None, limits: Limits | None = None,
                 keep_spare: bool = False, accelerator: bool | None = None, spare_early: bool = False):
        self.limits = limits or Limits()
        self.home = home
        # Outside the home (see cache_dir_for): the worker is never told where the home is.
        self.cache_dir = cache_dir_for(home) if home else None
        self.keep_spare = keep_spare
        # When a spare is taken, the next one starts: after the run (default: a person waits
        # for this verdict, and on 2 cores a JAX import next door slows it), or at once
        # (spare_early: back-to-back runs, as in verify and the test suite).
        self.spare_early = spare_early
        # CPU unless asked (`--accelerator` / JAXSTATE_TUTOR_ACCELERATOR=1): a tutor must not
        # take the GPU memory the learner's own jobs need.
        if accelerator is None:
            accelerator = os.environ.get("JAXSTATE_TUTOR_ACCELERATOR") == "1"
        self.accelerator = accelerator
        self._spare: WorkerProcess | None = None
        self._lock = threading.Lock()
        self._workers: set[WorkerProcess] = set()  # every worker not yet closed, for close()
        self._workers_lock = threading.Lock()  # apart from _lock: warm_up spawns while holding that
        self._closed = False  # a run ending after close() must not start a new spare

    def _spawn(self) -> WorkerProcess:
        cache_dir = self.cache_dir
        if cache_dir is not None:
            try:
                cache_dir.mkdir(parents=True, exist_ok=True)
            except OSError:
                cache_dir = None  # no cache is slower, not broken
        worker = WorkerProcess(cache_dir, self.limits, self.accelerator)
        with self._workers_lock:
            self._workers = {w for w in self._workers if not w._closed}
            self._workers.add(worker)
        return worker

    def warm_up(self) -> None:
        """Start the spare worker now, so the first check does not wait for JAX."""
        with self._lock:
            if self._closed:
                return
            if self._spare is None or not self._spare.alive():
                self._spare = self._spawn()

    def wait_ready(self, timeout: float = 120.0) -> bool:
        """Wait until the spare worker (started by warm_up) is ready for a job."""
        with self._lock:
            spare = self._spare
        return spare is not None and spare.wait_ready(timeout)

    def _take(self) -> WorkerProcess:
        with self._lock:
            worker, self._spare = self._spare, None
        if worker is None or not worker.alive():
            if worker is not None:
                worker.close()
            worker = self._spawn()
        if self.keep_spare and self.spare_early:
            self.warm_up()
        return worker

    def _after_run(self) -> None:
        if self.keep_spare and not self.spare_early:
            self.warm_up()

    def run_exercise(self, exercise, source: str, filename: str, timeout: float | None = None) -> Run:
        job = ExerciseJob(source=source, filename=filename, checks=tuple(c.to_job() for c in exercise.checks),
                          setup=exercise.setup, setup_line=exercise.setup_line,
                          origin=exercise.source.file if exercise.source else exercise.id)
        return Run(self._take(), job, timeout or exercise.timeout, self.limits, self._after_run)

    def run_cell(self, cell, timeout: float | None = None) -> Run:
        job = CellJob(id=cell.id, code=cell.code, expect=cell.expect.to_job())
        return Run(self._take(), job, timeout or cell.timeout, self.limits, self._after_run)

    def close(self) -> None:
        """Close the spare and stop every run still going (its process and run folder;
        the run's own thread closes its pipes)."""
        with self._lock:
            self._closed = True
            worker, self._spare = self._spare, None
        with self._workers_lock:
            running = [w for w in self._workers if w is not worker and not w._closed]
            self._workers = set()
        if worker is not None:
            worker.close()
        for w in running:
            w.remove_files()
