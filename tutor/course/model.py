"""The course as typed objects: lessons with cells, exercises with checks, the quiz."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from tutor.course.predict import Prediction
from tutor.i18n import Text
from tutor.protocol import CheckSpec, Expect


@dataclass(frozen=True)
class Source:
    """Where an object was defined, for error messages."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Check:
    """One judged property of a learner's solution; runs inside the worker."""

    id: str
    kind: str
    name: Text
    code: str = ""
    names: tuple[str, ...] = ()
    depends: tuple[str, ...] = ()
    advice: Text | None = None
    code_line: int = 0  # first line of `code` in the YAML file, for tracebacks
    source: Source | None = None

    def to_job(self) -> CheckSpec:
        """The check as the worker receives it."""
        return CheckSpec(
            id=self.id,
            kind=self.kind,
            name=self.name,
            code=self.code,
            names=tuple(self.names),
            depends=tuple(self.depends),
            advice=self.advice,
            origin=f"{self.source.file}:{self.id}" if self.source else self.id,
            code_line=self.code_line,
        )


@dataclass(frozen=True)
class Expectation:
    """What a demo cell must do when run: raise a named exception, print given text."""

    raises: str | None = None
    output_contains: tuple[str, ...] = ()
    output_matches: tuple[str, ...] = ()

    def to_job(self) -> Expect:
        return Expect(self.raises, tuple(self.output_contains), tuple(self.output_matches))


@dataclass(frozen=True)
class Cell:
    """A runnable demonstration inside a lesson or a quiz question."""

    id: str
    code: str
    caption: Text | None = None
    expect: Expectation = field(default_factory=Expectation)
    timeout: float = 60.0
    source: Source | None = None
    predict: Prediction | None = None  # asked before the cell runs; answered by its output


@dataclass(frozen=True)
class Block:
    """A piece of a lesson: either Markdown text or a cell."""

    text: Text | None = None
    cell: Cell | None = None


@dataclass(frozen=True)
class Lesson:
    id: str
    title: Text
    order: float
    blocks: tuple[Block, ...]
    source: Source | None = None

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(b.cell for b in self.blocks if b.cell is not None)


@dataclass(frozen=True)
class Exercise:
    id: str
    lesson: str
    order: float
    title: Text
    prompt: Text
    starter: str
    hints: tuple[Text, ...]
    checks: tuple[Check, ...]
    timeout: float = 60.0
    chart: Text | None = None  # title of the live loss chart, for training exercises
    setup: str = ""  # check code shared by every check (helpers, data), run before each one
    setup_line: int = 0
    source: Source | None = None


@dataclass(frozen=True)
class Question:
    id: str
    prompt: Text
    options: dict[str, Text]
    answer: str
    explanations: dict[str, Text]
    evidence: Cell | None = None
    source: Source | None = None
    lesson: str | None = None  # the lesson whose checkpoint also asks it


@dataclass(frozen=True)
class Course:
    root: Path
    lessons: tuple[Lesson, ...]
    exercises: tuple[Exercise, ...]
    quiz: tuple[Question, ...]

    def exercise(self, exercise_id: str) -> Exercise | None:
        return next((e for e in self.exercises if e.id == exercise_id), None)

    def lesson(self, lesson_id: str) -> Lesson | None:
        return next((l for l in self.lessons if l.id == lesson_id), None)

    def solution_path(self, exercise_id: str) -> Path:
        return self.root / "solutions" / f"{exercise_id}.py"

    def cells(self) -> list[Cell]:
        """Every runnable cell: lesson demos and quiz evidence."""
        found = [c for lesson in self.lessons for c in lesson.cells]
        found += [q.evidence for q in self.quiz if q.evidence is not None]
        return found
