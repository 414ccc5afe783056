"""A second witness for host syncs, on an accelerator: JAX's device-to-host transfer guard.

At "log_explicit", jaxlib writes one line to stderr (from C++, "device-to-host transfer: ...") for every
array copied from a device to the host, wherever the copy is made: in the learner's code, in a
library, in C. The host-sync detector places the pulls it sees at the learner's lines; when the
guard saw clearly more copies than that (the doctor's own reads discounted), some syncs happened
where the hooks cannot see, and the report says so ("transfers" blind spot) rather than implying
the loop is free of them.

On the CPU the guard cannot work: a CPU array is host memory, nothing is transferred and nothing
is logged. So the witness is not installed there (the tutor's CPU workers run with
JAX_PLATFORMS=cpu), and it never asks JAX which backend it will use: that would make the backend
before the script's own XLA_FLAGS count.

Reading fd 2: it becomes a pipe for the run; a thread counts the guard's lines and passes every
other byte on to the real stderr as it comes (a line that may be the start of a log line waits
for its end), and on undo fd 2 is put back and the thread drains what is left.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Callable

import jax

from tutor.child.doctor.hooks import Hooks

GUARD_LINE = "device-to-host transfer"
OPTION = "jax_transfer_guard_device_to_host"
SLACK = 20  # copies the hooks may not place (a final print, a checkpoint) before it is worth a word
# absl's C++ log prefix: severity letter, MMDD, then a time ("W1206 06:11:11.123456 ...")
_LOG_START = re.compile(rb"^[IWEF]\d{0,4}$|^[IWEF]\d{4}[ \d:.]")


def on_cpu_only() -> bool:
    """Whether the run's platforms are the CPU alone (said before any backend is made)."""
    return cpu_only(getattr(jax.config, "jax_platforms", None) or os.environ.get("JAX_PLATFORMS", ""))


def cpu_only(platforms: str) -> bool:
    """Whether a JAX_PLATFORMS value names the CPU alone ("": JAX picks, maybe an accelerator)."""
    wanted = [p.strip().lower() for p in str(platforms).split(",") if p.strip()]
    return bool(wanted) and all(p == "cpu" for p in wanted)


class TransferGuard:
    def __init__(self, pulls_seen: Callable[[], int], force: bool = False):
        self.pulls_seen = pulls_seen  # how many pulls the host-sync hooks placed
        self.force = force  # tests: install on the CPU too (to test the wiring)
        self.logged = 0  # the guard's lines read
        self.installed = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def install(self, hooks: Hooks) -> None:
        if on_cpu_only() and not self.force:
            return  # the guard cannot see anything on the CPU: nothing to witness
        try:
            self._tap(hooks)
        except OSError:  # no fd 2 to read (closed by the parent): no witness
            return
        hooks.option(OPTION, "log_explicit")  # jax.device_get's copies too, not only implicit ones
        self.installed = True

    def _tap(self, hooks: Hooks) -> None:
        real = os.dup(2)
        read, write = os.pipe()
        try:
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - a stream the script replaced may not flush
            pass
        os.dup2(write, 2)
        os.close(write)
        self._thread = threading.Thread(target=self._pump, args=(read, real), name="doctor-transfers", daemon=True)
        self._thread.start()

        def untap() -> None:
            try:
                sys.stderr.flush()
            except Exception:  # noqa: BLE001
                pass
            os.dup2(real, 2)  # the pipe's last write end closes: the pump reads to its end
            if self._thread is not None:
                self._thread.join(timeout=5)
            os.close(real)

        hooks.on_undo(untap)

    def _pump(self, read: int, real: int) -> None:
        held = b""
        try:
            while chunk := os.read(read, 65536):
                held = self._pass_on(held + chunk, real)
            if held:
                self._write(real, held)
        finally:
            os.close(read)

    def _pass_on(self, data: bytes, real: int) -> bytes:
        """Count the guard's complete lines, pass the rest on; return a tail held back (the start
        of what may be a log line, until its end comes)."""
        *lines, tail = data.split(b"\n")
        out = []
        for line in lines:
            if GUARD_LINE.encode() in line:
                with self._lock:
                    self.logged += 1
            else:
                out.append(line + b"\n")
        if tail and not _LOG_START.match(tail[:16]):
            out.append(tail)
            tail = b""
        if out:
            self._write(real, b"".join(out))
        return tail

    @staticmethod
    def _write(fd: int, data: bytes) -> None:
        while data:
            try:
                data = data[os.write(fd, data) :]
            except OSError:  # the real stderr is gone: drop it, as a closed stream would
                return

    def findings(self, failure: BaseException | None) -> list:
        return []  # a witness: it says where the doctor was blind (see unplaced), not a finding

    def unplaced(self, own_reads: int = 0) -> bool:
        """Whether the guard saw clearly more copies than the hooks placed at the learner's
        lines (less the doctor's own reads of keys)."""
        if not self.installed:
            return False
        with self._lock:
            logged = self.logged
        return logged - own_reads > self.pulls_seen() + SLACK
