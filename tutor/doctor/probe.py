"""The doctor's probe: runs the learner's script with instrumentation on, in a process that
imports JAX (the worker), and turns what it saw into findings.

    python -m tutor.doctor.probe [--report PATH | --report-fd N] [--json] [--nans] [--lang en|zh]
                                 SCRIPT [ARGS...]

The script's own stdout and stderr pass straight through; the report goes to PATH (or fd N) as
one JSON object, or, with neither, to stderr after the script ends. SIGTERM and Ctrl+C stop the
script and still report what was seen so far. What each detector sees: tutor/doctor/__init__.py.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import io
import json
import logging
import os
import re
import runpy
import signal
import sys
import time
import traceback
import warnings
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import jax
import numpy as np

from tutor.doctor import retraces
from tutor.doctor.findings import Finding, Report, group
from tutor.doctor.report_text import render_text
from tutor.doctor.script_code import ScriptCode
from tutor.jax_signals import DONATION_UNUSABLE, TRACE_EVENT

# Host pulls: the methods of a jax Array that copy it to Python / NumPy.
HOST_PULLS = ("__float__", "__int__", "item", "__array__", "tolist")
NUMPY_PULLS = ("asarray", "array")
HOST_SYNC_MIN = 20  # pulls at one line before a per-step pull is worth a finding

# jax.random functions that consume their key. fold_in is left out on purpose: JAX's own
# checker treats it as a source only, and fold_in(base_key, step) is the idiomatic pattern.
KEY_CONSUMERS = (
    "split",
    "bits",
    "normal",
    "uniform",
    "bernoulli",
    "randint",
    "categorical",
    "permutation",
    "choice",
    "truncated_normal",
    "gumbel",
    "exponential",
    "gamma",
    "beta",
    "dirichlet",
    "laplace",
    "logistic",
    "poisson",
    "multivariate_normal",
    "cauchy",
    "t",
    "ball",
    "orthogonal",
    "rademacher",
    "maxwell",
    "double_sided_maxwell",
    "pareto",
    "weibull_min",
    "loggamma",
    "chisquare",
    "f",
    "geometric",
    "lognormal",
    "triangular",
    "rayleigh",
    "wald",
    "binomial",
    "generalized_normal",
    "multinomial",
)
KEY_MAKERS = ("PRNGKey", "key")

_NAN_IN = re.compile(r"encountered in (\S+?)[.:,]?(?:\s|$)")


PERSISTENT_CACHE_LOGGERS = ("jax._src.compiler", "jax._src.compilation_cache")


class _PersistentCacheChatter(logging.Filter):
    """Drops the persistent compilation cache's per-program messages (miss, hit, writing)."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = str(record.msg)
        return not (
            text.startswith(
                (
                    "PERSISTENT COMPILATION CACHE MISS",
                    "Persistent compilation cache hit",
                    "Not writing persistent cache entry",
                )
            )
            or "to persistent compilation cache" in text
        )


class Stopped(BaseException):
    """Raised in the script's thread on SIGTERM: stop, and still report."""


def _staging() -> bool:
    """Whether JAX is tracing into a jaxpr right now (jit, scan bodies...), not running eagerly:
    the current trace, or one it sits on (grad or vmap inside a jit), stages a jaxpr."""
    try:
        from jax._src import core
        from jax._src.interpreters import partial_eval as pe

        trace = core.trace_ctx.trace
        for _ in range(64):
            if trace is None:
                return False
            if isinstance(trace, pe.DynamicJaxprTrace):
                return True
            trace = getattr(trace, "parent_trace", None)
        return True
    except (ImportError, AttributeError):  # an older or newer JAX: fall back to "any trace"
        from jax._src import core

        return not core.trace_state_clean()


def _fingerprint(data) -> bytes:
    return np.asarray(data).tobytes()


@dataclass
class Snapshot:
    """The script's globals when a top-level trace began, shallowly: what each name is bound
    to, and the contents of containers / attributes of objects it holds."""

    function: str
    code: object
    bound: dict[str, int]
    contents: dict[str, tuple]


def _contents(value) -> tuple | None:
    if isinstance(value, (list, tuple)):
        return tuple(id(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, id(v)) for k, v in value.items() if isinstance(k, (str, int, float, tuple)))
    if isinstance(value, (set, frozenset)):
        return (len(value),)
    if isinstance(value, (type, type(sys), type(_contents))) or callable(value):
        return None
    attrs = getattr(value, "__dict__", None)
    if isinstance(attrs, dict):
        return tuple(sorted((k, id(v)) for k, v in attrs.items()))
    return None


