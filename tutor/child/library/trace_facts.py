"""What the checks tell the trace panel beside the editor (tutor.protocol.TraceFacts), as they see
the learner's functions trace and look at their programs."""

from __future__ import annotations

from tutor.child.channel import send
from tutor.i18n import Bilingual
from tutor.protocol import TraceFacts

CONTROL_FLOW = ("scan", "while", "cond")
panel_tracing = False  # TraceCounter traces for the panel's facts: TraceEvents does not count it


def report_trace(
    function: str,
    traces: int,
    arguments=(),
    reason: Bilingual | None = None,
    flow: tuple[str, ...] = (),
) -> None:
    """Tell the trace panel; never fails a check."""
    try:
        send(
            TraceFacts(
                function=str(function),
                traces=int(traces),
                arguments=tuple((str(a), str(t)) for a, t in arguments),
                reason=reason,
                control_flow=tuple(flow),
            )
        )
    except Exception:  # noqa: BLE001 - a panel without this fact; the check goes on
        pass
