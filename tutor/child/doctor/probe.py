"""The doctor's probe: runs the learner's script in this process (the worker) with every
detector installed, then turns what they saw into the report the worker sends, as data."""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
import time
from collections.abc import Sequence
from typing import Protocol

import jax

from tutor.child.doctor.as_main import Ran, module_file, run_as_main
from tutor.child.doctor.captured import Captured
from tutor.child.doctor.crashes import Crashes
from tutor.child.doctor.donation import Donation
from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.host_sync import HostSync
from tutor.child.doctor.key_values import DEVICE_READS
from tutor.child.doctor.keys import KeyReuse
from tutor.child.doctor.nans import Nans
from tutor.child.doctor.retraces import Retraces
from tutor.child.doctor.script_code import ScriptCode
from tutor.child.doctor.side_effects import SideEffects
from tutor.child.doctor.transfers import TransferGuard
from tutor.doctor.findings import group, status_of
from tutor.protocol import Finding, ScriptReport, TraceCount


def one_root(found: list[Finding]) -> list[Finding]:
    """One finding per root: JAX's own KeyReuseError at a line is the key reuse seen there."""
    checked = {(f.file, f.line) for f in found if f.code == "key-reuse-error"}
    return [f for f in found if not (f.kind == "key-reuse" and (f.file, f.line) in checked)]


class Detector(Protocol):
    def install(self, hooks: Hooks) -> None: ...

    def findings(self, failure: BaseException | None) -> list[Finding]:
        """What it saw, once the script ended (`failure`: what ended it, if anything did)."""
        ...


def _in_cell(f: Finding, code: ScriptCode) -> Finding:
    """A finding in a notebook, placed by cell: "demo.ipynb, cell 4", and the line in that cell."""
    assert code.notebook is not None
    if f.file != code.name:
        return f
    cell, line = code.notebook.where(f.line)
    first = code.notebook.where(f.first_line)[1] if f.first_line else f.first_line
    made = code.notebook.where(f.made_line) if f.made_line else None
    made_line = made[1] if made is not None and made[0] == cell else None  # "line N" means in this cell
    noticed = code.notebook.where(f.noticed_line) if f.noticed_line else None
    noticed_line = noticed[1] if noticed is not None and noticed[0] == cell else None
    return dataclasses.replace(
        f,
        file=f"{code.name}, cell {cell}",
        line=line,
        first_line=first,
        made_line=made_line,
        noticed_line=noticed_line,
    )


def _trace_in_cell(t: TraceCount, code: ScriptCode) -> TraceCount:
    """A notebook's jitted function, placed by cell as findings are."""
    assert code.notebook is not None
    if t.file:
        return t
    cell, line = code.notebook.where(t.line)
    return dataclasses.replace(t, file=f"{code.name}, cell {cell}", line=line)


def examine(script: str, args: Sequence[str] = (), nans: bool = False, module: str | None = None) -> ScriptReport:
    """Run one script (or with `module`, that module as `python -m` would) under the probe in this
    process. Its output goes where output normally goes; Ctrl+C (SIGINT) stops it, and the report
    still says what was seen until then."""
    return Examination(script, args, nans, module).run()


class Examination:
    """One script under the probe: `run()` runs it and returns the report; `report_so_far()` (from
    another thread, while the script is stuck where SIGINT cannot reach it: in C, or swallowing
    KeyboardInterrupt) says what was seen until now, as a stopped run."""

    def __init__(self, script: str, args: Sequence[str] = (), nans: bool = False, module: str | None = None):
        self.script, self.args, self.nans, self.module = script, args, nans, module
        self.start = time.monotonic()
        self.code: ScriptCode | None = None
        self.detectors: list[Detector] = []
        self.stopped = threading.Event()  # the script has ended (or stopped): its report is being made
        self.transfers: TransferGuard | None = None
        self.reads_before = 0  # the doctor's own key reads before the run (the transfer witness)

    def run(self) -> ScriptReport:
        module = self.module
        script = self.script
        if module:
            try:
                script = module_file(module)
            except ImportError as exc:  # as `python -m` says it
                print(f"{sys.executable}: {exc}", file=sys.stderr)
                return ScriptReport(
                    script=module, status="error", exit_code=1, duration_s=time.monotonic() - self.start
                )
        code = ScriptCode(os.path.abspath(script), root=os.getcwd() if module else None)
        retraces = Retraces(code)
        self.retraces = retraces
        self.keys = KeyReuse(code)
        host_sync = HostSync(code, retraces)
        self.transfers = TransferGuard(lambda: sum(host_sync.pulls.values()))
        side_effects = SideEffects(code, retraces)
        self.keys.call_listeners.append(side_effects.on_jitted_call)  # a bound method's stale `self`
        detectors: list[Detector] = [
            retraces,
            side_effects,
            self.keys,
            Captured(code, retraces, self.keys),  # values read from outside a jitted function, gone stale
            Donation(code, retraces),
            host_sync,
            Crashes(code),
            self.transfers,  # a second witness of host syncs, on an accelerator only
        ]
        if self.nans:
            detectors.append(Nans(code))
        self.detectors, self.code = detectors, code
        hooks = Hooks()
        self.reads_before = DEVICE_READS[0]
        try:
            for detector in detectors:
                detector.install(hooks)
            try:
                ran = run_as_main(code, self.args, module)
            finally:
                self.stopped.set()
            try:
                jax.effects_barrier()  # key callbacks still in flight
            except Exception:  # noqa: BLE001 - the script may have broken the runtime; the report still comes
                pass
        finally:
            hooks.undo()
        return self.report(ran)

    def report_so_far(self) -> ScriptReport | None:
        """What the detectors saw until now, as a run stopped here (None before the script ran)."""
        if self.code is None or not self.detectors:
            return None
        return self.report(Ran(130))

    def report(self, ran: Ran) -> ScriptReport:
        code, detectors, retraces, nans = self.code, self.detectors, self.retraces, self.nans
        assert code is not None
        found = one_root(group([f for d in detectors for f in d.findings(ran.failure)]))
        notes, traces = list(self.keys.notes), list(retraces.traces())
        if code.notebook is not None:
            found = [_in_cell(f, code) for f in found]
            notes = [_in_cell(f, code) for f in notes]
            traces = [_trace_in_cell(t, code) for t in traces]
        blinded = (("logging",) if retraces.blinded() else ()) + (("stopped",) if ran.exit_code == 130 else ())
        if self.transfers is not None and self.transfers.unplaced(DEVICE_READS[0] - self.reads_before):
            blinded += ("transfers",)
        nan_stop = nans and isinstance(ran.failure, FloatingPointError) and bool(found)
        failed = ran.exit_code not in (0, 130) and not nan_stop
        return ScriptReport(
            script=self.module or code.name,
            status=status_of(found, failed),
            exit_code=ran.exit_code,
            duration_s=time.monotonic() - self.start,
            findings=tuple(found),
            traces=tuple(traces),
            notes=tuple(notes),
            blinded=blinded,
        )
