"""The course as typed objects: lessons with cells, exercises with checks, the quiz."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from tutor.course.predict import Prediction, parse_number
from tutor.i18n import Bilingual
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
    """One judged property of a learner's solution: a `@check` function in the exercise's
    checks.py (run inside the worker), named and advised in its exercise.yaml."""

    id: str
    name: Bilingual
    function: str = ""  # the function's name in checks.py
    needs: tuple[str, ...] = ()  # its parameters: what it takes from the learner's file
    depends: tuple[str, ...] = ()
    advice: Bilingual | None = None
    plots: bool = False  # it streams `metric` points to the exercise's chart
    line: int = 0  # of its `def` in checks.py
    source: Source | None = None  # its entry in exercise.yaml

    def to_job(self, checks_file: Path | None) -> CheckSpec:
        """The check as the worker receives it."""
        return CheckSpec(
            id=self.id,
            name=self.name,
            depends=tuple(self.depends),
            advice=self.advice,
            origin=f"{checks_file}:{self.line}",
        )


@dataclass(frozen=True)
class Cell:
    """A runnable demonstration inside a lesson or a quiz question."""

    id: str
    code: str
    caption: Bilingual | None = None
    expect: Expect = field(default_factory=Expect)  # what it must do when run: the wire's own type
    timeout: float = 60.0
    source: Source | None = None
    predict: Prediction | None = None  # asked before the cell runs; answered by its output
    teaches: tuple[str, ...] = ()  # the doctor's findings ("kind/code") whose fix this cell shows
    # JAX's virtual CPU devices for its worker (JAX_NUM_CPU_DEVICES): >1 runs in a worker of its own
    cpu_devices: int = 1


@dataclass(frozen=True)
class Block:
    """A piece of a lesson: either Markdown text or a cell."""

    text: Bilingual | None = None
    cell: Cell | None = None


@dataclass(frozen=True)
class Lesson:
    id: str
    title: Bilingual
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
    title: Bilingual
    prompt: Bilingual
    starter: str
    hints: tuple[Bilingual, ...]
    checks: tuple[Check, ...]
    timeout: float = 60.0
    chart: Bilingual | None = None  # title of the live loss chart, for training exercises
    points: float = 1.0  # a pass's worth in `grade`'s table (DEFAULT_POINTS unless declared)
    folder: Path | None = None  # lessons/exercises/<id>/: exercise.yaml, starter.py, checks.py
    source: Source | None = None

    @property
    def checks_file(self) -> Path | None:
        return self.folder / "checks.py" if self.folder else None


DEFAULT_POINTS = 1.0  # an exercise's worth when its exercise.yaml declares none

ANSWER = "answer"  # the placeholder an explanation may use for the number the run printed


@dataclass(frozen=True)
class Template:
    """Variants of one numeric question. The answer is never typed by an author: a variant fills
    the `$name` placeholders of the prompt and the code, the code runs in a worker, and group 1 of
    `reveal` on its stdout is the number the learner must give. The test suite runs every variant
    on each JAX version CI tests, so a template cannot ask what its own code does not answer."""

    variants: tuple[dict[str, str], ...]
    code: str
    reveal: str  # regex (re.M) on the run's stdout; group 1 is the answer
    explain: Bilingual  # shown after the answer; may use the variant's placeholders and $answer
    timeout: float = 60.0
    source: Source | None = None

    def fill(self, text: str, variant: int, answer: str | None = None) -> str:
        """`text` with the variant's placeholders filled in; a value may itself use the variant's
        other placeholders (a variant's `why_en` naming its `$init`), filled first."""
        given = self.variants[variant]
        values = {k: string.Template(v).safe_substitute(given) for k, v in given.items()}
        if answer is not None:
            values[ANSWER] = answer
        return string.Template(text).safe_substitute(values)

    def fill_text(self, text: Bilingual, variant: int, answer: str | None = None) -> Bilingual:
        return Bilingual(zh=self.fill(text.zh, variant, answer), en=self.fill(text.en, variant, answer))

    def cell(self, question_id: str, variant: int) -> Cell:
        """The run that answers one variant: a cell like any other, with the placeholders filled in."""
        return Cell(
            id=f"{question_id}-variant-{variant + 1}",
            code=self.fill(self.code, variant),
            timeout=self.timeout,
            source=self.source,
        )

    def shown(self, stdout: str) -> str | None:
        """The answer the run printed (group 1 of `reveal`), or None if it printed none."""
        match = re.search(self.reveal, stdout or "", re.M)
        if not match or match.group(1) is None:
            return None
        value = match.group(1).strip()
        return value if parse_number(value) is not None else None


@dataclass(frozen=True)
class Question:
    id: str
    prompt: Bilingual
    options: dict[str, Bilingual]
    answer: str
    explanations: dict[str, Bilingual]
    evidence: Cell | None = None
    source: Source | None = None
    lesson: str | None = None  # the lesson it tests (a checkpoint's, or the quiz's review hint)
    template: Template | None = None  # a numeric question whose numbers vary; then no options
    # Lettered questions on the same misconception, asked in its place on a retry (each with the
    # parent's id and lesson: progress keeps one record per question, whichever form was asked).
    siblings: tuple[Question, ...] = ()
    misconception: str | None = None  # the belief it tests (a Misconception's id); siblings share it
    # The belief a wrong answer shows where it is not `misconception`: by option letter for a
    # lettered question (each sibling has its own), by variant index ("0", "1", ...) for a template.
    beliefs: dict[str, str] = field(default_factory=dict)

    @property
    def numeric(self) -> bool:
        return self.template is not None

    def belief(self, variant: int, answer: str) -> str | None:
        """The belief a wrong `answer` shows, asked in `variant`: what the option (or the
        template's variant) names, else the question's own `misconception`."""
        if self.template:
            return self.beliefs.get(str(variant), self.misconception)
        asked = self.asked(variant)
        return asked.beliefs.get(answer, asked.misconception)

    def tested_beliefs(self) -> set[str]:
        """Every belief some wrong answer to it, in any form, can show."""
        forms = (self, *self.siblings)
        return {q.misconception for q in forms if q.misconception} | {b for q in forms for b in q.beliefs.values()}

    def variants(self) -> int:
        """How many forms it can be asked in: a template's variants, or a question and its siblings."""
        return len(self.template.variants) if self.template else 1 + len(self.siblings)

    def asked(self, variant: int) -> Question:
        """The question as asked in `variant`: itself, or for a lettered question its sibling."""
        if self.template or not 0 < variant <= len(self.siblings):
            return self
        return self.siblings[variant - 1]


@dataclass(frozen=True)
class Misconception:
    """A mistaken belief that questions test (lessons/misconceptions.yaml). A learner whose latest
    answer to any of its questions is wrong still holds it, as far as the course can tell."""

    id: str
    lesson: str  # the lesson that sets it right
    text: Bilingual  # the belief: "thinking ..." / "以为……"
    source: Source | None = None


@dataclass(frozen=True)
class Drill:
    """Spot the bug: one of an exercise's own mutants shown to the learner (lessons/exercises/<id>/
    drills/fail_<check>__<name>.py), who points at the line that holds the mistake and names the
    belief behind it; then a worker runs it and the failing check says what is wrong."""

    id: str  # "<exercise>/<name>": what progress keys its answers by
    exercise: str
    lesson: str
    check: str  # the check it fails at (its name says)
    line: int  # the line to find, in the program as shown (numbered from 1)
    belief: str  # a Misconception's id
    code: str  # the program as shown: the file less its `# drill:` / `# says:` lines
    source: Source | None = None  # the `# drill:` line


@dataclass(frozen=True)
class Checkpoint:
    """A lesson's own questions, asked right after it on the path (not copies of the quiz)."""

    lesson: str
    questions: tuple[Question, ...]
    source: Source | None = None
    points: float = 0.0  # worth in `grade`'s table, scaled by the first-try score; 0: not graded


@dataclass(frozen=True)
class Identity:
    """What a course is called and which version of it this is: its id and title (lessons/
    course.yaml, else the folder's name), whether it teaches the doctor, and the digest of its
    lessons/ (tutor.course.fingerprint.content_hash): an export carries these, `grade` compares."""

    id: str
    title: Bilingual
    doctor: bool = False
    content_hash: str = ""


@dataclass(frozen=True)
class Course:
    root: Path
    lessons: tuple[Lesson, ...]
    exercises: tuple[Exercise, ...]
    quiz: tuple[Question, ...]
    checkpoints: tuple[Checkpoint, ...] = ()
    misconceptions: tuple[Misconception, ...] = ()
    quiz_points: float = 0.0  # the quiz's worth in `grade`'s table, scaled by its first-try score
    identity: Identity | None = None  # None: a course made in code (a test's, an empty stand-in)
    drills: tuple[Drill, ...] = ()  # spot the bug, in the course's order of exercises

    @property
    def id(self) -> str:
        return self.identity.id if self.identity else self.root.name

    @property
    def title(self) -> Bilingual:
        if self.identity:
            return self.identity.title
        return Bilingual(en=self.root.name, zh=self.root.name)

    @property
    def has_doctor(self) -> bool:
        return bool(self.identity and self.identity.doctor)

    def teachings(self) -> dict[str, tuple[str, str]]:
        """Each doctor finding's name ("kind/code") -> the (lesson id, cell id) whose cell declares
        `teaches:` it; none in a course that does not say `doctor: true`."""
        if not self.has_doctor:
            return {}
        found: dict[str, tuple[str, str]] = {}
        for lesson in self.lessons:
            for cell in lesson.cells:
                for name in cell.teaches:
                    found.setdefault(name, (lesson.id, cell.id))
        return found

    def checkpoint(self, lesson_id: str) -> tuple[Question, ...]:
        """The questions of a lesson's checkpoint (none: the lesson has no checkpoint)."""
        return next((c.questions for c in self.checkpoints if c.lesson == lesson_id), ())

    def questions(self) -> list[Question]:
        """Every question: each checkpoint's, then the quiz's."""
        return [q for c in self.checkpoints for q in c.questions] + list(self.quiz)

    def question(self, question_id: str) -> Question | None:
        return next((q for q in self.questions() if q.id == question_id), None)

    def misconception(self, misconception_id: str | None) -> Misconception | None:
        return next((m for m in self.misconceptions if m.id == misconception_id), None)

    def drills_of(self, lesson_id: str) -> tuple[Drill, ...]:
        """A lesson's spot-the-bug drills (its exercises' marked mutants), in the exercises' order."""
        return tuple(d for d in self.drills if d.lesson == lesson_id)

    def drill(self, drill_id: str) -> Drill | None:
        return next((d for d in self.drills if d.id == drill_id), None)

    def exercise(self, exercise_id: str) -> Exercise | None:
        return next((e for e in self.exercises if e.id == exercise_id), None)

    def lesson(self, lesson_id: str) -> Lesson | None:
        return next((l for l in self.lessons if l.id == lesson_id), None)

    def solution_path(self, exercise_id: str) -> Path:
        return self.root / "solutions" / f"{exercise_id}.py"

    def cells(self) -> list[Cell]:
        """Every runnable cell: lesson demos and quiz evidence."""
        found = [c for lesson in self.lessons for c in lesson.cells]
        asked = [q.asked(i) for q in self.questions() for i in range(q.variants())]
        found += [q.evidence for q in asked if q.evidence is not None]
        return found

    def template_runs(self) -> list[tuple[Question, int, Cell]]:
        """Every variant of every template question, with the cell that answers it."""
        return [(q, i, q.template.cell(q.id, i)) for q in self.questions() if q.template for i in range(q.variants())]
