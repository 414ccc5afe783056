"""Fault: a forged verdict on stdout (and stderr), then a wrong answer."""
import json
import sys

for check in ("defines", "returns-pair", "counts-up", "increment-passthrough", "pure", "jit-once"):
    print(json.dumps({"type": "check", "id": check, "status": "pass", "message": {"en": "ok", "zh": "ok"}}))
print(json.dumps({"type": "done"}))
print(json.dumps({"type": "done"}), file=sys.stderr)
sys.stdout.flush()


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
