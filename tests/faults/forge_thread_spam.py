"""Fault: a thread that sends a pass for every check, again and again, through the tutor's own
channel while the real checks run, then a wrong answer."""
import threading
import time

from tutor.child import channel
from tutor.i18n import Bilingual
from tutor.protocol import CheckResult

CHECKS = ("defines", "returns-pair", "counts-up", "increment-passthrough", "pure", "jit-once")


def _spam():
    for _ in range(2000):
        for check in CHECKS:
            channel.send(CheckResult(check, "pass", Bilingual.same("ok")))
        time.sleep(0.001)


threading.Thread(target=_spam, daemon=True).start()


def update_counter(count, increment):
    time.sleep(0.05)  # let the thread speak between the real results
    return count, increment  # wrong: never counts up
