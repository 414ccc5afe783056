"""Detector: the script's jitted functions traced again, from JAX's own words. With
`jax_explain_cache_misses` on, JAX logs a "TRACING CACHE MISS" explanation of every trace
(logger `jax._src.interpreters.partial_eval` on JAX 0.10.2 and 0.12.0.1); a log handler reads
them, never prints them. The other detectors ask this one which function is being traced.

The script's own logging setup must not blind it: `logging.disable(...)`, a level raised on the
`jax` loggers, `dictConfig` disabling existing loggers all stop a record before any handler, so
that one logger answers "enabled" for warnings whatever the script set (its other levels as set).
JAX's monitoring events are a second witness: a top-level trace of a function named like one of
the learner's that the log never explained means the detector was blinded anyway (the report says
so, instead of "no jitted function of yours was traced"). The same events give what each of the
learner's functions cost: its tracing, lowering and compiling time, all its traces together.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import logging
import os
import re
import sys
import types
import weakref
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import jax

from tutor.child.doctor import arguments
from tutor.child.doctor.arguments import Change
from tutor.child.doctor.hooks import Hooks, asks_donation, staging
from tutor.child.doctor.script_code import ScriptCode
from tutor.jax_signals import TRACE_EVENT
from tutor.protocol import Finding, FindingCode, TraceCount

LOGGER = "jax._src.interpreters.partial_eval"
MARK = "TRACING CACHE MISS"

_HEAD = re.compile(r"TRACING CACHE MISS at (?P<file>.+?):(?P<line>\d+)(?::\d+)? \((?P<caller>[^)]*)\):")
_NEW = re.compile(r"never seen function:\s*\n\s*(?P<name>\S+) id=\d+ defined at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_SEEN = re.compile(r"^\s*for (?P<name>\S+) defined at (?P<file>.+?):(?P<line>\d+)\s*$", re.M)
_URL = re.compile(r"https?://\S+")
_STATIC = re.compile(
    r"at input path (?P<path>\S+), now .*?Static\(val=(?P<now>.*?)\) and before .*?"
    r"Static\(val=(?P<before>.*?)\)"
)

# How many retraces of one function for one reason before it is worth a finding. A function
# compiled for two static flags, or for the train batch and then the eval set, is idiomatic;
# a weak-typed start retraces once and is always a mistake.
THRESHOLD: dict[str, int] = {
    "weak-type": 1,
    "shape": 3,
    "structure": 3,
    "static": 3,
    "unexplained": 3,
    "new-function": 2,
}


@dataclass(frozen=True)
class Miss:
    """One trace of a jitted function, as JAX explained it."""

    name: str
    def_file: str
    def_line: int
    call_file: str
    call_line: int
    first: bool  # never seen before (the first trace, or a new function object)
    same_line: bool  # ... while another function defined on this line was seen: re-created
    reason: (
        FindingCode | None
    )  # weak-type | shape | structure | static | unexplained | new-function; None: a first trace
    explanation: str  # JAX's own words for the difference, one line
    # the doctor's own comparison with the previous trace's call (arguments.Change), most decisive first
    changes: tuple[Change, ...] = ()


def parse(message: str) -> Miss | None:
    """A Miss from one log message, or None if it is not a cache-miss explanation."""
    head = _HEAD.search(message)
    if head is None:
        return None
    new, seen = _NEW.search(message), _SEEN.search(message)
    match = new or seen
    if match is None:
        return None
    first = new is not None
    same_line = first and "defined on the same line" in message
    diff = message[match.end() :] if not first else ""
    reason: FindingCode | None
    reason, explanation = ("new-function" if same_line else None, "") if first else classify(diff)
    return Miss(
        match["name"],
        match["file"],
        int(match["line"]),
        head["file"],
        int(head["line"]),
        first,
        same_line,
        reason,
        explanation,
    )


_OBJECT = re.compile(r"<(?:function (?P<fn>[\w.<>]+)|(?P<cls>[\w.]+) object) at (?P<at>0x[0-9a-f]+)>")


_ARG_PATH = re.compile(r"^\[(?P<kind>[01])\]\[(?P<which>\d+|'[^']+')\](?P<rest>.*)$")


def _argument(path: str) -> str:
    """JAX's input path as the call wrote it: [0][2] (args, then the third) -> 3, [1]['lr']
    (kwargs) -> `lr`; anything else as JAX gave it."""
    m = _ARG_PATH.match(path)
    if m is None:
        return path
    which = m["which"]
    name = str(int(which) + 1) if m["kind"] == "0" and which.isdigit() else f"`{which.strip(chr(39))}`"
    return name + (f" at {m['rest']}" if m["rest"] else "")


def _remade(before: str, now: str) -> list[str]:
    """The objects (by name) a static value holds anew: the same names, other addresses."""
    was = [(m["fn"] or m["cls"], m["at"]) for m in _OBJECT.finditer(before)]
    new = [(m["fn"] or m["cls"], m["at"]) for m in _OBJECT.finditer(now)]
    if len(was) != len(new) or [n for n, _ in was] != [n for n, _ in new]:
        return []
    names = [n for (n, a), (_, b) in zip(was, new) if a != b]
    return list(dict.fromkeys(names))[:3]


_TYPES = re.compile(r"^at (?P<path>.+?), now (?P<now>.+?) and before (?P<before>.+)$")
_AVAL = re.compile(r"^(?P<dtype>[a-z]+\d*)\[(?P<shape>[^\]]*)\]")


def _aval(text: str) -> tuple[str, bool] | None:
    """("f32[3]", weak) from JAX's spelling of an input type, or None if it is not one."""
    m = _AVAL.match(text.strip())
    if m is None:
        return None
    return f"{m['dtype']}[{m['shape']}]", "weak_type=True" in text


