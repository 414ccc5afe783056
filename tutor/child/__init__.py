"""The child side of a run: everything that executes inside a worker process, with JAX.

worker (the process's main), channel (the event pipe), lifeline (dying with the tutor),
harness (loading learner code, running checks, cells and doctor jobs), library (what check
code calls). Talks to the parent only through tutor.protocol; the parent never imports it.
"""
