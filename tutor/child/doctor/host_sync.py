"""Detector: a device value pulled to the host on every step. float / int / complex / .item() /
.tolist() / __array__ / str / repr / format (print(x), f"{x}") on a jax Array; its truth value
(`if loss < best:`, `while not done`, `and` / `or`, max() of arrays: a comparison makes an array
on the device, and `if` reads it back); its use as an index (`names[i]`, `range(n)`); iterating
it where that copies it to the host (`for row in x` over an array sharded unevenly: on one
device, iteration slices on the device and pulls nothing); np.asarray / np.array of one, and
jax.device_get, called directly from a script line; flagged when one line
pulls HOST_SYNC_MIN+ times and runs on every pass of its innermost loop (a helper's line is
judged by its caller's loop). A pull made inside another (str() reading the array through
np.asarray) counts once, as the outer one. Its cost is the time the script waited in the pulls
at that line: the device's queue drained (the loop could not run ahead), then the copy. A loop
that runs no jitted function of the learner's and whose pulls made the process work less than
DISPLAY_S in all (str() of 25 predictions for plot titles) is not a per-step sync."""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections import Counter, defaultdict

import numpy as np

from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.retraces import Retraces
from tutor.child.doctor.script_code import ScriptCode
from tutor.protocol import Finding

# The methods of a jax Array that copy it to Python / NumPy, and how a finding names each.
HOST_PULLS = {
    "__float__": "float()",
    "__int__": "int()",
    "__complex__": "complex()",
    "__bool__": "if / bool()",
    "__index__": "index / range()",
    "item": ".item()",
    "__array__": "np.asarray()",
    "tolist": ".tolist()",
    "__format__": "f-string / format()",
    "__str__": "print() / str()",
    "__repr__": "repr()",
}
# np.asarray / np.array read a jax Array through the buffer protocol, never __array__
NUMPY_PULLS = {"asarray": "np.asarray()", "array": "np.array()"}
HOST_SYNC_MIN = 20  # pulls at one line before a per-step pull is worth a finding
# a loop that runs no jitted function of the learner's (labels for 25 subplots) whose pulls made
# the process work less than this in all has nothing to gain from keeping values on the device.
# Judged in CPU time on the CPU backend, not wall time: a pull's wall time counts every moment the
# process sat descheduled, so on a loaded machine (load 20 on 2 cores) 25 str() of ready values
# (1 ms of work) took over 10 ms and were called a stall; the CPU time of the process counts only
# the work the pulls made (the device's computing on its threads, the copy, the formatting), the
# same at any load. On an accelerator the device's work is not the host's CPU: wall time there.
DISPLAY_S = 0.01


def _experimental():
    try:
        from jax import experimental

        return experimental
    except ImportError:
        return None