@dataclass
class Observations:
    misses: list = field(default_factory=list)
    pulls: Counter = field(default_factory=Counter)  # (function, line, via) -> n
    pull_chains: dict = field(default_factory=dict)  # (function, line) -> script frames outwards
    prints: Counter = field(default_factory=Counter)  # (function, line) -> n
    effects: list = field(default_factory=list)  # Finding
    consumed: list = field(default_factory=list)  # (fingerprint, (function, line))
    made: Counter = field(default_factory=Counter)  # fingerprint -> times made by PRNGKey/key
    unusable: list = field(default_factory=list)  # (function, line, types)


class Probe:
    """Instrumentation around one run of one script. install(), run(), then report()."""

    def __init__(self, script: str, args: list[str], nans: bool = False):
        self.path = os.path.abspath(script)
        self.args = list(args)
        self.nans = nans
        self.code = ScriptCode(self.path)
        self.seen = Observations()
        self._undo: list = []
        self._pending: Snapshot | None = None
        self._globals: dict | None = None
        self._last_top: retraces.Miss | None = None
        self.failure: BaseException | None = None

    # ------------------------------------------------------------ install / uninstall

    def _patch(self, owner, name: str, value) -> None:
        old = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        setattr(owner, name, value)
        self._undo.append(lambda: setattr(owner, name, old))

    def install(self) -> None:
        self._install_retraces()
        self._install_host_pulls()
        self._install_print()
        self._install_keys()
        self._install_warnings()
        if self.nans:
            for option in ("jax_debug_nans", "jax_debug_infs"):
                old = jax.config.values.get(option, False)
                jax.config.update(option, True)
                self._undo.append(functools.partial(jax.config.update, option, old))

    def uninstall(self) -> None:
        while self._undo:
            try:
                self._undo.pop()()
            except Exception:  # noqa: BLE001 - undo everything we can
                pass

    def _install_retraces(self) -> None:
        probe = self

        class MissHandler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                try:
                    probe._on_miss(record.getMessage())
                except Exception:  # noqa: BLE001 - never break the learner's run
                    pass

        logger = logging.getLogger(retraces.LOGGER)
        handler = MissHandler(logging.WARNING)
        old_propagate, old_level = logger.propagate, logger.level
        logger.addHandler(handler)
        logger.propagate = False  # the script's own logging setup must not print JAX's explanations
        if logger.getEffectiveLevel() > logging.WARNING:
            logger.setLevel(logging.WARNING)

        def restore() -> None:
            logger.removeHandler(handler)
            logger.propagate = old_propagate
            logger.setLevel(old_level)

        self._undo.append(restore)
        # With a persistent compilation cache (the worker has one), jax_explain_cache_misses also
        # raises JAX's per-program cache messages to warnings: not the script's output, dropped.
        quiet = _PersistentCacheChatter()
        for name in PERSISTENT_CACHE_LOGGERS:
            logging.getLogger(name).addFilter(quiet)
            self._undo.append(functools.partial(logging.getLogger(name).removeFilter, quiet))
        old = jax.config.values.get("jax_explain_cache_misses", False)
        jax.config.update("jax_explain_cache_misses", True)
        self._undo.append(functools.partial(jax.config.update, "jax_explain_cache_misses", old))
        listener = self._on_event
        jax.monitoring.register_event_duration_secs_listener(listener)
        self._undo.append(lambda: jax.monitoring.unregister_event_duration_listener(listener))

    def _install_host_pulls(self) -> None:
        from jax._src.array import ArrayImpl

        for name in HOST_PULLS:
            original = ArrayImpl.__dict__[name]

            def pull(array, *a, _original=original, _how=name, **k):
                frame = sys._getframe(1)
                if self.code.owns(frame.f_code.co_filename):
                    self._on_pull(frame, _how)
                return _original(array, *a, **k)

            functools.update_wrapper(pull, original)
            self._patch(ArrayImpl, name, pull)
        # np.asarray / np.array read a jax Array through the buffer protocol, never __array__
        for name in NUMPY_PULLS:
            original = getattr(np, name)

            def convert(obj, *a, _original=original, _how=name, **k):
                if isinstance(obj, ArrayImpl):
                    frame = sys._getframe(1)
                    if self.code.owns(frame.f_code.co_filename):
                        self._on_pull(frame, _how)
                return _original(obj, *a, **k)

            functools.update_wrapper(convert, original)
            self._patch(np, name, convert)

    def _install_print(self) -> None:
        original = builtins.print

        def print_(*a, **k):
            frame = sys._getframe(1)
            if self.code.owns(frame.f_code.co_filename) and _staging():
                self.seen.prints[(frame.f_code.co_name, frame.f_lineno)] += 1
            return original(*a, **k)

        functools.update_wrapper(print_, original)
        self._patch(builtins, "print", print_)

    def _install_keys(self) -> None:
        random = jax.random
        for name in KEY_CONSUMERS:
            original = getattr(random, name, None)
            if original is None:
                continue
            self._patch(random, name, self._consumer(original))
        for name in KEY_MAKERS:
            original = getattr(random, name, None)
            if original is not None:
                self._patch(random, name, self._maker(original))

    def _consumer(self, original):
        probe = self

        @functools.wraps(original)
        def consume(key, *a, **k):
            frame = probe.code.frame_here()
            if frame is not None:
                try:
                    probe._watch_key(key, (frame.f_code.co_name, frame.f_lineno))
                except Exception:  # noqa: BLE001 - not a key we can read: leave it to JAX
                    pass
            return original(key, *a, **k)

        return consume

    def _maker(self, original):
        probe = self

        @functools.wraps(original)
        def make(*a, **k):
            key = original(*a, **k)
            if not _staging() and not isinstance(key, jax.core.Tracer):
                try:
                    data = jax.random.key_data(key) if _is_typed_key(key) else key
                    probe.seen.made[_fingerprint(data)] += 1
                except Exception:  # noqa: BLE001 - a key we cannot read is left to JAX; never break the script
                    pass
            return key

        return make

    def _watch_key(self, key, site) -> None:
        """Report the key's bits each time this consumption actually runs (eagerly, or as a
        callback inside compiled code), so that reuse is judged on values, across calls."""
        data = jax.random.key_data(key) if _is_typed_key(key) else key
        if not hasattr(data, "dtype") or data.dtype != np.uint32:
            return
        seen = self.seen.consumed
        if isinstance(data, jax.core.Tracer):
            jax.debug.callback(lambda bits: seen.append((_fingerprint(bits), site)), data)
        else:  # eager: read the bits now, no callback to dispatch
            seen.append((_fingerprint(data), site))

    def _install_warnings(self) -> None:
        original = warnings.warn

        def warn(message, category=None, stacklevel=1, *a, **k):
            try:
                text = str(message)
                found = DONATION_UNUSABLE.search(text)
                if found:
                    frame = self.code.frame_here()
                    if frame is not None:
                        # it warns while compiling the call that just traced: name that function
                        top = self._last_top
                        name = top.name if top and top.call_line == frame.f_lineno else frame.f_code.co_name
                        self.seen.unusable.append((name, frame.f_lineno, found.group(1).strip()))
            except Exception:  # noqa: BLE001 - reading the warning must never break the script
                pass
            return original(message, category, stacklevel + 1, *a, **k)

        functools.update_wrapper(warn, original)
        self._patch(warnings, "warn", warn)

    # ------------------------------------------------------------ observations

    def _on_miss(self, message: str) -> None:
        miss = retraces.parse(message)
        if miss is None:
            return
        if _staging():
            return  # traced as part of an outer trace: that outer function is what retraced
        self.seen.misses.append(miss)
        self._close_snapshot()
        if not self.code.owns(miss.def_file):
            return
        self._last_top = miss
        frame = self.code.frame_here()
        if frame is not None:
            self._globals = frame.f_globals
        code = self.code.function(miss.name, miss.def_line)
        if self._globals is not None and code is not None:
            self._pending = Snapshot(
                miss.name,
                code,
                {n: id(v) for n, v in self._globals.items()},
                {n: c for n, v in self._globals.items() if (c := _contents(v)) is not None},
            )

    def _on_event(self, event: str, duration: float, **kwargs) -> None:
        if event == TRACE_EVENT and not _staging():
            self._close_snapshot()

    def _close_snapshot(self) -> None:
        """Compare the globals with the snapshot of the trace that just ended; keep only what the
        traced function's own code touches (a STORE_GLOBAL, a load of the changed name, an
        attribute store), so that eager code running meanwhile is never blamed."""
        snap, self._pending = self._pending, None
        if snap is None or self._globals is None:
            return
        now = self._globals
        for name, ident in snap.bound.items():
            if name not in now or name.startswith("__"):
                continue
            value = now[name]
            if id(value) != ident:
                lines = self.code.lines_of(snap.code, ("STORE_GLOBAL", "STORE_NAME"), name)
                if lines:
                    self.seen.effects.append(
                        Finding("side-effect", snap.function, self.code.name, lines[0], 1, "global", {"name": name})
                    )
                continue
            before = snap.contents.get(name)
            after = _contents(value)
            if before is None or after is None or before == after:
                continue
            lines = self.code.lines_of(snap.code, ("LOAD_GLOBAL", "LOAD_NAME"), name)
            if not lines and isinstance(getattr(value, "__dict__", None), dict):
                changed = {k for k, v in dict(after).items() if dict(before).get(k) != v} | (
                    set(dict(before)) - set(dict(after))
                )
                for attr in sorted(changed):
                    lines += self.code.lines_of(snap.code, ("STORE_ATTR",), attr)
                name = f"{name}.{sorted(changed)[0]}" if changed else name
            if lines:
                self.seen.effects.append(
                    Finding("side-effect", snap.function, self.code.name, min(lines), 1, "mutation", {"name": name})
                )

    def _on_pull(self, frame, via: str) -> None:
        key = (frame.f_code.co_name, frame.f_lineno)
        self.seen.pulls[(*key, via)] += 1
        if key not in self.seen.pull_chains:
            self.seen.pull_chains[key] = self.code.script_lines(frame)

    # ------------------------------------------------------------ running

    def run(self) -> int | None:
        """Run the script as __main__ with its arguments; return its exit code (None if stopped)."""
        old_argv, old_path0 = sys.argv, sys.path[0] if sys.path else None
        sys.argv = [self.path, *self.args]
        if sys.path:
            sys.path[0] = os.path.dirname(self.path)
        try:
            runpy.run_path(self.path, run_name="__main__")
            return 0
        except SystemExit as exc:
            code = exc.code
            if code is None:
                return 0
            if isinstance(code, int):
                return code
            print(code, file=sys.stderr)
            return 1
        except KeyboardInterrupt as exc:
            self.failure = exc
            return 130
        except Stopped as exc:
            self.failure = exc
            return None
        except BaseException as exc:  # noqa: BLE001 - the script's own failure, shown like Python would
            self.failure = exc
            tb = exc.__traceback__
            while tb is not None and not self.code.owns(tb.tb_frame.f_code.co_filename):
                tb = tb.tb_next  # start the traceback at the script, as Python would
            traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
            return 1
        finally:
            sys.argv = old_argv
            if old_path0 is not None:
                sys.path[0] = old_path0
            try:
                jax.effects_barrier()  # key callbacks still in flight
            except Exception:  # noqa: BLE001 - the script may have broken the runtime; the report still comes
                pass
            self._close_snapshot()

    # ------------------------------------------------------------ findings

    def findings(self) -> list[Finding]:
        name, owns = self.code.name, self.code.owns
        found = retraces.findings(self.seen.misses, name, owns)
        found += self.seen.effects
        found += [Finding("side-effect", fn, name, line, n, "print") for (fn, line), n in self.seen.prints.items()]
        found += self._key_findings()
        found += [
            Finding("donation", fn, name, line, 1, "unusable", {"types": types})
            for fn, line, types in self.seen.unusable
        ]
        found += self._host_sync_findings()
        found += self._failure_findings()
        for f in found:
            if f.function == "<module>":
                f.function = None  # top-level code: no function to name
        return group(found)

    def _key_findings(self) -> list[Finding]:
        uses: dict[bytes, list] = defaultdict(list)
        for bits, site in self.seen.consumed:
            uses[bits].append(site)
        out = []
        for bits, sites in uses.items():
            allowed = max(1, self.seen.made.get(bits, 0))
            for fn, line in sites[allowed:]:
                out.append(Finding("key-reuse", fn, self.code.name, line, 1, "reused", {"first_line": sites[0][1]}))
        return out

    def _jitted_in(self, first: int, last: int) -> str | None:
        """The script's jitted function first called within these lines (a loop), if any."""
        for m in self.seen.misses:
            if self.code.owns(m.def_file) and self.code.owns(m.call_file) and first <= m.call_line <= last:
                return m.name
        return None

    def _host_sync_findings(self) -> list[Finding]:
        per_site: Counter = Counter()
        via: dict = defaultdict(set)
        for (fn, line, how), n in self.seen.pulls.items():
            per_site[(fn, line)] += n
            via[(fn, line)].add(
                {
                    "__float__": "float()",
                    "__int__": "int()",
                    "item": ".item()",
                    "__array__": "np.asarray()",
                    "tolist": ".tolist()",
                    "asarray": "np.asarray()",
                    "array": "np.array()",
                }[how]
            )
        out = []
        for (fn, line), n in per_site.items():
            if n < HOST_SYNC_MIN:
                continue
            for _outer_fn, outer_line in self.seen.pull_chains.get((fn, line), [(fn, line)]):
                loop = self.code.loop_around(outer_line)
                if loop is None:
                    continue  # not in a loop in this function: look at its caller
                if loop.every_pass:
                    out.append(
                        Finding(
                            "host-sync",
                            self._jitted_in(loop.first, loop.last),
                            self.code.name,
                            line,
                            n,
                            "per-step",
                            {"via": ", ".join(sorted(via[(fn, line)]))},
                        )
                    )
                break
        return out

    def _failure_findings(self) -> list[Finding]:
        exc = self.failure
        if exc is None:
            return []
        text = str(exc)
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if self.code.owns(f.filename)]
        if not frames:
            return []
        last = frames[-1]
        if isinstance(exc, RuntimeError) and ("deleted" in text or "donated" in text):
            return [Finding("donation", last.name, self.code.name, last.lineno, 1, "deleted")]
        if self.nans and isinstance(exc, FloatingPointError):
            found = _NAN_IN.search(text)
            return [
                Finding(
                    "nan",
                    last.name,
                    self.code.name,
                    last.lineno,
                    1,
                    "first",
                    {"primitive": found.group(1) if found else "?"},
                )
            ]
        return []


