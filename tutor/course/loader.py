"""Load lessons/*.yaml into a Course, collecting every problem with its file and line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tutor.course.cjk import join_wrapped
from tutor.course.giveaway import giveaways
from tutor.course.kinds import CHECK_KINDS
from tutor.course.model import (
    Block,
    Cell,
    Check,
    Checkpoint,
    Course,
    Exercise,
    Expectation,
    Lesson,
    Question,
    Source,
)
from tutor.course.predict import read_prediction
from tutor.course.question import read_question
from tutor.course.yamlread import LineDict, LineList, YamlError, read_yaml
from tutor.i18n import LANGS, Text

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")
TOP_KEYS = ("lesson", "exercise", "checkpoint", "quiz")


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class CourseError(Exception):
    """The course has problems; `problems` lists each with file and line."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class _Reader:
    """Reads one file's objects, recording problems instead of raising."""

    def __init__(self, file: str, problems: list[Problem], lint: bool = False):
        self.file = file
        self.problems = problems
        self.lint = lint

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def mapping(self, value, line: int, what: str, required: set[str], optional: set[str]):
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

    def text(self, value, line: int, what: str) -> Text | None:
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
        return Text(zh=join_wrapped(value["zh"]), en=value["en"]) if ok else None

    def markdown(self, value: LineDict, lang: str, what: str) -> None:
        # Parsing every text costs ~1 s for the course: done by `validate`, not on every load.
        from tutor.course.markdown_lint import markdown_problems

        for offset, message in markdown_problems(value[lang], lang):
            self.problem(value.value_line(lang) + offset, f"{what} ({lang}): {message}")

    def string(self, value, line: int, what: str, pattern: re.Pattern | None = None) -> str | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            self.problem(line, f"{what} must be non-empty text")
            return None
        if pattern and not pattern.match(value):
            self.problem(line, f"{what} {value!r} may use only a-z, 0-9, '.' and '-'")
            return None
        return value

    def number(self, value, line: int, what: str, default: float) -> float:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            self.problem(line, f"{what} must be a positive number")
            return default
        return float(value)

    def strings(self, value, line: int, what: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, LineList) or not all(isinstance(v, str) for v in value):
            self.problem(line, f"{what} must be a list of text")
            return ()
        return tuple(value)

    def code(self, value, line: int, what: str, required: bool = True) -> str:
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


def read_cell(r: _Reader, value, line: int, what: str, lesson: bool = False) -> Cell | None:
    # Only lesson cells ask for a prediction: a quiz question is already one.
    optional = {"caption", "expect", "timeout"} | ({"predict"} if lesson else set())
    d = r.mapping(value, line, what, {"id", "code"}, optional)
    if d is None:
        return None
    cell_id = r.string(d.get("id"), d.line_of("id"), f"{what} id", ID_PATTERN)
    code = r.code(d.get("code"), d.line_of("code"), f"{what} code")
    expect = Expectation()
    if "expect" in d:
        e = r.mapping(
            d["expect"], d.line_of("expect"), f"{what} expect", set(), {"raises", "output_contains", "output_matches"}
        )
        if e is not None:
            raises = e.get("raises")
            if raises is not None and not (isinstance(raises, str) and raises.isidentifier()):
                r.problem(e.line_of("raises"), f"{what} expect.raises must be an exception class name")
                raises = None
            matches = r.strings(e.get("output_matches"), e.line_of("output_matches"), f"{what} expect.output_matches")
            for pattern in matches:
                try:
                    re.compile(pattern)
                except re.error as exc:
                    r.problem(
                        e.line_of("output_matches"), f"{what} expect.output_matches: bad regex {pattern!r}: {exc}"
                    )
            expect = Expectation(
                raises=raises,
                output_contains=r.strings(
                    e.get("output_contains"), e.line_of("output_contains"), f"{what} expect.output_contains"
                ),
                output_matches=matches,
            )
    if cell_id is None:
        return None
    return Cell(
        id=cell_id,
        code=code,
        caption=r.text(d.get("caption"), d.line_of("caption"), f"{what} caption"),
        expect=expect,
        timeout=r.number(d.get("timeout"), d.line_of("timeout"), f"{what} timeout", 60.0),
        source=Source(r.file, d.line),
        predict=read_prediction(r, d["predict"], d.line_of("predict"), what) if "predict" in d else None,
    )


