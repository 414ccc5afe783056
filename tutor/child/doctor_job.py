"""A doctor job in the worker: run the learner's script under the probe, then send its report.

The script's own stdout / stderr go to fds 1 / 2 like learner output. SIGINT (the parent's
stop, or its time limit) stops the script through the probe, which still reports what it saw.

Python acts on SIGINT only between bytecodes of the main thread, so a script inside a long call
in C (an XLA compile, JAX's backend starting) or one that swallows KeyboardInterrupt would let
the parent's grace (STOP_GRACE_S) run out with no report. A watchdog thread hears the signal at
once (signal.set_wakeup_fd: the C handler writes to a pipe) and, if the script has not stopped
within WATCHDOG_S, sends what was seen until then itself and ends the worker: at the time limit
a report always comes.
"""

from __future__ import annotations

import os
import signal
import threading
import time

from tutor.child.harness import flush_std_streams
from tutor.protocol import DoctorJob, DoctorReport, Done

WATCHDOG_S = 2.0  # after SIGINT, how long the script has to stop before the watchdog reports (< STOP_GRACE_S)


class _Once:
    """The report is sent once: by the main thread when the script stops, or by the watchdog."""

    def __init__(self, send):
        self._send = send
        self._lock = threading.Lock()
        self.sent = False

    def send(self, report) -> bool:
        with self._lock:
            if self.sent:
                return False
            self.sent = True
        self._send(DoctorReport(report))
        return True


def _watch(read_fd: int, exam, once: _Once) -> None:
    """Wait for SIGINT (its number on the wake-up pipe); give the script WATCHDOG_S to stop, then
    report what was seen and end the worker."""
    try:
        while True:
            data = os.read(read_fd, 64)
            if not data:
                return
            if signal.SIGINT in data:
                break
        if exam.stopped.wait(WATCHDOG_S):
            return  # the script stopped: the main thread reports
        report = exam.report_so_far()
        if report is None:
            return
        flush_std_streams()
        if once.send(report):
            once._send(Done())
            os._exit(0)
    except Exception:  # noqa: BLE001 - the watchdog must never be what breaks a run
        return


def run(job: DoctorJob, send) -> None:
    from tutor.child.doctor.probe import Examination

    if job.cwd:
        os.chdir(job.cwd)
    exam = Examination(job.script, job.args, job.nans, job.module)
    once = _Once(send)
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    old_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    threading.Thread(target=_watch, args=(read_fd, exam, once), name="doctor-watchdog", daemon=True).start()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # the worker starts with it ignored
    try:
        report = exam.run()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second stop must not cut the report short
        signal.set_wakeup_fd(old_fd)
        os.close(write_fd)  # the watchdog's read ends
        flush_std_streams()
    if not once.send(report):
        while True:  # the watchdog reported: it ends the worker
            time.sleep(60)
