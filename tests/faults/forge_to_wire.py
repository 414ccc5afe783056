"""Fault: the class method CheckResult.to_wire replaced so every result goes out as a pass (classes
were never put back), then a wrong answer."""
from tutor.protocol import CheckResult, Message

_real = Message.to_wire


def to_wire(self):
    wire = _real(self)
    wire["status"], wire["message"] = "pass", {"en": "", "zh": ""}
    return wire


CheckResult.to_wire = to_wire


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