def _lesson(r: _Reader, value, line: int) -> Lesson | None:
    d = r.mapping(value, line, "lesson", {"id", "title", "order", "blocks"}, set())
    if d is None:
        return None
    lesson_id = r.string(d.get("id"), d.line_of("id"), "lesson id", ID_PATTERN)
    title = r.text(d.get("title"), d.line_of("title"), "lesson title")
    blocks: list[Block] = []
    raw_blocks = d.get("blocks")
    if not isinstance(raw_blocks, LineList):
        r.problem(d.line_of("blocks"), "lesson blocks must be a list of {text: ...} or {cell: ...}")
        raw_blocks = LineList()
    for i, raw in enumerate(raw_blocks):
        bline = raw_blocks.item_lines[i]
        b = r.mapping(raw, bline, f"lesson block {i + 1}", set(), {"text", "cell"})
        if b is None:
            continue
        if len(b) != 1:
            r.problem(bline, f"lesson block {i + 1} must hold exactly one of 'text' or 'cell'")
            continue
        if "text" in b:
            text = r.text(b["text"], b.line_of("text"), f"lesson block {i + 1} text")
            if text:
                blocks.append(Block(text=text))
        elif "cell" in b:
            cell = read_cell(r, b["cell"], b.line_of("cell"), f"cell in block {i + 1}", lesson=True)
            if cell:
                blocks.append(Block(cell=cell))
    order = r.number(d.get("order"), d.line_of("order"), "lesson order", 0.0)
    if lesson_id is None or title is None:
        return None
    _unique(r, [(c.id, c.source.line) for c in (b.cell for b in blocks if b.cell)], "cell id")
    return Lesson(id=lesson_id, title=title, order=order, blocks=tuple(blocks), source=Source(r.file, d.line))


def _check(r: _Reader, value, line: int, index: int) -> Check | None:
    what = f"check {index + 1}"
    d = r.mapping(value, line, what, {"id", "name", "kind"}, {"code", "names", "depends", "advice"})
    if d is None:
        return None
    check_id = r.string(d.get("id"), d.line_of("id"), f"{what} id", ID_PATTERN)
    if check_id:
        what = f"check '{check_id}'"
    kind = d.get("kind")
    if kind not in CHECK_KINDS:
        r.problem(d.line_of("kind"), f"{what} has unknown kind {kind!r} (known kinds: {', '.join(CHECK_KINDS)})")
    code, names = "", ()
    if kind == "python":
        code = r.code(d.get("code"), d.line_of("code"), f"{what} code")
    if kind == "defines":
        names = r.strings(d.get("names"), d.line_of("names"), f"{what} names")
        if not names:
            r.problem(d.line_of("names"), f"{what} of kind 'defines' needs a non-empty list 'names'")
    check = Check(
        id=check_id or "",
        kind=kind if isinstance(kind, str) else "",
        name=r.text(d.get("name"), d.line_of("name"), f"{what} name") or Text.same(""),
        code=code,
        names=names,
        depends=r.strings(d.get("depends"), d.line_of("depends"), f"{what} depends"),
        advice=r.text(d.get("advice"), d.line_of("advice"), f"{what} advice"),
        code_line=d.line_of("code") + 1,
        source=Source(r.file, d.line),
    )
    return check if check_id else None