def _is_typed_key(key) -> bool:
    dtype = getattr(key, "dtype", None)
    return dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key)


def examine(script: str, args: list[str] | None = None, nans: bool = False) -> Report:
    """Run one script under the probe in this process; its output goes where it normally goes,
    so the report's stdout / stderr stay empty for whoever captured the streams to fill in."""
    start = time.monotonic()
    probe = Probe(script, args or [], nans)
    probe.install()
    exit_code: int | None = None
    try:
        exit_code = probe.run()
    finally:
        probe.uninstall()
    report = Report(script=os.path.basename(script), exit_code=exit_code, duration_s=time.monotonic() - start)
    report.findings = probe.findings()
    report.traces = retraces.traces_per_function(probe.seen.misses, probe.code.owns)
    stopped = isinstance(probe.failure, Stopped)
    nan_stop = nans and isinstance(probe.failure, FloatingPointError) and report.findings
    failed = exit_code not in (0, 130) and not nan_stop and not stopped
    report.decide_status(failed=failed, timed_out=stopped)
    return report


def examine_captured(script: str, args: list[str] | None = None, nans: bool = False) -> Report:
    """examine(), with the script's Python-level stdout / stderr kept in the report (tests run
    several scripts in one process this way)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        report = examine(script, args, nans)
    report.stdout, report.stderr = out.getvalue(), err.getvalue()
    return report


def _parse(argv: list[str]) -> dict:
    opts = {"report": None, "report_fd": None, "json": False, "nans": False, "lang": "en"}
    i = 0
    while i < len(argv) and argv[i].startswith("--"):
        flag = argv[i]
        if flag in ("--json", "--nans"):
            opts[flag[2:]] = True
        elif flag in ("--report", "--report-fd", "--lang") and i + 1 < len(argv):
            opts[flag[2:].replace("-", "_")] = argv[i + 1]
            i += 1
        elif flag == "--":
            i += 1
            break
        else:
            raise SystemExit(f"unknown option {flag}")
        i += 1
    if i >= len(argv):
        raise SystemExit(
            "usage: python -m tutor.doctor.probe [--report PATH | --report-fd N] "
            "[--json] [--nans] [--lang en|zh] SCRIPT [ARGS...]"
        )
    opts["script"], opts["args"] = argv[i], argv[i + 1 :]
    return opts


def main(argv: list[str] | None = None) -> int:
    try:
        opts = _parse(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    if not os.path.isfile(opts["script"]):
        sys.stderr.write(f"no such script: {opts['script']}\n")
        return 2

    def stop(signum, frame):
        raise Stopped()

    signal.signal(signal.SIGTERM, stop)
    # Ctrl+C must stop the script and still report, even when this process inherited SIGINT
    # ignored (a tutor started as a background job of a non-interactive shell, as in CI).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    report = examine(opts["script"], opts["args"], opts["nans"])
    lang = opts["lang"] if opts["lang"] in ("en", "zh") else "en"
    payload = json.dumps(report.to_json(lang), ensure_ascii=False)
    sys.stdout.flush()
    if opts["report"]:
        with open(opts["report"], "w", encoding="utf-8") as f:
            f.write(payload + "\n")
    elif opts["report_fd"]:
        with os.fdopen(int(opts["report_fd"]), "w", encoding="utf-8") as f:
            f.write(payload + "\n")
    else:
        sys.stderr.write((payload if opts["json"] else render_text(report, lang)) + "\n")
    return report.cli_exit_code()


if __name__ == "__main__":
    sys.exit(main())
