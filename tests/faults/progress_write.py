"""Fault: overwriting the tutor's progress file with a forged "passed" record, then a wrong answer."""
import json
import os
import sys

FORGED = {"schema": 1, "exercises": {"counter-jit": {"status": "passed", "attempts": 1}}}
targets = []
if os.environ.get("JAXSTATE_TUTOR_HOME"):
    targets.append(os.path.join(os.environ["JAXSTATE_TUTOR_HOME"], "progress.json"))
if "--cache-dir" in sys.argv:  # the worker's own command line names a folder inside the home
    targets.append(os.path.join(sys.argv[sys.argv.index("--cache-dir") + 1], "..", "..", "progress.json"))
for target in targets:
    with open(target, "w") as f:
        json.dump(FORGED, f)
print("forged:", targets)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
