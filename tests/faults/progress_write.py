"""Fault: overwriting the tutor's progress file with a forged "passed" record, then a wrong answer.

It tries every place the worker could have been told of: the environment, its command line,
JAX's configuration (the compilation cache folder) and its working folder; it overwrites a
progress.json only where one already is (a learner's home), never elsewhere."""
import json
import os
import sys

import jax

FORGED = {"schema": 1, "exercises": {"counter-jit": {"status": "passed", "attempts": 1}}}
places = [os.environ.get("JAXSTATE_TUTOR_HOME"), os.getcwd(), os.path.join(os.getcwd(), "..")]
if "--cache-dir" in sys.argv:  # the worker's own command line
    places.append(os.path.join(sys.argv[sys.argv.index("--cache-dir") + 1], "..", ".."))
cache = jax.config.jax_compilation_cache_dir
if cache:
    places += [os.path.join(cache, ".."), os.path.join(cache, "..", "..")]
targets = [os.path.join(p, "progress.json") for p in places if p and os.path.isfile(os.path.join(p, "progress.json"))]
for target in targets:
    with open(target, "w") as f:
        json.dump(FORGED, f)
print("forged:", targets)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
