"""The learner's script as code: which frames are its own, its functions' bytecode, its loops.

Pure Python (no JAX): every file:line a finding reports is resolved here, so that it always
points into the learner's script, never into JAX or the tutor.
"""

from __future__ import annotations

import ast
import dis
import linecache
import os
import sys
import traceback
import types
from dataclasses import dataclass

from tutor.doctor import notebook


def _norm(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


@dataclass(frozen=True)
class Loop:
    """The innermost `for` / `while` around a line, and whether the line runs on every pass."""

    first: int  # the loop statement's line range
    last: int
    every_pass: bool


class ScriptCode:
    """One script file: its source, its syntax tree and every code object compiled from it."""

    def __init__(self, path: str):
        self.path = path
        self.name = os.path.basename(path)
        self._norm = _norm(path)
        self._known: dict[str, bool] = {}
        self.notebook: notebook.Script | None = None  # a notebook's code cells, run as one script
        source: str | bytes
        if notebook.is_notebook(path):
            self.notebook = notebook.read(path)
            source = self.notebook.source
            # Tracebacks and warnings show the cells' lines, not the notebook's JSON.
            linecache.cache[path] = (len(source), None, source.splitlines(True), path)
        else:
            with open(path, "rb") as f:
                source = f.read()
        try:
            self.tree = ast.parse(source, path)
            top = compile(source, path, "exec")
        except SyntaxError:
            self.tree, top = None, None
        self.top = top
        self.codes: list[types.CodeType] = []
        stack = [top] if top is not None else []
        while stack:
            code = stack.pop()
            self.codes.append(code)
            stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))

    def owns(self, filename: str) -> bool:
        """Whether a code object's filename is this script."""
        known = self._known.get(filename)
        if known is None:
            known = self._known[filename] = _norm(filename) == self._norm
        return known

    def frame_here(self, depth: int = 1):
        """The innermost frame of the caller's stack that runs the script's own code, or None."""
        frame = sys._getframe(depth + 1)
        while frame is not None and not self.owns(frame.f_code.co_filename):
            frame = frame.f_back
        return frame

    def script_lines(self, frame) -> list[tuple[str, int]]:
        """(function name, line) of every script frame from `frame` outwards."""
        out = []
        while frame is not None:
            if self.owns(frame.f_code.co_filename):
                out.append((frame.f_code.co_name, frame.f_lineno))
            frame = frame.f_back
        return out

    def last_frame(self, exc: BaseException | None) -> traceback.FrameSummary | None:
        """The innermost frame of the script's own code in the exception's traceback, or None."""
        if exc is None:
            return None
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if self.owns(f.filename)]
        return frames[-1] if frames else None

    # ------------------------------------------------------------ bytecode

    def function(self, name: str, first_line: int) -> types.CodeType | None:
        """The code object of the function `name` defined at `first_line` (JAX's "defined at")."""
        for code in self.codes:
            if code.co_name == name and code.co_firstlineno == first_line:
                return code
        for code in self.codes:  # a decorator moved the first line: take the nearest of that name
            if code.co_name == name and abs(code.co_firstlineno - first_line) <= 3:
                return code
        return None

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

    # ------------------------------------------------------------ loops

    def loop_around(self, line: int) -> Loop | None:
        """The innermost loop statement whose body holds `line` within the same function, and
        whether the line runs on every pass (not under an if / else / try handler inside it)."""
        if self.tree is None:
            return None
        best: tuple[ast.AST, list[ast.AST]] | None = None

        def visit(node: ast.AST, path: list[ast.AST]) -> None:
            nonlocal best
            for child in ast.iter_child_nodes(node):
                lo, hi = getattr(child, "lineno", None), getattr(child, "end_lineno", None)
                if lo is not None and hi is not None and not lo <= line <= hi:
                    continue
                if isinstance(child, (ast.For, ast.AsyncFor, ast.While)) and any(
                    s.lineno <= line <= s.end_lineno for s in child.body
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
        return Loop(loop.lineno, loop.end_lineno, self._every_pass(loop, line))

    @staticmethod
    def _every_pass(loop: ast.AST, line: int) -> bool:
        """False when, between the loop and the line, an if body / else, a try handler, or an
        inner statement with a condition (while, comprehension filter) decides whether it runs."""
        node = loop
        while True:
            nxt = None
            for field, value in ast.iter_fields(node):
                for child in value if isinstance(value, list) else [value]:
                    if not isinstance(child, ast.AST) or not hasattr(child, "lineno"):
                        continue
                    if child.lineno <= line <= (child.end_lineno or child.lineno):
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
