"""A doctor job in the worker: run the learner's script under the probe, then send its report.

The script's own stdout / stderr go to fds 1 / 2 like learner output. SIGINT (the parent's
stop, or its time limit) stops the script through the probe, which still reports what it saw.
"""

from __future__ import annotations

import os
import signal

from tutor.child.harness import flush_std_streams
from tutor.protocol import DoctorJob, DoctorReport


def run(job: DoctorJob, send) -> None:
    from tutor.child.doctor.probe import examine

    if job.cwd:
        os.chdir(job.cwd)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # the worker starts with it ignored
    try:
        report = examine(job.script, job.args, job.nans, job.module)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second stop must not cut the report short
        flush_std_streams()
    send(DoctorReport(report))