def _difference(line: str) -> tuple[str, set[str]]:
    """One of JAX's starred differences, short (`x: f32[]{weak_type} -> f32[3]`), and what it
    changes: {"shape"} (shape or dtype), {"weak"}, both, or {"other"} (said as JAX said it)."""
    m = _TYPES.match(line)
    now, before = (_aval(m["now"]), _aval(m["before"])) if m else (None, None)
    if m is None or now is None or before is None:
        return line, {"other"}
    changed = ({"shape"} if now[0] != before[0] else set()) | ({"weak"} if now[1] != before[1] else set())

    def spelled(aval: tuple[str, bool]) -> str:
        return aval[0] + ("{weak_type}" if aval[1] else "")

    return f"{m['path']}: {spelled(before)} -> {spelled(now)}", changed or {"other"}


def classify(diff: str) -> tuple[FindingCode, str]:
    """(reason, JAX's explanation in one line) from the part of a message after "for f ...".
    Every difference JAX lists is in the explanation (`x: f32[]{weak_type} -> f32[3]; y: f32[3]
    -> f32[4]`). A weak type that changed is the reason even when a shape changed with it (a start
    state made as a Python number: retraced once, a mistake at once), and the explanation names both."""
    lines = [ln.strip() for ln in diff.splitlines() if ln.strip()]
    starred = [_URL.sub("", ln.lstrip("* ")).strip() for ln in lines if ln.startswith("*")]
    explanation = _URL.sub("", starred[0] if starred else (lines[-1] if lines else "")).strip()
    static = _STATIC.search(explanation)
    changed: set[str] = set()
    if static:  # JAX 0.10 spells a static value out as pytree metadata: say it plainly
        now_part, _, before_part = explanation.partition(" and before ")  # whole: the groups stop at a ")"
        remade = _remade(before_part, now_part)
        if remade:  # a library's static part (eqx.filter_jit's): name what changed in it
            explanation = (
                f"a static (non-array) argument holds a new object on every call ({', '.join(remade)}), "
                "never equal to the one before"
            )
        else:
            explanation = f"static argument {_argument(static['path'])} was {static['before']}, now {static['now']}"
    elif starred:
        said = [_difference(line) for line in starred]
        explanation = "; ".join(dict.fromkeys(text for text, _ in said))
        changed = {c for _, kinds in said for c in kinds}
    if len(explanation) > 300:
        explanation = explanation[:297] + "..."
    text = "\n".join(lines)
    if "Static(" in text or "static" in text.lower():
        return "static", explanation
    if "different input types" in text and "weak" in changed:
        return "weak-type", explanation
    if "different input types" in text:
        return "shape", explanation
    if "weak_type=" in text:
        return "weak-type", explanation
    if "different input pytree" in text:
        return "structure", explanation
    return "unexplained", ""


_JAX_DIR = os.path.dirname(os.path.abspath(jax.__file__)) + os.sep