def _exercise(r: _Reader, value, line: int) -> Exercise | None:
    d = r.mapping(
        value,
        line,
        "exercise",
        {"id", "lesson", "title", "prompt", "starter", "hints", "checks"},
        {"order", "timeout", "chart", "setup"},
    )
    if d is None:
        return None
    ex_id = r.string(d.get("id"), d.line_of("id"), "exercise id", ID_PATTERN)
    hints_raw = d.get("hints")
    hints: list[Text] = []
    if not isinstance(hints_raw, LineList) or not hints_raw:
        r.problem(d.line_of("hints"), "exercise hints must be a non-empty list of {zh, en} texts")
    else:
        for i, h in enumerate(hints_raw):
            t = r.text(h, hints_raw.item_lines[i], f"hint {i + 1}")
            if t:
                hints.append(t)
    checks: list[Check] = []
    checks_raw = d.get("checks")
    if not isinstance(checks_raw, LineList) or not checks_raw:
        r.problem(d.line_of("checks"), "exercise checks must be a non-empty list")
    else:
        for i, c in enumerate(checks_raw):
            check = _check(r, c, checks_raw.item_lines[i], i)
            if check:
                checks.append(check)
    _unique(r, [(c.id, c.source.line) for c in checks], "check id")
    seen: set[str] = set()
    for c in checks:
        for dep in c.depends:
            if dep not in seen:
                r.problem(c.source.line, f"check '{c.id}' depends on '{dep}', which is not an earlier check")
        seen.add(c.id)
    result = Exercise(
        id=ex_id or "",
        lesson=r.string(d.get("lesson"), d.line_of("lesson"), "exercise lesson") or "",
        order=r.number(d.get("order"), d.line_of("order"), "exercise order", 100.0),
        title=r.text(d.get("title"), d.line_of("title"), "exercise title") or Text.same(ex_id or ""),
        prompt=r.text(d.get("prompt"), d.line_of("prompt"), "exercise prompt") or Text.same(""),
        starter=r.code(d.get("starter"), d.line_of("starter"), "exercise starter"),
        hints=tuple(hints),
        checks=tuple(checks),
        timeout=r.number(d.get("timeout"), d.line_of("timeout"), "exercise timeout", 60.0),
        chart=r.text(d.get("chart"), d.line_of("chart"), "exercise chart"),
        setup=r.code(d.get("setup"), d.line_of("setup"), "exercise setup", required=False),
        setup_line=d.line_of("setup") + 1,
        source=Source(r.file, d.line),
    )
    return result if ex_id else None


def _questions(r: _Reader, value, line: int, what: str, lesson: str | None = None) -> list[Question]:
    if not isinstance(value, LineList) or not value:
        r.problem(line, f"{what} questions must be a non-empty list")
        return []
    questions = []
    for i, q in enumerate(value):
        question = read_question(r, q, value.item_lines[i], f"{what} question {i + 1}", read_cell, lesson)
        if question is not None:
            questions.append(question)
    _unique(r, [(q.id, q.source.line) for q in questions], "question id")
    return questions


def _quiz(r: _Reader, value, line: int) -> list[Question]:
    d = r.mapping(value, line, "quiz", {"questions"}, set())
    return _questions(r, d.get("questions"), d.line_of("questions"), "quiz") if d is not None else []


def _checkpoint(r: _Reader, value, line: int) -> Checkpoint | None:
    d = r.mapping(value, line, "checkpoint", {"lesson", "questions"}, set())
    if d is None:
        return None
    lesson = r.string(d.get("lesson"), d.line_of("lesson"), "checkpoint lesson", ID_PATTERN)
    questions = _questions(r, d.get("questions"), d.line_of("questions"), f"checkpoint {lesson}", lesson)
    for q in questions:
        if q.lesson != lesson:
            r.problem(q.source.line, f"question '{q.id}' of checkpoint {lesson} names lesson '{q.lesson}'")
    return Checkpoint(lesson, tuple(questions), Source(r.file, d.line)) if lesson and questions else None


def _unique(r: _Reader, ids: list[tuple[str, int]], what: str) -> None:
    first: dict[str, int] = {}
    for ident, line in ids:
        if ident in first:
            r.problem(line, f"duplicate {what} '{ident}' (first defined on line {first[ident]})")
        else:
            first.setdefault(ident, line)


