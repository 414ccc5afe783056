"""Reading one course file's objects: each value checked for the shape it must have, every
problem recorded with its file and line instead of raised, so that one load reports them all."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from tutor.course.cjk import join_wrapped
from tutor.course.schema import MAX_CPU_DEVICES
from tutor.course.yamlread import LineDict, LineList
from tutor.i18n import LANGS, Bilingual


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class Reader:
    """Reads one file's objects, recording problems instead of raising."""

    def __init__(self, file: str, problems: list[Problem], lint: bool = False):
        self.file = file
        self.problems = problems
        self.lint = lint

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def mapping(self, value: object, line: int, what: str, required: set[str], optional: set[str]) -> LineDict | None:
        if not isinstance(value, LineDict):
            self.problem(line, f"{what} must be a mapping of keys to values")
            return None
        for key in value:
            if key not in required and key not in optional:
                allowed = ", ".join(sorted(required | optional))
                self.problem(value.line_of(key), f"unknown key '{key}' in {what} (allowed: {allowed})")
        for key in sorted(required - value.keys()):
            self.problem(value.line, f"{what} is missing required key '{key}'")
        return value

    def text(self, value: object, line: int, what: str) -> Bilingual | None:
        if value is None:
            return None
        if isinstance(value, str):
            self.problem(line, f"{what} must have a translation per language ({'/'.join(LANGS)}), got plain text")
            return None
        if not isinstance(value, LineDict):
            self.problem(line, f"{what} must be a mapping {{zh: ..., en: ...}}")
            return None
        for key in value:
            if key not in LANGS:
                self.problem(value.line_of(key), f"unknown language '{key}' in {what} (use {', '.join(LANGS)})")
        ok = True
        for lang in LANGS:
            if not isinstance(value.get(lang), str) or not value[lang].strip():
                self.problem(value.line, f"{what} is missing its '{lang}' translation")
                ok = False
            elif self.lint:
                self.markdown(value, lang, what)
        return Bilingual(zh=join_wrapped(value["zh"]), en=value["en"]) if ok else None

    def markdown(self, value: LineDict, lang: str, what: str) -> None:
        # Parsing every text costs ~1 s for the course: done by `validate`, not on every load.
        from tutor.course.markdown_lint import markdown_problems

        for offset, message in markdown_problems(value[lang], lang):
            self.problem(value.value_line(lang) + offset, f"{what} ({lang}): {message}")

    def string(self, value: object, line: int, what: str, pattern: re.Pattern[str] | None = None) -> str | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            self.problem(line, f"{what} must be non-empty text")
            return None
        if pattern and not pattern.match(value):
            self.problem(line, f"{what} {value!r} may use only a-z, 0-9, '.' and '-'")
            return None
        return value

    def number(self, value: object, line: int, what: str, default: float) -> float:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            self.problem(line, f"{what} must be a positive number")
            return default
        return float(value)

    def cpu_devices(self, value: object, line: int, what: str) -> int:
        """How many virtual CPU devices a cell's worker starts with: a whole number, 1 to MAX_CPU_DEVICES."""
        if value is None:
            return 1
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CPU_DEVICES:
            self.problem(line, f"{what} must be a whole number from 1 to {MAX_CPU_DEVICES}")
            return 1
        return value

    def points(self, value: object, line: int, what: str, default: float) -> float:
        """A worth in `grade`'s table: a number, 0 or more (0: not graded)."""
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
            self.problem(line, f"{what} must be a number, 0 or more")
            return default
        return float(value)

    def strings(self, value: object, line: int, what: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, LineList) or not all(isinstance(v, str) for v in value):
            self.problem(line, f"{what} must be a list of text")
            return ()
        return tuple(value)

    def code(self, value: object, line: int, what: str, required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str):
            self.problem(line, f"{what} must be a block of Python code")
            return ""
        try:
            compile(value, f"{self.file}:{what}", "exec")
        except SyntaxError as exc:
            # A block scalar's first code line is the line after its key.
            self.problem(line + (exc.lineno or 1), f"{what} has a Python syntax error: {exc.msg}")
        except ValueError as exc:
            self.problem(line, f"{what} cannot be compiled: {exc}")
        return value