class HostSync:
    def __init__(self, code: ScriptCode, retraces: Retraces):
        self.code = code
        self.retraces = retraces
        self.pulls: Counter = Counter()  # (file, function, line, how) -> n
        # (file, function, line) -> the learner's frames outwards, as (file, function, line)
        self.chains: dict[tuple[str, str, int], list[tuple[str, str, int]]] = {}
        self.waited: defaultdict[tuple[str, str, int], float] = defaultdict(float)  # site -> seconds
        # site -> the process's CPU seconds during its pulls (DISPLAY_S is judged in these)
        self.worked: defaultdict[tuple[str, str, int], float] = defaultdict(float)
        self._inside = threading.local()  # a pull in progress: the pulls it makes are not counted again

    def _pulled(self, how: str, call, *a, **k):
        """Run a pull; counted, with the time it waited, if the script itself made it and no
        pull is in progress."""
        site = None
        if getattr(self._inside, "depth", 0) == 0:
            frame = sys._getframe(2)
            if self.code.owns(frame.f_code.co_filename):
                site = self._on_pull(frame, how)
        self._inside.depth = getattr(self._inside, "depth", 0) + 1
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return call(*a, **k)
        finally:
            self._inside.depth -= 1
            if site is not None:  # the pull's time: the device's queue drained, then the copy
                self.waited[site] += time.perf_counter() - start
                self.worked[site] += time.process_time() - cpu

    def install(self, hooks: Hooks) -> None:
        import jax
        from jax._src.array import ArrayImpl

        for name, how in HOST_PULLS.items():
            original = ArrayImpl.__dict__[name]

            def pull(array, *a, _original=original, _how=how, **k):
                return self._pulled(_how, _original, array, *a, **k)

            functools.update_wrapper(pull, original)
            hooks.patch(ArrayImpl, name, pull)
        iterate = ArrayImpl.__dict__["__iter__"]

        def iterate_pulled(array, *a, **k):
            # One device (or every shard alike): slices made on the device, nothing read back.
            try:
                on_device = array.ndim == 0 or array.sharding.num_devices == 1 or array.is_fully_replicated
            except Exception:  # noqa: BLE001 - a deleted array: let JAX say so
                on_device = True
            if not on_device:
                return self._pulled("for ... in array", iterate, array, *a, **k)
            frame = sys._getframe(1)
            if array.ndim != 1 or getattr(self._inside, "depth", 0) or not self.code.owns(frame.f_code.co_filename):
                return iterate(array, *a, **k)
            # a vector walked in Python (sum(losses), list(x), for v in x): one device value and
            # one dispatch per element, each op after it waiting on the last; timed as it is walked,
            # and counted per element handed out, as a loop of float(x[i]) would be
            how = "sum() / list() / for over an array"
            return self._walked(iterate(array, *a, **k), self._on_pull(frame, how), how)

        functools.update_wrapper(iterate_pulled, iterate)
        hooks.patch(ArrayImpl, "__iter__", iterate_pulled)
        for name, how in NUMPY_PULLS.items():
            original = getattr(np, name)

            def convert(obj, *a, _original=original, _how=how, **k):
                if isinstance(obj, ArrayImpl):
                    return self._pulled(_how, _original, obj, *a, **k)
                return _original(obj, *a, **k)

            functools.update_wrapper(convert, original)
            hooks.patch(np, name, convert)
        # A host callback (jax.debug.callback, pure_callback, io_callback) runs inside one compiled
        # call with its operands already copied out: its prints are no loop's sync. Not counted.
        for owner, name in ((jax.debug, "callback"), (jax, "pure_callback"), (_experimental(), "io_callback")):
            if owner is not None and callable(getattr(owner, name, None)):
                hooks.patch(owner, name, self._calling_back(getattr(owner, name)))
        device_get = jax.device_get

        def get(x, *a, **k):
            return self._pulled("jax.device_get()", device_get, x, *a, **k)

        functools.update_wrapper(get, device_get)
        hooks.patch(jax, "device_get", get)

    def _calling_back(self, original):
        inside = self._inside

        @functools.wraps(original)
        def callback(fn, *a, **k):
            if not callable(fn):
                return original(fn, *a, **k)

            @functools.wraps(fn)
            def called_back(*args, **kwargs):
                inside.depth = getattr(inside, "depth", 0) + 1  # its pulls are not the script's
                try:
                    return fn(*args, **kwargs)
                finally:
                    inside.depth -= 1

            return original(called_back, *a, **k)

        return callback

    def _walked(self, elements, site, how: str):
        """The array's elements, each one handed out after the first counted as a pull at `site`
        (`_on_pull` counted the walk's start), with the time taken to hand it out."""
        handed = 0
        while True:
            start, cpu = time.perf_counter(), time.process_time()
            self._inside.depth = getattr(self._inside, "depth", 0) + 1
            try:
                element = next(elements)
            except StopIteration:
                return
            finally:
                self._inside.depth -= 1
                self.waited[site] += time.perf_counter() - start
                self.worked[site] += time.process_time() - cpu
            if handed:
                self.pulls[(*site, how)] += 1
            handed += 1
            yield element

    def _on_pull(self, frame, how: str) -> tuple[str, str, int]:
        site = (frame.f_code.co_filename, frame.f_code.co_name, frame.f_lineno)
        self.pulls[(*site, how)] += 1
        if site not in self.chains:
            self.chains[site] = self.code.script_lines(frame)
        return site

    def _cost(self, site: tuple[str, str, int]) -> float:
        """What the pulls at a site cost, as DISPLAY_S is judged: the process's CPU seconds on the
        CPU backend (whatever the machine's load), the seconds waited on an accelerator."""
        import jax

        on_cpu = jax.default_backend() == "cpu"
        return self.worked.get(site, 0.0) if on_cpu else self.waited.get(site, 0.0)

    def findings(self, failure: BaseException | None) -> list[Finding]:
        per_site: Counter = Counter()
        via: dict[tuple[str, str, int], set[str]] = defaultdict(set)
        for (file, fn, line, how), n in self.pulls.items():
            per_site[(file, fn, line)] += n
            via[(file, fn, line)].add(how)
        out = []
        for site, n in per_site.items():
            if n < HOST_SYNC_MIN:
                continue
            file, _fn, line = site
            for outer_file, _outer_fn, outer_line in self.chains.get(site, [site]):
                loop = self.code.loop_around(outer_line, outer_file)
                if loop is None:
                    continue  # not in a loop in this function: look at its caller
                if loop.every_pass:
                    jitted = self.retraces.jitted_in(outer_file, loop.first, loop.last)
                    hows = tuple(sorted(via[site]))
                    shown = self.code.shown(file)
                    waited = round(self.waited.get(site, 0.0), 4)
                    if jitted is None and self._cost(site) < DISPLAY_S:
                        break  # no step of yours in that loop, and its pulls cost nothing: a display loop
                    out.append(
                        Finding(
                            "host-sync", "per-step", shown, line, function=jitted, count=n, via=hows, seconds=waited
                        )
                    )
                break
        return out
