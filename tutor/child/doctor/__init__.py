"""The doctor's probe, inside the worker (it imports JAX): runs the learner's script with one
detector per kind of problem installed, and sends what they saw as data (tutor.protocol's
DoctorReport); the parent words it (tutor.doctor). `tutor.child.doctor_job` calls `examine()`.

- `probe.py`: examine(): installs the detectors, runs the script, groups their findings.
- `as_main.py`: runs the script as `__main__` with its argv; `hooks.py`: patches and their undo.
- `owners.py`: whether a finding's cause lies inside a library the learner called.
- `arguments.py`: the arguments of a call that traced, and what differs between two such calls.
- `script_code.py` (no JAX): the learner's code, which is the script and every file under its
  folder that is not installed (its frames, its functions' bytecode, its loops, the function a
  library's jit wraps). Every file:line is resolved there, so it points into the learner's
  files ("model/mlp.py"), never into JAX or a library.
- one module per detector: `retraces.py`, `keys.py`, `side_effects.py`, `captured.py`,
  `donation.py`, `host_sync.py`, `nans.py`, `crashes.py`.
- the worker it runs in has imported JAX but made no backend (tutor.child.worker --doctor), so
  the script's own XLA_FLAGS / jax_num_cpu_devices still count.

What each detector sees (verified on JAX 0.10.2 and 0.12.0.1 by tests/worker/test_doctor.py)
----------------------------------------------------------------------------------
retrace       JAX's own words (for a library's jit, JAX names the library's frame and wrapper: the
              call is the learner's innermost frame, the function the one the wrapper wraps): `jax_explain_cache_misses` logs "TRACING CACHE MISS" on the
              `jax._src.interpreters.partial_eval` logger in both versions (read with a handler,
              never printed; the script's logging.disable / levels / dictConfig do not silence
              it). Counted for the script's functions traced from eager code (a jit
              nested in another trace retraces with its caller). The reason comes from the
              doctor's own comparison (`arguments.py`) of the call that retraced with the call
              that traced before it, read from the frame the learner's line called into (a
              weak type, a new shape, a new structure, a new object of the same class not
              equal to the last, a static value); JAX's explanation, which compares with its
              closest cached key, is the second witness and the reason where the comparison
              finds nothing (a tracing context, arguments it cannot read). Reasons: weak type -> strong
              (flagged at the first retrace), shape / dtype, PyTree structure, static value (3+
              retraces, so a train/eval pair is not flagged), a new function object of one
              function's code (counted by the code's place, not the object: jax.jit(partial(f,
              eps=e)) or a lambda in a loop, or a body made anew for lax.fori_loop / scan, 2+;
              JAX's "defined on the same line" is the second witness), placed at the line that
              calls jax.jit when that line built it 2+ times. pmap's traces are not in the log:
              the first call of a pmapped function of the learner's is its trace, and one
              pmapped for another callable of the same code (`jax.pmap(partial(update,
              clip=c))` in the loop; pmap caches by the callable) is a new function, placed at
              the line that calls jax.pmap; the
              explanation lists every difference JAX gives. On 0.12 a changed static argument is explained as
              "cache miss explanation unavailable": reported as an unexplained retrace.
              JAX's monitoring events witness every top-level trace: one of a function named like
              the learner's that the log never explained marks the report blinded ("logging"),
              and they time each function's tracing, lowering and compiling (the report's cost).
key-reuse     Not `jax_debug_key_reuse` (it raises, sees typed keys only, and on 0.10.2 misses
              reuse across jitted calls). The public jax.random consumers (and jax._src.random's,
              which jax.nn.initializers call) say which key they consume: eagerly, by its bits;
              inside a jitted function, by the argument it came from (or fold_in of arguments: an
              nnx.Rngs stream), and each call records that argument, read after the run, so no
              host callback is compiled in. A key closed over by a loop body (scan / fori_loop /
              while_loop), a key a body consumes from its carry and hands back unsplit, and one
              tracer consumed twice in one trace, are reused whatever their values. One root per
              reuse (keys split from a reused key are its finding); a key consumed at one line
              only, by calls that do not feed their result back and are not differentiated, is a
              constant kept on purpose: a note. Two keys made alike at one
              line (nnx.Rngs(params=0, dropout=0)) whose descendants are drawn from is a finding.
              A key made anew from one seed on every pass and fed to a step is reuse (at the
              line that makes it); a jitted step returning the key it consumed, at its return.
              A seed made again by another line (a demo cell) starts its chain over; a value
              and its own gradient drawn with one key are one use; a reuse names where the key
              was made.
              A reuse whose every use happened within one call the learner made into a library
              (numpyro's MCMC.run replays the model with its key while it seeks initial
              parameters) is the library's (`owners.py`): a note naming where inside it
              (`numpyro/infer/util.py:841`) at the learner's line that called in; the same key
              handed to a library twice (two calls) stays the learner's finding.
              Cannot see: a key split inside a jitted function and consumed twice there by value
              (not the same tracer); keys of calls beyond the first 50,000 watched.
side-effect   print: builtins.print called from the script while JAX stages a jaxpr (jit, scan
              bodies). State: the script's module globals, the locals of the learner's frames
              that called the jitted function (main()'s `config`), what the function closes
              over and its `self`, are snapshotted (shallowly) when a top-level trace of one of
              its functions starts and compared when it ends (jax.monitoring's trace-duration
              event); a change counts only if the traced function's own bytecode (with nested
              functions) stores that name (global, nonlocal), loads the changed name, or stores
              the changed attribute. An iterator advanced under trace (a generator, iter(list))
              is its own finding: the batch was taken once. A static `self` with the default
              identity hash whose attributes the traced code reads is watched at the hash JAX
              takes on every call: a change after its trace is a stale cache (each call that ran
              the old program counted). Cannot see: callable objects' state, objects reached
              only through other objects' attributes (deeper than one level), helpers defined
              outside the traced function changing locals of another function.
captured      (side-effect/captured) a module global, a closed-over value, or one attribute /
              constant key of either (config.scale, CONFIG["lr"]) that a top-level trace read
              (the traced code and the learner's helpers it calls by global name, 2 deep), with
              its value then; each later call of that jitted function (jax.jit, jax.pmap, a
              library's jit through them) that did not trace again counts the ones changed since
              (numbers and strings by value, the rest by identity). At the line that wrote the
              new value (the first binding excluded; for a constant key, any `X["lr"] = ...` of
              the learner's, since the dict is often written by another name than the one the
              trace read), the read named beside it. Not watched:
              modules, classes, functions, library callables, attributes a property computes.
donation      JAX's "donated buffers were not usable" warning, caught at warnings.warn before
              any filter; an array used after donation ends the script with JAX's RuntimeError,
              reported at the script's line; one array donated twice ("donate the same buffer
              twice") is reported at the call with the leaves that share it, by path.
host-sync     float / int / complex / .item() / .tolist() / __array__ / str / repr / format
              (print(x), f"{x}"), the truth value (`if loss < best:`), use as an index, iteration
              that copies to the host (not on one device) of a jax Array, a vector walked in
              Python (sum(x), list(x), history.extend(x), for v in x: one device value and
              dispatch per element, each counted as a pull, timed as it is walked), np.asarray / np.array
              of one, and jax.device_get, called
              directly from a script line (a pull made inside another counts once); flagged
              when one line pulls 20+ times and runs on every pass of its innermost loop (not
              under an if / else / try handler inside it; a helper's line is judged by its
              caller's loop; a pmapped function's calls count as a step). Not counted: pulls
              inside a host callback (jax.debug.callback, pure_callback, io_callback: inside
              one compiled call, its operands already copied). Its cost: the time the script waited in those pulls; a retrace's,
              the time its traces beyond the first took to make; findings come costliest first.
              On an accelerator, JAX's device-to-host transfer guard ("log_explicit", its lines
              read from fd 2 and kept out of the script's stderr) is a second witness
              (`transfers.py`): more copies than the hooks placed is said as a blind spot. Not
              installed on the CPU, where the guard sees nothing.
crash         the script ended with an error the chapter teaches: in-place assignment into a
              JAX array, ConcretizationTypeError, TracerBoolConversionError,
              UnexpectedTracerError (or a leaked tracer passed to an op), KeyReuseError (which
              then replaces the key-reuse finding at that line); at the script's innermost line.
nan (--nans)  `jax_debug_nans` + `jax_debug_infs`: the script stops at the first NaN / inf;
              the primitive comes from JAX's message, the line from the script's frame.
"""
