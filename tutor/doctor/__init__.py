"""`jaxstate-tutor doctor`, the parent's side (no JAX, no Textual): run the learner's own script
with instrumentation on and report the state problems seen (issue #14). The probe itself runs
in the worker: tutor/child/doctor/ (its docstring says what each detector can and cannot see).

- `options.py`: the doctor's options, parsed once for the command line and the TUI.
- `running.py`: starting a run in the sandbox and reading its report, for both.
- `findings.py`: the report as the parent keeps it (the worker's tutor.protocol.ScriptReport,
  findings as data, plus the script's output) and the exit code it means.
- `wording.py`: every word said about a finding or a report, in en and zh: the one place
  findings are worded, for the text report, the JSON and the TUI alike.
- `teaching.py`: the lesson and demo cell that teach each fix.
- `report_text.py`, `report_json.py`: the report for a person, and the `doctor --json` object.

`tutor/cli/doctor.py` is the command (`jaxstate-tutor doctor`: output passed through live, the
first Ctrl+C asks the run to stop, the report still comes, exit 130); `tutor/ui/screens/doctor.py`
is the TUI's face of the same run (`d` on the outline).
"""
