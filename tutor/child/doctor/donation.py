"""Detector: donation that does not pay. JAX's "donated buffers were not usable" warning,
caught at warnings.warn before any filter sees it; an array used after it was donated,
which ends the script with JAX's RuntimeError, reported at the script's line; and one array
donated twice (JAX: "Attempt to donate the same buffer twice", `params` and `avg_params` made
as the same arrays), reported at the call with the two leaves that share it, by their path in
the arguments as the call wrote them (`state['params']['w']` and `state['avg_params']['w']`)."""

from __future__ import annotations

import ast
import functools
import os
import sys
import types
import warnings

from tutor.child.doctor.hooks import Hooks
from tutor.child.doctor.retraces import Retraces
from tutor.child.doctor.script_code import ScriptCode
from tutor.jax_signals import DONATION_UNUSABLE
from tutor.protocol import Finding

SAME_BUFFER = "donate the same buffer twice"  # JAX's words (0.10.2 and 0.12), the runtime's error
MAX_PAIRS = 8  # leaves sharing arrays named in one finding (a whole params tree shared is one bug)


class Donation:
    def __init__(self, code: ScriptCode, retraces: Retraces):
        self.code = code
        self.retraces = retraces
        self.unusable: list[tuple[str, str, int, str]] = []  # (file, function, line, the buffers' types)

    def install(self, hooks: Hooks) -> None:
        original = warnings.warn

        def warn(message, category=None, stacklevel=1, *a, **k):
            try:
                found = DONATION_UNUSABLE.search(str(message))
                if found:
                    self._on_unusable(found.group(1).strip())
            except Exception:  # noqa: BLE001 - reading the warning must never break the script
                pass
            return original(message, category, _past_the_doctor(stacklevel) + 1, *a, **k)

        functools.update_wrapper(warn, original)
        hooks.patch(warnings, "warn", warn)

    def _on_unusable(self, types: str) -> None:
        frame = self.code.frame_here()
        if frame is None:
            return
        # JAX warns while compiling the call that just traced: that function, reported where jax.jit
        # was asked to donate (one place for every compile of it), else at the call
        top = self.retraces.last_own
        if top is None or top.call_line != frame.f_lineno:
            self.unusable.append(
                (self.code.shown(frame.f_code.co_filename), frame.f_code.co_name, frame.f_lineno, types)
            )
            return
        code = self.code.function(top.name, top.def_line, top.def_file)
        wrapped = self.retraces.wrapped_at.get(self.code.place_of(code)) if code is not None else None
        file, line = (wrapped[0], wrapped[1]) if wrapped and wrapped[2] else (frame.f_code.co_filename, frame.f_lineno)
        self.unusable.append((self.code.shown(file), top.name, line, types))

    def findings(self, failure: BaseException | None) -> list[Finding]:
        out = [
            Finding("donation", "unusable", file, line, function=fn, types=types)
            for file, fn, line, types in self.unusable
        ]
        text = str(failure)
        if isinstance(failure, RuntimeError) and SAME_BUFFER in text:
            aliased = self._aliased(failure)
            if aliased is not None:
                out.append(aliased)
        elif (isinstance(failure, RuntimeError) and ("deleted" in text or "donated" in text)) or (
            # a computation already compiled takes JAX's fast path, whose C++ says it as a ValueError
            isinstance(failure, ValueError) and "has been deleted or donated" in text
        ):
            frame = self._stale_reference(failure)
            if frame is not None:
                file, name, line = frame
                out.append(Finding("donation", "deleted", self.code.shown(file), line, function=name))
        return out

    def _stale_reference(self, failure: BaseException) -> tuple[str, str, int] | None:
        """Where the learner still holds the donated value: the outermost of their frames in the
        traceback whose variables hold a deleted array (`acc = accuracy(old_state)`, not the line
        inside accuracy() that read it); the innermost of their frames if none is found."""
        frames = []
        tb = failure.__traceback__
        while tb is not None:
            if self.code.owns(tb.tb_frame.f_code.co_filename):
                frames.append((tb.tb_frame, tb.tb_lineno))
            tb = tb.tb_next
        if not frames:
            return None
        for frame, line in frames:  # outermost first
            if _holds_deleted(frame.f_locals):
                return (frame.f_code.co_filename, frame.f_code.co_name, line)
        frame, line = frames[-1]
        return (frame.f_code.co_filename, frame.f_code.co_name, line)

    def _aliased(self, failure: BaseException) -> Finding | None:
        """The call that donated one array twice (the learner's innermost frame in the traceback)
        and the pairs of its arguments' leaves that share an array. The arguments are read from
        the call's own expressions in that frame (names, attributes, subscripts: nothing runs);
        failing that, from every variable the frame holds."""
        frame, line = None, 0
        tb = failure.__traceback__
        while tb is not None:
            if self.code.owns(tb.tb_frame.f_code.co_filename):
                frame, line = tb.tb_frame, tb.tb_lineno
            tb = tb.tb_next
        if frame is None:
            return None
        source = self.code.file(frame.f_code.co_filename)
        for call in source.calls_at(line) if source else []:
            given = [(ast.unparse(a), a) for a in call.args if not isinstance(a, ast.Starred)]
            given += [(k.arg, k.value) for k in call.keywords if k.arg]
            values = [(text, _value_of(node, frame)) for text, node in given]
            pairs = shared_leaves([(text, v) for text, v in values if v is not _UNKNOWN])
            if pairs:
                break
        else:  # each variable on its own: two names for one state are not the bug
            names = {**frame.f_globals, **frame.f_locals} if frame.f_code.co_name == "<module>" else frame.f_locals
            pairs = [p for n, v in names.items() if not n.startswith("__") for p in shared_leaves([(n, v)])]
        paths = tuple(p for pair in pairs[:MAX_PAIRS] for p in pair)
        return Finding(
            "donation",
            "aliased",
            self.code.shown(frame.f_code.co_filename),
            line,
            function=frame.f_code.co_name,
            paths=paths,
        )


