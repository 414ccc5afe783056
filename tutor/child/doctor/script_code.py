"""The learner's code: the script and every module of theirs it runs, their frames, their
functions' bytecode, their loops.

The learner's code is every Python file under the script's folder (for `-m`, the current folder)
that is not installed: not under the interpreter's prefix, a site-packages / dist-packages folder
or the tutor itself. A `main.py` that imports `train.py` and a `model/` package is one project,
and a finding names the file it is in, relative to that folder ("model/layers.py").

Pure Python (no JAX): every file:line a finding reports is resolved here, so that it always
points into the learner's code, never into JAX, a library or the tutor.
"""

from __future__ import annotations

import ast
import builtins
import dis
import functools
import inspect
import linecache
import os
import sys
import traceback
import types
from collections.abc import Iterator
from dataclasses import dataclass

from tutor.doctor import notebook


def _norm(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _installed_places() -> tuple[str, ...]:
    """Folders whose files are never the learner's: the interpreter's, and the tutor's own."""
    tutor = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    places = {sys.prefix, sys.base_prefix, sys.exec_prefix, tutor}
    return tuple(sorted({_norm(p) + os.sep for p in places if p}))


_INSTALLED_PARTS = {"site-packages", "dist-packages", "__pypackages__"}


@dataclass(frozen=True)
class Loop:
    """The innermost `for` / `while` around a line, and whether the line runs on every pass."""

    first: int  # the loop statement's line range
    last: int
    every_pass: bool


class SourceFile:
    """One file of the learner's: its source, its syntax tree and every code object compiled
    from it. The script may be a notebook: its code cells, run as one script."""

    def __init__(self, path: str, is_script: bool = False):
        self.path = path
        self.notebook: notebook.Script | None = None
        source: str | bytes
        if is_script and notebook.is_notebook(path):
            self.notebook = notebook.read(path)
            source = self.notebook.source
            # Tracebacks and warnings show the cells' lines, not the notebook's JSON.
            linecache.cache[path] = (len(source), None, source.splitlines(True), path)
        else:
            with open(path, "rb") as f:
                source = f.read()
        try:
            self.tree: ast.Module | None = ast.parse(source, path)
            top = compile(source, path, "exec")
        except (SyntaxError, ValueError):
            self.tree, top = None, None
        self.top = top
        self._feeds: dict[int, bool] = {}
        self._accumulates: dict[int, bool] = {}
        self.codes: list[types.CodeType] = []
        stack = [top] if top is not None else []
        while stack:
            code = stack.pop()
            self.codes.append(code)
            stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))

    def function(self, name: str, first_line: int) -> types.CodeType | None:
        """The code object of the function `name` defined at `first_line` (JAX's "defined at")."""
        for code in self.codes:
            if code.co_name == name and code.co_firstlineno == first_line:
                return code
        for code in self.codes:  # a decorator moved the first line: take the nearest of that name
            if code.co_name == name and abs(code.co_firstlineno - first_line) <= 3:
                return code
        return None

    def feeds_back(self, line: int) -> bool:
        """Whether the statement at `line` assigns a call's result to a name the call is given:
        `state = step(state, key)`, `w, opt = update(w, opt, g)` (a state step)."""
        known = self._feeds.get(line)
        if known is None:
            known = self._feeds[line] = self._assigns_own_argument(line)
        return known

    def accumulates(self, line: int) -> bool:
        """Whether the statement at `line` rebinds a name from its own value: `w = w + 0.01 * noise()`,
        `total += draw(key)` (what the loop carries grows by each pass's result)."""
        known = self._accumulates.get(line)
        if known is None:
            known = self._accumulates[line] = self._reads_what_it_stores(line)
        return known

    def _assignments_at(self, line: int) -> Iterator[tuple[ast.Assign | ast.AugAssign | ast.AnnAssign, ast.expr]]:
        """The assignment statements that span `line`, each with its value (none without one)."""
        for node in ast.walk(self.tree) if self.tree is not None else ():
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                if node.lineno <= line <= (node.end_lineno or node.lineno):
                    yield node, node.value

    def _reads_what_it_stores(self, line: int) -> bool:
        for node, value in self._assignments_at(line):
            if isinstance(node, ast.AugAssign):
                return isinstance(node.target, ast.Name)
            if isinstance(node, ast.Assign):
                stored = {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
                read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
                if stored & read:
                    return True
        return False

    def _assigns_own_argument(self, line: int) -> bool:
        for node, value in self._assignments_at(line):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            stored = {_base_name(t) for target in targets for t in ast.walk(target)} - {None}
            given = {
                _base_name(a)
                for call in ast.walk(value)
                if isinstance(call, ast.Call)
                for arg in (*call.args, *(k.value for k in call.keywords))
                for a in ast.walk(arg)
            } - {None}
            if stored & given:
                return True
        return False

    def return_line(self, first_line: int) -> int | None:
        """The line of the last `return` of the function defined at `first_line` (its own, not a
        nested function's), or None."""
        if self.tree is None:
            return None
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.lineno == first_line or any(d.lineno == first_line for d in node.decorator_list)
            ):
                returns = []
                todo: list[ast.AST] = list(node.body)
                while todo:
                    child = todo.pop()
                    if isinstance(child, ast.Return):
                        returns.append(child.lineno)
                    if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                        todo.extend(ast.iter_child_nodes(child))
                return max(returns) if returns else None
        return None

    def keeps_rebound_argument(self, first_line: int) -> bool:
        """Whether the function defined at `first_line` assigns anew to one of its own arguments
        (`key, sub = split(key)`) and none of its returns hands that name back."""
        if self.tree is None:
            return False
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                node.lineno == first_line or any(d.lineno == first_line for d in node.decorator_list)
            ):
                params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
                rebound, returned = set(), set()
                todo: list[ast.AST] = list(node.body)
                while todo:
                    child = todo.pop()
                    if isinstance(child, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
                        targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                        rebound |= {n for t in targets for n in _bound_names(t)}
                    if isinstance(child, ast.Return) and child.value is not None:
                        returned |= {n.id for n in ast.walk(child.value) if isinstance(n, ast.Name)}
                    if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                        todo.extend(ast.iter_child_nodes(child))
                return bool((rebound & params) - returned)
        return False

    def drops_a_name(self, first_line: int, line: int) -> bool:
        """Whether an assignment at `line`, in the function defined at `first_line`, binds a name
        that function never reads after it (`key, sub = split(carry["key"])` with `key` never
        used: a new key made and dropped)."""
        if self.tree is None:
            return False
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == first_line:
                bound: set[str] = set()
                for child in ast.walk(node):
                    if isinstance(child, ast.Assign) and child.lineno == line:
                        bound |= {n for t in child.targets for n in _bound_names(t)}
                read = {
                    n.id
                    for n in ast.walk(node)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.lineno > line
                }
                return bool(bound - read - {"_"})
        return False

    def calls_at(self, line: int) -> list[ast.Call]:
        """The calls on a line, outermost first."""
        if self.tree is None:
            return []
        return [
            n for n in ast.walk(self.tree) if isinstance(n, ast.Call) and n.lineno <= line <= (n.end_lineno or n.lineno)
        ]

    def loop_around(self, line: int) -> Loop | None:
        """The innermost loop statement whose body holds `line` within the same function, and
        whether the line runs on every pass (not under an if / else / try handler inside it)."""
        if self.tree is None:
            return None
        best: tuple[ast.For | ast.AsyncFor | ast.While, list[ast.AST]] | None = None

        def visit(node: ast.AST, path: list[ast.AST]) -> None:
            nonlocal best
            for child in ast.iter_child_nodes(node):
                lo, hi = getattr(child, "lineno", None), getattr(child, "end_lineno", None)
                if lo is not None and hi is not None and not lo <= line <= hi:
                    continue
                if isinstance(child, (ast.For, ast.AsyncFor, ast.While)) and any(
                    s.lineno <= line <= (s.end_lineno or s.lineno) for s in child.body
                ):
                    best = (child, [])
                    visit(child, [])
                    continue
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                    best = None  # a new function: loops outside it do not repeat this line
                    visit(child, path)
                    continue
                visit(child, path + [child])

        visit(self.tree, [])
        if best is None:
            return None
        loop = best[0]
        return Loop(loop.lineno, loop.end_lineno or loop.lineno, self._every_pass(loop, line))

    @staticmethod
    def _every_pass(loop: ast.AST, line: int) -> bool:
        """False when, between the loop and the line, an if body / else, a try handler, or an
        inner statement with a condition (while, comprehension filter) decides whether it runs."""
        node = loop
        while True:
            nxt = None
            for field, value in ast.iter_fields(node):
                for child in value if isinstance(value, list) else [value]:
                    first = getattr(child, "lineno", None) if isinstance(child, ast.AST) else None
                    if first is None:
                        continue
                    if first <= line <= (getattr(child, "end_lineno", None) or first):
                        nxt = (field, child)
                        break
                if nxt:
                    break
            if nxt is None:
                return True
            field, child = nxt
            if isinstance(node, ast.If) and field in ("body", "orelse"):
                return False
            if isinstance(node, ast.IfExp) and field in ("body", "orelse"):
                return False
            if isinstance(node, ast.Try) and field in ("handlers", "orelse"):
                return False
            if isinstance(node, ast.BoolOp) and child is not node.values[0]:
                return False
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return False
            node = child


class ScriptCode:
    """The learner's code: the script, and every other file of theirs that runs (see the module
    docstring), read when first needed."""

    def __init__(self, path: str, root: str | None = None):
        self.path = path
        self.name = os.path.basename(path)
        self._norm = _norm(path)
        self.root = _norm(root or os.path.dirname(path))
        self._installed = _installed_places()
        self._known: dict[str, bool] = {}
        self._norms: dict[str, str] = {}  # realpath is a system call per part: once per name
        self._files: dict[str, SourceFile | None] = {}
        script = self.file(path)
        assert script is not None
        self.script = script
        self.notebook = script.notebook  # a notebook's code cells, run as one script
        self.tree, self.top = script.tree, script.top

    # ------------------------------------------------------------ whose code

    def owns(self, filename: str) -> bool:
        """Whether a code object's filename is the learner's: the script, or a file of theirs."""
        known = self._known.get(filename)
        if known is None:
            known = self._known[filename] = self._is_learners(filename)
        return known

    def _is_learners(self, filename: str) -> bool:
        path = _norm(filename)
        if path == self._norm:
            return True
        if not path.startswith(self.root + os.sep) or not path.endswith(".py"):
            return False
        if path.startswith(self._installed):
            return False
        parts = set(path[len(self.root) :].split(os.sep))
        return not (parts & _INSTALLED_PARTS) and os.path.isfile(path)

    def shown(self, filename: str) -> str:
        """How a finding names a file of the learner's: the script by its name, any other file by
        its path from the project's folder."""
        path = self._normed(filename)
        if path == self._norm:
            return self.name
        if path.startswith(self.root + os.sep):
            return path[len(self.root) + 1 :].replace(os.sep, "/")
        return os.path.basename(filename)

    def file(self, filename: str) -> SourceFile | None:
        """The parsed file (None: not the learner's, or unreadable)."""
        path = self._normed(filename)
        if path not in self._files:
            try:
                self._files[path] = SourceFile(filename, is_script=path == self._norm) if self.owns(filename) else None
            except (OSError, ValueError):
                self._files[path] = None
        return self._files[path]

    # ------------------------------------------------------------ frames

    def frame_here(self, depth: int = 1) -> types.FrameType | None:
        """The innermost frame of the caller's stack that runs the learner's own code, or None."""
        frame: types.FrameType | None = sys._getframe(depth + 1)
        while frame is not None and not self.owns(frame.f_code.co_filename):
            frame = frame.f_back
        return frame

    def script_lines(self, frame) -> list[tuple[str, str, int]]:
        """(file, function name, line) of every frame of the learner's from `frame` outwards."""
        out = []
        while frame is not None:
            if self.owns(frame.f_code.co_filename):
                out.append((frame.f_code.co_filename, frame.f_code.co_name, frame.f_lineno))
            frame = frame.f_back
        return out

    def last_frame(self, exc: BaseException | None) -> traceback.FrameSummary | None:
        """The innermost frame of the learner's code in the exception's traceback, or None."""
        if exc is None:
            return None
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if self.owns(f.filename)]
        return frames[-1] if frames else None

    def globals_of(self, filename: str) -> dict | None:
        """The module globals of one of the learner's files that is running (the script's
        `__main__` included), or None."""
        path = self._normed(filename)
        for file, names in self.running_modules():
            if self._normed(file) == path:
                return names
        return None

    def place_of(self, code: types.CodeType) -> tuple[str, str, int]:
        """A function's code by where it is (the live one and the doctor's own compile of its file
        are different objects)."""
        return (self._normed(code.co_filename), code.co_name, code.co_firstlineno)

    def _normed(self, filename: str) -> str:
        known = self._norms.get(filename)
        if known is None:
            known = self._norms[filename] = _norm(filename)
        return known

    def running_modules(self) -> list[tuple[str, dict]]:
        """(file, globals) of every module of the learner's that is imported now."""
        out = []
        for module in list(sys.modules.values()):
            file = getattr(module, "__file__", None)
            if isinstance(file, str) and self.owns(file):
                out.append((file, vars(module)))
        return out

    def lines_in_file(self, filename: str, opnames: tuple[str, ...], argval: str) -> list[tuple[str, int]]:
        """(function, line) in a file's functions (not its top-level code) where an instruction
        in `opnames` names `argval`, by line."""
        source = self.file(filename)
        found = set()
        for code in source.codes if source else []:
            if code.co_name == "<module>":
                continue
            line = code.co_firstlineno
            for ins in dis.get_instructions(code):
                if ins.positions is not None and ins.positions.lineno:
                    line = ins.positions.lineno
                if ins.opname in opnames and ins.argval == argval:
                    found.add((code.co_name, line))
        return sorted(found, key=lambda place: place[1])

    def callee(self, frame, name: str) -> types.CodeType | None:
        """The learner's function a call at the frame's current line runs through a library's
        wrapper (`eqx.filter_jit(step)`, `nnx.jit`, `jax.jit(partial(f, ...))`, a bound method),
        preferring one called `name`: read from the line's calls, unwrapped by `__wrapped__`,
        `functools.partial` and bound methods. Looked up statically: no property runs."""
        source = self.file(frame.f_code.co_filename)
        found = []
        for call in source.calls_at(frame.f_lineno) if source else []:
            code = self._learners_code(_resolve(call.func, frame))
            if code is not None:
                found.append(code)
        named = [c for c in found if c.co_name == name]
        chosen = named or found
        return chosen[-1] if chosen else None

    def callee_self(self, frame, name: str):
        """The object whose method a call at the frame's line runs (`self._step(...)` with
        `self._step = jax.jit(self.train_step)`): the `self` a traced method may change."""
        source = self.file(frame.f_code.co_filename)
        for call in source.calls_at(frame.f_lineno) if source else []:
            obj = _resolve(call.func, frame)
            for _ in range(16):
                if obj is None:
                    break
                if inspect.ismethod(obj):
                    code = getattr(obj.__func__, "__code__", None)
                    if code is not None and self.owns(code.co_filename) and code.co_name == name:
                        return obj.__self__
                    obj = obj.__func__
                elif isinstance(obj, functools.partial):
                    obj = obj.func
                else:
                    obj = _static(obj, "__wrapped__")
            # `trainer.step(...)` where the class holds `step = jax.jit(..., static_argnums=0)`:
            # the jitted function is not bound, the object is its first (static) argument
            if isinstance(call.func, ast.Attribute):
                owner = _resolve(call.func.value, frame)
                if owner is not None and not isinstance(owner, (type, types.ModuleType)):
                    code = self._learners_code(_static(type(owner), call.func.attr))
                    if code is not None and code.co_name == name and code.co_varnames[:1] == ("self",):
                        return owner
        return None

    def callee_function(self, frame, name: str):
        """The learner's function object a call at the frame's line runs (as `callee`), for
        what it closes over; None if not found."""
        source = self.file(frame.f_code.co_filename)
        for call in source.calls_at(frame.f_lineno) if source else []:
            fn = self._learners_function(_resolve(call.func, frame))
            if fn is not None and fn.__code__.co_name == name:
                return fn
        return None

    def _learners_code(self, obj) -> types.CodeType | None:
        fn = self._learners_function(obj)
        return None if fn is None else fn.__code__

    def _learners_function(self, obj):
        """The first object along the wrappers whose `__code__` is the learner's."""
        for _ in range(16):
            if obj is None:
                return None
            code = getattr(obj, "__code__", None)
            if isinstance(code, types.CodeType) and self.owns(code.co_filename):
                return obj
            if isinstance(obj, functools.partial):
                obj = obj.func
            elif inspect.ismethod(obj):
                obj = obj.__func__
            else:
                obj = _static(obj, "__wrapped__")
        return None

    # ------------------------------------------------------------ bytecode and loops

    def function(self, name: str, first_line: int, filename: str | None = None) -> types.CodeType | None:
        """The code object of the function `name` defined at `first_line` of a file (the script's
        by default)."""
        source = self.file(filename) if filename else self.script
        return source.function(name, first_line) if source else None

    @staticmethod
    def _within(code: types.CodeType):
        stack = [code]
        while stack:
            current = stack.pop()
            yield current
            stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))

    def lines_of(self, code: types.CodeType, opnames: tuple[str, ...], argval: str) -> list[int]:
        """Lines in code (and the functions nested in it) where an instruction in `opnames`
        names `argval`: STORE_GLOBAL total, LOAD_GLOBAL history, STORE_ATTR count."""
        lines = []
        for current in self._within(code):
            line = current.co_firstlineno
            for ins in dis.get_instructions(current):
                if ins.positions is not None and ins.positions.lineno:
                    line = ins.positions.lineno
                if ins.opname in opnames and ins.argval == argval:
                    lines.append(line)
        return sorted(set(lines))

    def loop_around(self, line: int, filename: str | None = None) -> Loop | None:
        """The innermost loop around `line` of a file (the script's by default): see SourceFile."""
        source = self.file(filename) if filename else self.script
        return source.loop_around(line) if source else None


