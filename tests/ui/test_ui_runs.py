"""Each event of a run reaches the UI as the Textual message of its kind (no isinstance chains)."""

from __future__ import annotations

from tutor.i18n import Bilingual
from tutor.protocol import CellResult, CheckResult, MetricPoints
from tutor.sandbox.events import Output, Verdict
from tutor.ui.runs import RunCheck, RunFinished, RunHandle, RunMetrics, RunOutput, message_for


def test_one_message_class_per_event_type():
    handle = RunHandle()
    verdict = Verdict("pass", "checks", Bilingual(en="ok", zh="好"), [], "", "", 0.1, {})
    cases = [
        (Output("stdout", "hi\n"), RunOutput, "output"),
        (MetricPoints((("loss", 0, 1.0),)), RunMetrics, "metrics"),
        (CheckResult("a", "pass", Bilingual.same("")), RunCheck, "check"),
        (verdict, RunFinished, "verdict"),
    ]
    for event, kind, field in cases:
        message = message_for(handle, event)
        assert type(message) is kind and getattr(message, field) is event and message.handle is handle
        assert (
            message.handler_name
            == "on_"
            + {"output": "run_output", "metrics": "run_metrics", "check": "run_check", "verdict": "run_finished"}[field]
        )
        assert not message.bubble  # for the widget that started the run only
    # a cell's result comes with the verdict, not on its own
    assert message_for(handle, CellResult(None, (), "", "")) is None
