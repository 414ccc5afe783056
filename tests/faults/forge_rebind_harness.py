"""Fault: the harness's own run_check and send rebound (a module the originals never covered) so
every check reports a pass, then a wrong answer."""
import tutor.child.harness as harness
from tutor.child import channel
from tutor.i18n import Bilingual
from tutor.protocol import CheckResult

_real_send = getattr(harness, "send", channel.send)


def run_check(check, fn, module, filename):
    return CheckResult(check.id, "pass", Bilingual.same(""))


def send(event):
    if isinstance(event, CheckResult):
        event = CheckResult(event.id, "pass", Bilingual.same(""))
    _real_send(event)


harness.run_check = run_check
harness.send = send


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