_TUTOR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _past_the_doctor(stacklevel: int) -> int:
    """The warning's stacklevel, moved past the doctor's own frames (its wrappers around
    jax.random and jax.jit stand between the learner's line and JAX's warnings.warn): a warning is
    placed at the learner's line, as it is without the doctor."""
    try:
        level = max(1, int(stacklevel))
        frame: types.FrameType | None = sys._getframe(2)  # the caller of warnings.warn (our wrapper is frame 1)
        for _ in range(level - 1):
            if frame is None:
                return level
            frame = frame.f_back
        while frame is not None and frame.f_code.co_filename.startswith(_TUTOR) and level < 64:
            frame, level = frame.f_back, level + 1
        return level
    except Exception:  # noqa: BLE001 - never break the script's warning
        return stacklevel


_UNKNOWN = object()
# Descriptors that only read a field (slots, NamedTuple fields): safe to run; a property is not.
_FIELD_READERS = ("_tuplegetter", "member_descriptor", "getset_descriptor")


def _value_of(node: ast.expr, frame):
    """The value of an argument written as a name, attribute or constant subscript in `frame`,
    without running any code of the learner's (no property, no __getitem__ of theirs); _UNKNOWN
    otherwise."""
    import inspect

    if isinstance(node, ast.Name):
        for scope in (frame.f_locals, frame.f_globals):
            if node.id in scope:
                return scope[node.id]
        return _UNKNOWN
    if isinstance(node, ast.Attribute):
        owner = _value_of(node.value, frame)
        if owner is _UNKNOWN:
            return _UNKNOWN
        try:
            found = inspect.getattr_static(owner, node.attr)
        except AttributeError:
            return _UNKNOWN
        if isinstance(found, property) or (hasattr(found, "__get__") and not callable(found)):
            if type(found).__name__ not in _FIELD_READERS:
                return _UNKNOWN
            return getattr(owner, node.attr)
        return found
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        owner, key = _value_of(node.value, frame), node.slice.value
        try:
            if isinstance(owner, dict):
                return owner[key]
            if isinstance(owner, (list, tuple)) and isinstance(key, int):  # else a TypeError
                return owner[key]
        except (KeyError, IndexError, TypeError):
            return _UNKNOWN
    return _UNKNOWN


def _buffers(leaf) -> tuple:
    """What identifies a jax Array's device memory: its buffers' addresses (every shard's)."""
    try:
        return tuple(s.data.unsafe_buffer_pointer() for s in leaf.addressable_shards)
    except Exception:  # noqa: BLE001 - not a jax Array on a device: its identity
        return (id(leaf),)


def shared_leaves(named: list[tuple[str, object]]) -> list[tuple[str, str]]:
    """Pairs of leaf paths (`state['params']['w']`, `state['avg_params']['w']`) that hold the same
    device buffer, among the named values' jax Array leaves: each leaf with the first that has its
    buffer, in the order the values are given and flattened."""
    import jax

    first: dict[object, str] = {}
    pairs: list[tuple[str, str]] = []
    for name, value in named:
        if isinstance(value, (type, types.ModuleType, types.FunctionType)):
            continue
        try:
            leaves = jax.tree_util.tree_flatten_with_path(value)[0][:10_000]
        except Exception:  # noqa: BLE001 - not a pytree we can walk
            continue
        for path, leaf in leaves:
            if not isinstance(leaf, jax.Array) or isinstance(leaf, jax.core.Tracer):
                continue
            here = name + jax.tree_util.keystr(path)
            for buffer in _buffers(leaf):
                seen = first.setdefault(buffer, here)
                if seen != here:
                    pairs.append((seen, here))
                    break
    return pairs


def _holds_deleted(names: dict) -> bool:
    import jax

    for value in list(names.values()):
        if isinstance(value, (type, types.ModuleType, types.FunctionType)):
            continue
        try:
            leaves = jax.tree_util.tree_leaves(value)[:1000]
        except Exception:  # noqa: BLE001 - not a pytree we can walk
            continue
        for leaf in leaves:
            deleted = getattr(leaf, "is_deleted", None)
            try:
                if callable(deleted) and deleted():
                    return True
            except Exception:  # noqa: BLE001
                continue
    return False