def read_course(root: Path, lint: bool = False) -> tuple[Course, list[Problem]]:
    """Load everything under root/lessons; return the course and every problem found.
    `lint` also reports texts whose Markdown would not render as meant (slower; `validate`)."""
    problems: list[Problem] = []
    lessons: list[Lesson] = []
    exercises: list[Exercise] = []
    quiz: list[Question] = []
    checkpoints: list[Checkpoint] = []
    lessons_dir = root / "lessons"
    if not lessons_dir.is_dir():
        problems.append(Problem(str(lessons_dir), 0, "course folder 'lessons' not found"))
    files = sorted(lessons_dir.rglob("*.yaml")) if lessons_dir.is_dir() else []
    for path in files:
        try:
            rel = str(path.relative_to(root))
        except ValueError:
            rel = str(path)
        r = _Reader(rel, problems, lint)
        try:
            data = read_yaml(path)
        except YamlError as exc:
            r.problem(exc.line, f"YAML error: {exc.message}")
            continue
        except OSError as exc:
            r.problem(0, f"cannot read file: {exc.strerror}")
            continue
        if not isinstance(data, LineDict) or len(data) != 1 or next(iter(data)) not in TOP_KEYS:
            r.problem(
                getattr(data, "line", 1),
                "a course file must hold exactly one of 'lesson:', 'exercise:', 'checkpoint:' or 'quiz:' at the top",
            )
            continue
        kind, body = next(iter(data.items()))
        line = data.line_of(kind)
        if kind == "lesson":
            if (lesson := _lesson(r, body, line)) is not None:
                lessons.append(lesson)
                if lint:  # a prediction whose answer the screen already shows
                    for cell_line, message in giveaways(lesson):
                        r.problem(cell_line, message)
        elif kind == "exercise":
            if (exercise := _exercise(r, body, line)) is not None:
                exercises.append(exercise)
        elif kind == "checkpoint":
            if (checkpoint := _checkpoint(r, body, line)) is not None:
                checkpoints.append(checkpoint)
        else:
            quiz.extend(_quiz(r, body, line))
    _cross_check(root, lessons, exercises, quiz, checkpoints, problems)
    course = Course(
        root=root,
        lessons=tuple(sorted(lessons, key=lambda l: (l.order, l.id))),
        exercises=tuple(sorted(exercises, key=lambda e: (e.order, e.id))),
        quiz=tuple(quiz),
        checkpoints=tuple(sorted(checkpoints, key=lambda c: next((l.order for l in lessons if l.id == c.lesson), 0))),
    )
    return course, problems


def _cross_check(root, lessons, exercises, quiz, checkpoints, problems) -> None:
    """Rules that span files: unique ids, lessons that exist, a solution per exercise."""

    def unique(objs, what, key=lambda o: o.id):
        first: dict[str, Source] = {}
        for o in objs:
            if key(o) in first:
                problems.append(
                    Problem(o.source.file, o.source.line, f"duplicate {what} '{key(o)}' (first in {first[key(o)]})")
                )
            else:
                first[key(o)] = o.source

    unique(lessons, "lesson id")
    unique(exercises, "exercise id")
    questions = [q for c in checkpoints for q in c.questions] + list(quiz)
    unique(questions, "question id")
    unique(checkpoints, "checkpoint of lesson", key=lambda c: c.lesson)
    runs = [q.template.cell(q.id, i) for q in questions if q.template for i in range(q.variants())]
    unique([c for l in lessons for c in l.cells] + [q.evidence for q in questions if q.evidence] + runs, "cell id")
    lesson_ids = {l.id for l in lessons}
    for e in exercises:
        if lessons and e.lesson not in lesson_ids:
            problems.append(
                Problem(
                    e.source.file, e.source.line, f"exercise '{e.id}' names lesson '{e.lesson}', which does not exist"
                )
            )
        if not (root / "solutions" / f"{e.id}.py").is_file():
            problems.append(Problem(e.source.file, e.source.line, f"solution file missing: solutions/{e.id}.py"))
    for c in checkpoints:
        if lessons and c.lesson not in lesson_ids:
            problems.append(
                Problem(c.source.file, c.source.line, f"checkpoint names lesson '{c.lesson}', which does not exist")
            )
    for q in quiz:
        if lessons and q.lesson is not None and q.lesson not in lesson_ids:
            problems.append(
                Problem(
                    q.source.file, q.source.line, f"question '{q.id}' names lesson '{q.lesson}', which does not exist"
                )
            )


def load_course(root: Path | None = None) -> Course:
    """The course at root (default: the installed one); raises CourseError if it has problems."""
    from tutor.paths import course_root

    course, problems = read_course(root or course_root())
    if problems:
        raise CourseError(problems)
    return course
