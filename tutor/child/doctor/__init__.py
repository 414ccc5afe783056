"""The doctor's probe, inside the worker (it imports JAX): runs the learner's script with one
detector per kind of problem installed, and sends what they saw as data (tutor.protocol's
DoctorReport); the parent words it (tutor.doctor). `tutor.child.doctor_job` calls `examine()`.

- `probe.py`: examine(): installs the detectors, runs the script, groups their findings.
- `as_main.py`: runs the script as `__main__` with its argv; `hooks.py`: patches and their undo.
- `script_code.py` (no JAX): the script as code (its frames, its functions' bytecode, its
  loops). Every file:line is resolved there, so it points into the script, never into JAX.
- one module per detector: `retraces.py`, `keys.py`, `side_effects.py`, `donation.py`,
  `host_sync.py`, `nans.py`, `crashes.py`.
- the worker it runs in has imported JAX but made no backend (tutor.child.worker --doctor), so
  the script's own XLA_FLAGS / jax_num_cpu_devices still count.

What each detector sees (verified on JAX 0.10.2 and 0.12.0.1 by tests/worker/test_doctor.py)
----------------------------------------------------------------------------------
retrace       JAX's own words: `jax_explain_cache_misses` logs "TRACING CACHE MISS" on the
              `jax._src.interpreters.partial_eval` logger in both versions (read with a handler,
              never printed). Counted for the script's functions traced from eager code (a jit
              nested in another trace retraces with its caller). Reasons: weak type -> strong
              (flagged at the first retrace), shape / dtype, PyTree structure, static value (3+
              retraces, so a train/eval pair is not flagged), a new function object on the same
              line (jit inside a loop, 2+). On 0.12 a changed static argument is explained as
              "cache miss explanation unavailable": reported as an unexplained retrace.
key-reuse     Not `jax_debug_key_reuse`: it raises (the script would stop), sees typed keys only
              and on 0.10.2 misses reuse across jitted calls. Instead the public jax.random
              consumers (split, normal, ... not fold_in, which JAX's checker treats as a source)
              report the key's bits each time they run: read directly when eager, through
              `jax.debug.callback` inside jit / scan / vmap. A key is reused when its bits are
              consumed more often than PRNGKey / key made them. Typed and raw uint32 keys.
              Cannot see consumers called inside libraries through jax._src; `jax.checkpoint`
              may replay a callback. A jitted function that consumes a key carries a host
              callback, so it is dispatched by JAX's Python path (slower per call).
side-effect   print: builtins.print called from the script while JAX stages a jaxpr (jit, scan
              bodies). Globals: the script's module globals are snapshotted (shallowly) when a
              top-level trace of one of its functions starts and compared when it ends
              (jax.monitoring's trace-duration event); a change counts only if the traced
              function's own bytecode (with nested functions) stores that global, loads the
              changed name, or stores the changed attribute. Cannot see objects not reachable
              from module globals (locals of main()), callable objects, or helpers defined
              outside the traced function.
donation      JAX's "donated buffers were not usable" warning, caught at warnings.warn before
              any filter; an array used after donation ends the script with JAX's RuntimeError,
              reported at the script's line.
host-sync     float / int / .item() / .tolist() / __array__ / str / repr / format (print(x),
              f"{x}") on a jax Array, np.asarray / np.array of one, and jax.device_get, called
              directly from a script line (a pull made inside another counts once); flagged
              when one line pulls 20+ times and runs on every pass of its innermost loop (not
              under an if / else / try handler inside it; a helper's line is judged by its
              caller's loop).
crash         the script ended with an error the chapter teaches: in-place assignment into a
              JAX array, ConcretizationTypeError, TracerBoolConversionError,
              UnexpectedTracerError (or a leaked tracer passed to an op), KeyReuseError (which
              then replaces the key-reuse finding at that line); at the script's innermost line.
nan (--nans)  `jax_debug_nans` + `jax_debug_infs`: the script stops at the first NaN / inf;
              the primitive comes from JAX's message, the line from the script's frame.
"""