def traced_function() -> object | None:
    """The function JAX is tracing, read from its cache-miss explainer's frame (`explain(keys,
    fun, ...)` in partial_eval on JAX 0.10.2 and 0.12) while that frame logs; None elsewhere."""
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "explain" and frame.f_code.co_filename.endswith("partial_eval.py"):
            return frame.f_locals.get("fun")
        frame = frame.f_back
    return None


def made_by_jax(fun: object) -> bool:
    """Whether a traced function is one JAX made itself, not one the learner wrote or wrapped.
    JAX 0.12 differentiates a jitted function by tracing a function of its own (pjit's
    `_transpose_jaxpr_fancy.<locals>.transposed`) that carries the jitted function's name and
    definition line, so the log says "never seen function loss defined at <your line>" once per
    new transpose: not the learner's code made again. Unwrapped first as JAX names a function
    (partial's func, __wrapped__), so `jax.jit(jax.checkpoint(f))` is still the learner's `f`.
    A function of JAX's that holds one of the learner's (fori_loop's `while_body_fun` around the
    body, made anew when the body is) stands for that function: it is the learner's."""
    fun = _unwrapped(fun)
    return _in_jax(fun) and not any(
        not _in_jax(held) for held in _functions_held(fun) if getattr(held, "__code__", None) is not None
    )


def _unwrapped(fun: object) -> object:
    if type(fun).__name__ == "WrappedFun":  # linear_util's wrapper (an older JAX hands it over)
        fun = getattr(fun, "f", fun)
    for _ in range(32):
        inner = fun.func if isinstance(fun, functools.partial) else getattr(fun, "__wrapped__", None)
        if inner is None:
            break
        fun = inner
    return fun


def _in_jax(fun: object) -> bool:
    code = getattr(fun, "__code__", None)
    return code is not None and os.path.abspath(code.co_filename).startswith(_JAX_DIR)


