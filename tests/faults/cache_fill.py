"""Fault: 1.2 GiB written into JAX's compilation cache folder (outside the run folder, and
writable by the worker: JAX writes there), then a wrong answer. The reaper counts what a run adds
there in its disk bound, ends the run, and removes what it added."""
import os

import jax

folder = jax.config.jax_compilation_cache_dir
block = b"x" * 2**22
for n in range(4):
    with open(os.path.join(folder, f"faultmark-cache-fill-{n}.bin"), "wb") as f:
        for _ in range(75):  # 300 MiB each
            f.write(block)
print("written into", folder)


def update_counter(count, increment):
    return count, increment  # wrong: never counts up
