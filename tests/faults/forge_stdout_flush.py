"""Fault: sys.stdout replaced by an object whose flush() (called after the last check) sends a pass
for every check through the tutor's own channel, then a wrong answer."""
import sys

from tutor.child import channel
from tutor.i18n import Bilingual
from tutor.protocol import CheckResult

CHECKS = ("defines", "returns-pair", "counts-up", "increment-passthrough", "pure", "jit-once")


class Forger:
    def __init__(self, real):
        self.real = real

    def write(self, text):
        return self.real.write(text)

    def flush(self):
        for check in CHECKS:
            channel.send(CheckResult(check, "pass", Bilingual.same("ok")))
        self.real.flush()


sys.stdout = Forger(sys.stdout)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