def _functions_held(fun: object) -> list[object]:
    """The functions a function's closure holds (through a weak reference too), unwrapped."""
    held = []
    for cell in getattr(fun, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(value, weakref.ref):
            value = value()
        if callable(value):
            held.append(_unwrapped(value))
    return held


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


# lax functions that trace the function they are given (a new function object each pass: a new trace)
LAX_TRACERS = frozenset(
    {"fori_loop", "scan", "while_loop", "cond", "switch", "map", "associative_scan", "checkpoint", "remat"}
)
REWRAPS = 3  # jax.jit of one function at one line this often: wrapped anew on every pass
# JAX's monitoring events of one jit's making, after the trace: lowering, then the backend's compile
COST_EVENTS = (
    TRACE_EVENT,
    "/jax/core/compile/jaxpr_to_mlir_module_duration",
    "/jax/core/compile/backend_compile_duration",
)


def _bare(fun_name: object) -> str:
    """`step` from a monitoring event's fun_name (`step`, or `jit(step)` for lowering and compiling)."""
    name = str(fun_name)
    return name[4:-1] if name.startswith("jit(") and name.endswith(")") else name


def _seeing(logger: logging.Logger) -> Callable[[], None]:
    """Make `logger` hand its warnings to its handlers whatever the script does to logging
    (logging.disable, a level, disabled by dictConfig); returns the undo."""
    old = logger.__class__

    class Seeing(old):  # type: ignore[misc, valid-type]
        disabled: bool  # logging.Logger's (the base is the logger's own class, unknown to mypy)

        def isEnabledFor(self, level: int) -> bool:
            return level >= logging.WARNING or super().isEnabledFor(level)

        def handle(self, record: logging.LogRecord) -> None:
            disabled, self.disabled = self.disabled, False
            try:
                super().handle(record)
            finally:
                self.disabled = disabled

    logger.__class__ = Seeing

    def undo() -> None:
        logger.__class__ = old

    return undo


class Retraces:
    """Every trace JAX explained while the script ran. `on_trace` listeners hear each top-level
    one (a jit traced inside another trace retraces with its caller, and is not one)."""

    def __init__(self, code: ScriptCode):
        self.code = code
        self.misses: list[Miss] = []
        self.last_own: Miss | None = None  # the latest top-level trace of one of the script's functions
        self.on_trace: list[Callable[[Miss], None]] = []
        # told of a pmapped function's first call, its trace (pmap's are not in the log): what it reads
        self.on_pmap_trace: list[Callable[[Miss], None]] = []
        # (the function, the learner's file and line) -> times jax.jit wrapped it there
        self.wraps: Counter = Counter()
        # the learner's function's code -> where jax.jit was asked for it (file, line), and whether donating
        self.wrapped_at: dict[tuple[str, str, int], tuple[str, int, bool]] = {}  # keyed by ScriptCode.place_of
        # (name, def_line, def_file) -> seconds tracing, lowering, compiling
        self.seconds: defaultdict[tuple[str, int, str], float] = defaultdict(float)
        self.miss_seconds: defaultdict[int, float] = defaultdict(float)  # index in misses -> seconds
        self._last_index = -1
        self._costing: tuple[str, int, str] | None = None  # the learner's function whose making runs now
        self.witnessed: Counter = Counter()  # function name -> top-level traces JAX's monitoring saw
        self.first_traces: Counter = Counter()  # (name, file, line) of a function's code -> first traces of its objects
        # (file, line) to change where jax.jit was called -> times (a jit built anew on every pass is built there)
        self.jit_lines: Counter = Counter()
        # the learner's function's code -> the line to change where jax.jit was asked for it (_line_to_change)
        self.remade_at: dict[tuple[str, str, int], tuple[str, int]] = {}
        self.pmap_calls: dict[tuple[str, int], str] = {}  # (file, line) calling a pmapped function -> its name
        # a function's place -> the callable last handed to jax.pmap for it (held: a new one is not it)
        self._pmapped: dict[tuple[str, str, int], object] = {}
        # (name, file, line) of a function's code -> the arguments of the call that traced it last
        self.calls: dict[tuple[str, str, int], arguments.Call] = {}

    def install(self, hooks: Hooks) -> None:
        retraces = self

        class MissHandler(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                try:
                    retraces._on_message(record.getMessage(), traced_function())
                except Exception:  # noqa: BLE001 - never break the learner's run
                    pass

        logger = logging.getLogger(LOGGER)
        handler = MissHandler(logging.WARNING)
        old_propagate, old_level = logger.propagate, logger.level
        logger.addHandler(handler)
        logger.propagate = False  # the script's own logging setup must not print JAX's explanations
        if logger.getEffectiveLevel() > logging.WARNING:
            logger.setLevel(logging.WARNING)
        unsee = _seeing(logger)

        def restore() -> None:
            unsee()
            logger.removeHandler(handler)
            logger.propagate = old_propagate
            logger.setLevel(old_level)

        hooks.on_undo(restore)
        listener = self._on_event
        jax.monitoring.register_event_duration_secs_listener(listener)
        hooks.on_undo(lambda: jax.monitoring.unregister_event_duration_listener(listener))
        # With a persistent compilation cache (the worker has one), jax_explain_cache_misses also
        # raises JAX's per-program cache messages to warnings: not the script's output, dropped.
        quiet = _PersistentCacheChatter()
        for name in PERSISTENT_CACHE_LOGGERS:
            chatty = logging.getLogger(name)
            chatty.addFilter(quiet)
            hooks.on_undo(functools.partial(chatty.removeFilter, quiet))
        hooks.option("jax_explain_cache_misses", True)
        hooks.patch(jax, "jit", self._counting(jax.jit))
        hooks.patch(jax, "pmap", self._pmapping(jax.pmap))

    def _pmapping(self, original):
        """jax.pmap, noting the learner's lines that call a pmapped function of theirs: pmap's
        traces are not explained in the cache-miss log, and a loop that calls one runs a step."""
        code, calls = self.code, self.pmap_calls

        @functools.wraps(original)
        def pmap(*args, **kwargs):
            if not args and "fun" not in kwargs:  # functools.partial(jax.pmap, axis_name=...) as a decorator
                return lambda fun: pmap(fun, **kwargs)
            mapped = original(*args, **kwargs)
            fun = args[0] if args else kwargs.get("fun")
            try:
                learners = code._learners_code(fun)
            except Exception:  # noqa: BLE001 - never break the learner's pmap
                learners = None
            if learners is None:
                return mapped
            name = learners.co_name
            anew = self._pmap_built(fun, learners)
            first = [True]

            @functools.wraps(mapped)
            def called(*a, **k):
                frame = code.frame_here()
                if frame is not None:
                    calls[(frame.f_code.co_filename, frame.f_lineno)] = name
                    if first[0]:
                        first[0] = False
                        self._pmap_compiles(learners, frame, anew)
                return mapped(*a, **k)

            return called

        return pmap

    def _pmap_built(self, fun, learners) -> bool:
        """jax.pmap asked for one of the learner's functions at a line of theirs: noted like a jit's
        (where it is built), and whether the callable is another object than the one pmapped for
        that code before (pmap caches its compile by the callable: `partial(update, clip=c)` made
        per step compiles per step; the same function pmapped again does not)."""
        try:
            frame = self.code.frame_here(2)
            place = self.code.place_of(learners)
            if frame is not None:
                here = self._line_to_change(frame)
                self.jit_lines[here] += 1
                self.remade_at[place] = here
                self.wrapped_at[place] = (frame.f_code.co_filename, frame.f_lineno, False)
            before, self._pmapped[place] = self._pmapped.get(place), fun
            return before is not None and before is not fun
        except Exception:  # noqa: BLE001 - never break the learner's pmap
            return False

    def _pmap_compiles(self, learners, frame, anew: bool) -> None:
        """The first call of a pmapped function compiles it (pmap's traces are not in the log): a
        trace of its code, and one made anew (a new callable for the same code) is a new function,
        as a jit's is."""
        try:
            miss = Miss(
                learners.co_name,
                learners.co_filename,
                learners.co_firstlineno,
                frame.f_code.co_filename,
                frame.f_lineno,
                first=True,
                same_line=anew,
                reason="new-function" if anew else None,
                explanation="",
            )
            self.first_traces[(miss.name, self.code._normed(miss.def_file), miss.def_line)] += 1
            self.misses.append(miss)
            for listener in self.on_pmap_trace:
                listener(miss)
        except Exception:  # noqa: BLE001 - never break the learner's pmap
            pass

    def _counting(self, original):
        """jax.jit, counting where the script wraps each function: the same function wrapped anew
        on every pass traces once (JAX caches by function) but dispatches through a new object."""

        @functools.wraps(original)
        def jit(*args, **kwargs):
            fun = args[0] if args else kwargs.get("fun")
            if callable(fun) and not staging():
                frame = self.code.frame_here()
                if frame is not None:
                    here = self._line_to_change(frame)
                    self.jit_lines[here] += 1
                    try:
                        self.wraps[(fun, *here)] += 1
                    except TypeError:  # an unhashable callable: not counted
                        pass
                    try:
                        code = self.code._learners_code(fun)
                        if code is not None:
                            donates = asks_donation(kwargs)
                            place = self.code.place_of(code)
                            self.wrapped_at[place] = (frame.f_code.co_filename, frame.f_lineno, donates)
                            self.remade_at[place] = here
                    except Exception:  # noqa: BLE001 - never break the learner's jax.jit
                        pass
            return original(*args, **kwargs)

        return jit

    def _line_to_change(self, frame) -> tuple[str, int]:
        """Where jax.jit is asked for a function, the learner's line a loop repeats: the call
        itself in a loop, or, when a factory builds the jitted function (`make_step(lr)(w, x)` in
        the training loop), the call of the factory. The call of jax.jit where no loop repeats it."""
        outer = frame
        while outer is not None:
            file, line = outer.f_code.co_filename, outer.f_lineno
            if self.code.owns(file) and self.code.loop_around(line, file) is not None:
                return file, line
            outer = outer.f_back
        return frame.f_code.co_filename, frame.f_lineno

    def _on_message(self, message: str, fun: object = None) -> None:
        miss = parse(message)
        if miss is None or staging():
            return  # not an explanation, or traced as part of an outer trace: the outer one retraced
        if self.code.owns(miss.def_file) and made_by_jax(fun):
            return  # JAX's own function under the learner's name (a jitted function's transpose)
        miss = self._placed(miss)
        if miss.first:
            # Counted by the function's code (where it is defined), not its object: a function
            # object made anew (jax.jit(partial(f, eps=e)) in a loop) is never seen by JAX's cache.
            # JAX's own "defined on the same line" is the second witness where the version says it.
            place = (miss.name, self.code._normed(miss.def_file), miss.def_line)
            if self.first_traces[place] and not miss.same_line:
                miss = dataclasses.replace(miss, same_line=True, reason="new-function")
            self.first_traces[place] += 1
        if self.code.owns(miss.def_file):
            miss = self._compared(miss)
        self.misses.append(miss)
        if self.code.owns(miss.def_file):
            self.last_own = miss
            self._last_index = len(self.misses) - 1
        for listener in self.on_trace:
            listener(miss)

    def _compared(self, miss: Miss) -> Miss:
        """The trace told against the previous trace's call, argument by argument: that
        difference is the reason (JAX's closest key may be an older call's), and JAX's own
        explanation stays beside it as the second witness. JAX's reason stands where the
        comparison finds nothing it could retrace for, or only a number's new value while JAX
        names another cause (a number under `jax.jit` is traced, not static)."""
        try:
            place = (miss.name, self.code._normed(miss.def_file), miss.def_line)
            callee = arguments.learners_callee(self.code.owns)
            code = self.code.function(miss.name, miss.def_line, miss.def_file)
            names = code.co_varnames[: code.co_argcount] if code is not None else ()
            call = arguments.read(callee, names) if callee is not None else None
            if call is None:
                return miss
            before, self.calls[place] = self.calls.get(place), call
            if miss.first or before is None:
                return miss
            changes = arguments.differences(before, call)
            ours = arguments.reason(changes)
            if ours is None or (
                all(c.how == "value" for c in changes) and miss.reason not in (None, "static", "unexplained")
            ):
                return miss
            return dataclasses.replace(miss, reason=ours, changes=tuple(changes))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - never break the learner's trace
            return miss

    def _on_event(self, event: str, duration_secs: float, **kwargs) -> None:
        """A step of making a jit (trace, lower, compile): its time goes to the learner's function
        being made (the one whose trace was explained last, if the names agree)."""
        if event not in COST_EVENTS:
            return
        name = _bare(kwargs.get("fun_name", ""))
        if event == TRACE_EVENT:
            if staging():
                return  # part of an outer trace: counted with it
            self.witnessed[name] += 1
            last = self.last_own
            self._costing = (
                (last.name, last.def_line, last.def_file) if last is not None and last.name == name else None
            )
        if self._costing is not None and self._costing[0] == name:
            self.seconds[self._costing] += duration_secs
            self.miss_seconds[self._last_index] += duration_secs

    def blinded(self) -> bool:
        """Whether JAX's monitoring saw a top-level trace of a function named like one of the
        learner's that the cache-miss log never explained (the log was turned off some other way)."""
        explained = {m.name for m in self.misses}
        unexplained = {name for name, n in self.witnessed.items() if n and name not in explained}
        if not unexplained:
            return False
        sources = [self.code.script, *(self.code.file(file) for file, _ in self.code.running_modules())]
        names = {c.co_name for source in sources if source is not None for c in source.codes}
        return bool(unexplained & (names - {"<module>", "<lambda>"}))

    def _placed(self, miss: Miss) -> Miss:
        """A trace as the learner sees it. JAX names the frame that called into the jit: for a
        library's jit (`eqx.filter_jit`, `nnx.jit`) that is the library's code, so the call is
        the learner's innermost frame now (the log is written while the call traces); and a
        function defined in the library's wrapper is the learner's function it wraps."""
        owns = self.code.owns
        if owns(miss.call_file) and owns(miss.def_file):
            return miss
        frame = self.code.frame_here()
        if frame is None:
            return miss
        if not owns(miss.call_file):
            miss = dataclasses.replace(miss, call_file=frame.f_code.co_filename, call_line=frame.f_lineno)
        if not owns(miss.def_file):
            code = self.code.callee(frame, miss.name)
            if code is not None:
                miss = dataclasses.replace(
                    miss, name=code.co_name, def_file=code.co_filename, def_line=code.co_firstlineno
                )
        return miss

    def jitted_in(self, filename: str, first: int, last: int) -> str | None:
        """The learner's jitted function first called within these lines of a file (a loop)."""
        owns, here = self.code.owns, self.code.file(filename)
        for m in self.misses:
            if (
                owns(m.def_file)
                and owns(m.call_file)
                and first <= m.call_line <= last
                and self.code.file(m.call_file) is here
            ):
                return m.name
        for (file, line), name in self.pmap_calls.items():
            if first <= line <= last and self.code.file(file) is here:
                return name
        return None

    def findings(self, failure: BaseException | None) -> list[Finding]:
        """The script's functions traced more often than their reason allows, each at the call
        that retraced (or at the function's definition when that call is not in the script)."""
        owns = self.code.owns
        retraced = [(i, m) for i, m in enumerate(self.misses) if owns(m.def_file) and (not m.first or m.same_line)]
        totals = Counter((m.name, m.def_file, m.def_line, m.reason) for _, m in retraced)
        counts: Counter = Counter()
        cost: defaultdict[tuple, float] = defaultdict(float)  # a finding's key -> seconds its retraces took
        explained: dict[tuple, str] = {}
        changed: dict[tuple, tuple[str, ...]] = {}  # a finding's key -> the doctor's own comparison, flat
        files: dict[tuple, str] = {}  # a finding's key -> the file of its line, as the code object names it
        shown = self.code.shown
        for i, m in retraced:
            if totals[(m.name, m.def_file, m.def_line, m.reason)] < THRESHOLD.get(m.reason or "", 2):
                continue
            where = (m.call_file, m.call_line) if owns(m.call_file) else (m.def_file, m.def_line)
            if m.reason == "new-function":
                where = self._built_at(m) or where
            key = (m.name, shown(where[0]), where[1], m.reason or "unexplained")
            counts[key] += 1
            cost[key] += self.miss_seconds.get(i, 0.0)
            files.setdefault(key, where[0])
            if m.explanation:
                explained.setdefault(key, m.explanation)
            if m.changes:
                changed.setdefault(key, tuple(part for c in m.changes for part in c.flat()))
        lax_at = {key: self._lax_call(key[0], files[key], key[2]) for key in counts if key[3] == "new-function"}
        found = [
            Finding(
                "retrace",
                reason,
                file,
                line,
                function=name,
                count=n,
                explanation=explained.get(key, ""),
                changed=changed.get(key, ()),
                name=lax_at.get(key) or "",
                seconds=round(cost[key], 4),
            )
            for key, n in counts.items()
            for name, file, line, reason in [key]
        ]
        compiled_at = {(f.function, f.file, f.line) for f in found}
        for (fun, filename, line), n in self.wraps.items():
            name = getattr(fun, "__name__", None) or type(fun).__name__
            # a line that also retraced is that finding (its compiles cost more than the dispatch),
            # not a second one whose count would be added to it
            if n >= REWRAPS and (name, shown(filename), line) not in compiled_at:
                found.append(
                    Finding(
                        "retrace",
                        "rewrapped",
                        shown(filename),
                        line,
                        function=name,
                        count=n - 1,
                        traced=self._times_traced(fun),
                    )
                )
        return found

    def _built_at(self, m: Miss) -> tuple[str, int] | None:
        """The learner's line that called jax.jit for this function again and again (the line to
        change: `step = jax.jit(partial(f, eps=e))` in the loop, not `step(x)` below it), if one did."""
        built = self.remade_at.get((self.code._normed(m.def_file), m.name, m.def_line))
        if built is None or not self.code.owns(built[0]) or self.jit_lines[built] < 2:
            return None
        return built

    def _lax_call(self, name: str, filename: str, line: int) -> str | None:
        """The lax function (`fori_loop`, `scan`...) a function made anew was handed to at this
        line, when it was not jax.jit that traced it; None otherwise."""
        source = self.code.file(filename)
        for call in source.calls_at(line) if source else []:
            func = call.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in LAX_TRACERS or called == "pmap":  # pmap: a pmapped function built anew
                return called
        return None

    def _times_traced(self, fun) -> int:
        """How many times JAX traced `fun` in all (0: not known)."""
        try:
            code = self.code._learners_code(fun)
        except Exception:  # noqa: BLE001 - an object that cannot say
            return 0
        if code is None:
            return 0
        place = self.code.place_of(code)
        return sum(
            1
            for m in self.misses
            if self.code.owns(m.def_file)
            and (self.code._normed(m.def_file), m.name) == place[:2]
            and abs(m.def_line - place[2]) <= 3
        )

    def traces(self) -> tuple[TraceCount, ...]:
        """How many times each of the script's jitted functions was traced."""
        owns, shown = self.code.owns, self.code.shown
        counts: Counter = Counter()
        seconds: dict[tuple[str, int, str], float] = {}
        for m in self.misses:
            if owns(m.def_file):
                counts[(m.name, m.def_line, shown(m.def_file))] += 1
        for (name, line, file), spent in self.seconds.items():
            if owns(file):
                key = (name, line, shown(file))
                seconds[key] = seconds.get(key, 0) + spent
        return tuple(
            TraceCount(
                name, line, n, "" if file == self.code.name else file, round(seconds.get((name, line, file), 0), 4)
            )
            for (name, line, file), n in counts.items()
        )
