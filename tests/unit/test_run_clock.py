"""The phase clock of a run (tutor.sandbox.run._Clock): which deadline holds in each phase."""

from __future__ import annotations

from tutor.sandbox.run import STOP_GRACE_S, _Clock


def test_starting_holds_the_start_up_bound_then_running_the_time_limit_then_stopping_the_grace():
    clock = _Clock(timeout=10.0, startup_deadline=50.0)
    assert (clock.phase, clock.deadline()) == ("starting", 50.0)
    clock.ready_at = 3.0  # the worker said ready: learner code runs from here
    assert (clock.phase, clock.deadline()) == ("running", 13.0)
    clock.stop_asked_at = 13.0  # a doctor worker asked to stop at its time limit
    assert (clock.phase, clock.deadline()) == ("stopping", 13.0 + STOP_GRACE_S)


def test_the_time_limit_counts_from_ready_not_from_the_start():
    """A worker slow to start does not eat into the learner's time."""
    late = _Clock(timeout=10.0, startup_deadline=50.0, ready_at=40.0)
    assert late.deadline() == 50.0 and late.phase == "running"