_MISSING = object()


def _bound_names(target: ast.AST) -> list[str]:
    """The names an assignment target binds: `key` and `sub` in `key, sub = ...`, none in `self.w = ...`."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in _bound_names(t)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value)
    return []


def _base_name(node: ast.AST) -> str | None:
    """The variable a target or argument is rooted in: `state` for state, state.params, state[0]."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _static(obj, name: str):
    try:
        value = inspect.getattr_static(obj, name, _MISSING)
    except Exception:  # noqa: BLE001 - an object that cannot be looked at is simply not followed
        return None
    if value is _MISSING:
        return None
    if isinstance(value, (staticmethod, classmethod)):
        return value.__func__
    if name == "__wrapped__" and hasattr(value, "__get__") and not callable(value):
        # computed: equinox's jit wrapper (a property), jax's PjitFunction (a C slot)
        try:
            return getattr(obj, name)
        except Exception:  # noqa: BLE001 - a wrapper that cannot say what it wraps is not followed
            return None
    return value


def _resolve(expr: ast.expr, frame):
    """The object an expression of names and attributes names in a frame (None if not that
    simple). `jax.jit(f)(x)` and `partial(f, a)(x)`: their first argument."""
    if isinstance(expr, ast.Name):
        for scope in (frame.f_locals, frame.f_globals, vars(builtins)):
            if expr.id in scope:
                return scope[expr.id]
        return None
    if isinstance(expr, ast.Attribute):
        owner = _resolve(expr.value, frame)
        return None if owner is None else _static(owner, expr.attr)
    if isinstance(expr, ast.Call) and expr.args:
        return _resolve(expr.args[0], frame)
    return None
