"""Load lessons/*.yaml into a Course, collecting every problem with its file and line."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeGuard

from tutor.course import kept
from tutor.course.checks_source import chinese_strings, hidden_state_problems, read_checks
from tutor.course.drills import read_drills
from tutor.course.fingerprint import content_hash, fingerprint
from tutor.course.giveaway import earlier_giveaways, giveaways, question_giveaways
from tutor.course.misconceptions import misconception_problems, read_misconceptions
from tutor.course.model import (
    DEFAULT_POINTS,
    Block,
    Cell,
    Check,
    Checkpoint,
    Course,
    Drill,
    Exercise,
    Identity,
    Lesson,
    Misconception,
    Question,
    Source,
)
from tutor.course.predict import read_prediction
from tutor.course.question import read_question
from tutor.course.reader import Problem, Reader
from tutor.course.schema import FORMAT, ID_REGEX
from tutor.course.yamlread import LineDict, LineList, YamlError, read_yaml
from tutor.errors import TutorError
from tutor.i18n import Bilingual
from tutor.protocol import Expect

ID_PATTERN = re.compile(ID_REGEX)
TOP_KEYS = tuple(key for name, m in FORMAT.items() if name.endswith("-file") for key in m.keys)


class CourseError(TutorError):
    """The course has problems; `problems` lists each with file and line."""

    def __init__(self, problems: list[Problem]):
        super().__init__(Bilingual.same("\n".join(str(p) for p in problems)), exit_code=2)
        self.problems = problems


def read_cell(r: Reader, value: object, line: int, what: str, lesson: bool = False) -> Cell | None:
    # Only lesson cells ask for a prediction: a quiz question is already one.
    shape = FORMAT["cell" if lesson else "evidence"]
    d = r.mapping(value, line, what, shape.required, shape.optional)
    if d is None:
        return None
    cell_id = r.string(d.get("id"), d.line_of("id"), f"{what} id", ID_PATTERN)
    code = r.code(d.get("code"), d.line_of("code"), f"{what} code")
    expect = Expect()
    if "expect" in d:
        shape = FORMAT["expect"]
        e = r.mapping(d["expect"], d.line_of("expect"), f"{what} expect", shape.required, shape.optional)
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
            expect = Expect(
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
        cpu_devices=r.cpu_devices(d.get("cpu_devices"), d.line_of("cpu_devices"), f"{what} cpu_devices"),
        source=Source(r.file, d.line),
        predict=read_prediction(r, d["predict"], d.line_of("predict"), what) if "predict" in d else None,
        teaches=_teaches(r, d, what),
    )


def _teaches(r: Reader, d: LineDict, what: str) -> tuple[str, ...]:
    """A lesson cell's `teaches:`: names of the doctor's findings (tutor.doctor.teaching.FINDINGS)."""
    from tutor.doctor.teaching import NAMES

    names = r.strings(d.get("teaches"), d.line_of("teaches"), f"{what} teaches")
    for name in names:
        if name not in NAMES:
            r.problem(
                d.line_of("teaches"),
                f"{what} teaches '{name}', which is not a finding of the doctor (kind/code: {', '.join(sorted(NAMES))})",
            )
    return tuple(n for n in names if n in NAMES)


def _lesson(r: Reader, value: object, line: int) -> Lesson | None:
    d = r.mapping(value, line, "lesson", FORMAT["lesson"].required, FORMAT["lesson"].optional)
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
        b = r.mapping(raw, bline, f"lesson block {i + 1}", FORMAT["block"].required, FORMAT["block"].optional)
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
    _unique(r, [(c.id, c.source.line if c.source else 0) for c in (b.cell for b in blocks if b.cell)], "cell id")
    return Lesson(id=lesson_id, title=title, order=order, blocks=tuple(blocks), source=Source(r.file, d.line))


# Keys a check had when its code lived in the YAML: say where they went.
_MOVED = {
    "kind": "a check's code is a @check function in checks.py",
    "code": "a check's code is a @check function in checks.py",
    "names": "what a check needs from the learner's file are its function's parameters in checks.py",
    "depends": "depends= is given to @check in checks.py",
}


def _check_texts(
    r: Reader, value: object, line: int, index: int
) -> tuple[str, int, Bilingual | None, Bilingual | None] | None:
    """A check's entry in exercise.yaml: its id, line, name and advice (prose only)."""
    what = f"check {index + 1}"
    if isinstance(value, LineDict):
        for key in [k for k in value if k in _MOVED]:
            r.problem(value.line_of(key), f"'{key}' does not belong in exercise.yaml: {_MOVED[key]}")
    shape = FORMAT["check"]
    d = r.mapping(value, line, what, shape.required, shape.optional | set(_MOVED))  # moved keys: said above
    if d is None:
        return None
    check_id = r.string(d.get("id"), d.line_of("id"), f"{what} id", ID_PATTERN)
    if check_id is None:
        return None
    what = f"check '{check_id}'"
    name = r.text(d.get("name"), d.line_of("name"), f"{what} name")
    advice = r.text(d.get("advice"), d.line_of("advice"), f"{what} advice")
    return check_id, d.line, name, advice


def _read_file(r: Reader, path: Path, what: str) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        r.problem(1, f"{what} missing: {path.name} beside exercise.yaml")
    except (OSError, UnicodeDecodeError) as exc:
        r.problem(1, f"cannot read {path.name}: {exc}")
    return None


def _checks(r: Reader, entries: object, line: int, folder: Path) -> tuple[Check, ...]:
    """The exercise's checks: each @check function of checks.py, in its order, with the name and
    advice its exercise.yaml entry gives it; a function without an entry, or an entry without a
    function, is a problem named at its own line."""
    texts: dict[str, tuple[int, Bilingual | None, Bilingual | None]] = {}
    if not isinstance(entries, LineList) or not entries:
        r.problem(line, "exercise checks must be a non-empty list of {id, name, advice}")
        entries = LineList()
    for i, raw in enumerate(entries):
        read = _check_texts(r, raw, entries.item_lines[i], i)
        if read is None:
            continue
        check_id, cline, name, advice = read
        if check_id in texts:
            r.problem(cline, f"duplicate check id '{check_id}' (first on line {texts[check_id][0]})")
        texts.setdefault(check_id, (cline, name, advice))
    code_file = folder / "checks.py"
    code_reader = Reader(str(Path(r.file).parent / "checks.py"), r.problems, r.lint)
    source = _read_file(r, code_file, "check code")
    if source is None:
        return ()
    decls, problems = read_checks(source)
    if r.lint:  # a rule of the course's own making (every exercise judges hidden state): said by validate
        problems = problems + hidden_state_problems(source)
    for pline, message in problems:
        code_reader.problem(pline, message)
    if r.lint:  # the zh half of the checks' messages follows the course's Chinese rules too
        from tutor.course.markdown_lint import zh_plain_problems

        for sline, text in chinese_strings(source):
            for message in zh_plain_problems(text):
                code_reader.problem(sline, message)
    checks: list[Check] = []
    seen: dict[str, int] = {}
    for decl in decls:
        if decl.id in seen:
            code_reader.problem(decl.line, f"duplicate check id '{decl.id}' (first on line {seen[decl.id]})")
            continue
        seen[decl.id] = decl.line
        if not ID_PATTERN.match(decl.id):
            code_reader.problem(decl.line, f"check id {decl.id!r} may use only a-z, 0-9, '.' and '-'")
        for dep in decl.depends:
            if dep not in seen or dep == decl.id:
                code_reader.problem(decl.line, f"check '{decl.id}' depends on '{dep}', which is not an earlier check")
        if decl.id not in texts:
            code_reader.problem(decl.line, f"check '{decl.id}' has no entry (name, advice) in exercise.yaml")
            continue
        cline, name, advice = texts[decl.id]
        checks.append(
            Check(
                id=decl.id,
                name=name or Bilingual.same(decl.id),
                function=decl.function,
                needs=decl.needs,
                depends=decl.depends,
                advice=advice,
                plots=decl.plots,
                line=decl.line,
                source=Source(r.file, cline),
            )
        )
    for check_id, (cline, _, _) in texts.items():
        if check_id not in seen:
            r.problem(cline, f"check '{check_id}' has no @check function in checks.py")
    return tuple(checks)


def _exercise(r: Reader, value: object, line: int, folder: Path) -> Exercise | None:
    d = r.mapping(value, line, "exercise", FORMAT["exercise"].required, FORMAT["exercise"].optional)
    if d is None:
        return None
    for key, where in (("starter", "starter.py"), ("setup", "checks.py, at module level")):
        if key in d:
            r.problem(d.line_of(key), f"'{key}' does not belong in exercise.yaml: it is {where}")
    ex_id = r.string(d.get("id"), d.line_of("id"), "exercise id", ID_PATTERN)
    if ex_id and ex_id != folder.name:
        r.problem(d.line_of("id"), f"exercise id '{ex_id}' differs from its folder's name '{folder.name}'")
    hints_raw = d.get("hints")
    hints: list[Bilingual] = []
    if not isinstance(hints_raw, LineList) or not hints_raw:
        r.problem(d.line_of("hints"), "exercise hints must be a non-empty list of {zh, en} texts")
    else:
        for i, h in enumerate(hints_raw):
            t = r.text(h, hints_raw.item_lines[i], f"hint {i + 1}")
            if t:
                hints.append(t)
    checks = _checks(r, d.get("checks"), d.line_of("checks"), folder)
    starter = _read_file(r, folder / "starter.py", "starter") or ""
    if starter:
        try:
            compile(starter, str(folder / "starter.py"), "exec")
        except SyntaxError as exc:
            r.problems.append(
                Problem(
                    str(Path(r.file).parent / "starter.py"),
                    exc.lineno or 1,
                    f"starter has a Python syntax error: {exc.msg}",
                )
            )
    result = Exercise(
        id=ex_id or "",
        lesson=r.string(d.get("lesson"), d.line_of("lesson"), "exercise lesson") or "",
        order=r.number(d.get("order"), d.line_of("order"), "exercise order", 100.0),
        title=r.text(d.get("title"), d.line_of("title"), "exercise title") or Bilingual.same(ex_id or ""),
        prompt=r.text(d.get("prompt"), d.line_of("prompt"), "exercise prompt") or Bilingual.same(""),
        starter=starter,
        hints=tuple(hints),
        checks=checks,
        timeout=r.number(d.get("timeout"), d.line_of("timeout"), "exercise timeout", 60.0),
        chart=r.text(d.get("chart"), d.line_of("chart"), "exercise chart"),
        points=r.points(d.get("points"), d.line_of("points"), "exercise points", DEFAULT_POINTS),
        folder=folder,
        source=Source(r.file, d.line),
    )
    if checks and any(c.plots for c in checks) and result.chart is None:
        r.problem(d.line, "a check plots (plots=True) but the exercise has no chart: title")
    return result if ex_id else None


def _questions(r: Reader, value: object, line: int, what: str, lesson: str | None = None) -> list[Question]:
    if not isinstance(value, LineList) or not value:
        r.problem(line, f"{what} questions must be a non-empty list")
        return []
    questions = []
    for i, q in enumerate(value):
        question = read_question(r, q, value.item_lines[i], f"{what} question {i + 1}", read_cell, lesson)
        if question is not None:
            questions.append(question)
    _unique(r, [(q.id, q.source.line if q.source else 0) for q in questions], "question id")
    return questions


def _quiz(r: Reader, value: object, line: int) -> tuple[list[Question], float]:
    """The quiz's questions and its worth in `grade`'s table."""
    d = r.mapping(value, line, "quiz", FORMAT["quiz"].required, FORMAT["quiz"].optional)
    if d is None:
        return [], 0.0
    points = r.points(d.get("points"), d.line_of("points"), "quiz points", 0.0)
    return _questions(r, d.get("questions"), d.line_of("questions"), "quiz"), points


def _checkpoint(r: Reader, value: object, line: int) -> Checkpoint | None:
    d = r.mapping(value, line, "checkpoint", FORMAT["checkpoint"].required, FORMAT["checkpoint"].optional)
    if d is None:
        return None
    lesson = r.string(d.get("lesson"), d.line_of("lesson"), "checkpoint lesson", ID_PATTERN)
    questions = _questions(r, d.get("questions"), d.line_of("questions"), f"checkpoint {lesson}", lesson)
    for q in questions:
        if q.lesson != lesson:
            r.problem(
                q.source.line if q.source else 0, f"question '{q.id}' of checkpoint {lesson} names lesson '{q.lesson}'"
            )
    points = r.points(d.get("points"), d.line_of("points"), "checkpoint points", 0.0)
    return Checkpoint(lesson, tuple(questions), Source(r.file, d.line), points) if lesson and questions else None


def _lint_questions(r: Reader, questions: Iterable[Question]) -> None:
    """With lint: a question (or sibling) whose right option stands out by its form alone."""
    if r.lint:
        for question in questions:
            for line, message in question_giveaways(question):
                r.problem(line, message)


def _unique(r: Reader, ids: list[tuple[str, int]], what: str) -> None:
    first: dict[str, int] = {}
    for ident, line in ids:
        if ident in first:
            r.problem(line, f"duplicate {what} '{ident}' (first defined on line {first[ident]})")
        else:
            first.setdefault(ident, line)


_READ: dict[bytes, tuple[Course, tuple[Problem, ...]]] = {}
_READ_KEPT = 4  # courses kept per process: the shipped one, and a few a test or an author edits


def read_course(root: Path, lint: bool = False) -> tuple[Course, list[Problem]]:
    """Load everything under root/lessons; return the course and every problem found.
    `lint` also reports texts whose Markdown would not render as meant (slower; `validate`).
    A course whose files have not changed is not parsed again (0.25 s of CPU a read, asked for by
    every CLI command and TUI start): it is kept in this process and on disk (tutor.course.kept),
    under its fingerprint. The model is frozen; the problems are a new list for each caller."""
    digest = fingerprint(root, lint)
    if digest is None:
        return _read_course(root, lint)
    if digest not in _READ:
        value = kept.load(digest)
        if not _is_read(value):
            course, found = _read_course(root, lint)
            value = (course, tuple(found))
            kept.keep(digest, value)
        while len(_READ) >= _READ_KEPT:
            del _READ[next(iter(_READ))]
        _READ[digest] = value
    course, problems = _READ[digest]
    return course, list(problems)


def _is_read(value: object) -> TypeGuard[tuple[Course, tuple[Problem, ...]]]:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], Course)
        and isinstance(value[1], tuple)
        and all(isinstance(p, Problem) for p in value[1])
    )


@dataclass
class _Parts:
    """What the course's files have given so far, each file adding its one top-level part."""

    lessons: list[Lesson] = field(default_factory=list)
    exercises: list[Exercise] = field(default_factory=list)
    quiz: list[Question] = field(default_factory=list)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    misconceptions: list[Misconception] = field(default_factory=list)
    quiz_points: float = 0.0
    identity: Identity | None = None


def _read_course(root: Path, lint: bool) -> tuple[Course, list[Problem]]:
    problems: list[Problem] = []
    parts = _Parts()
    lessons_dir = root / "lessons"
    if not lessons_dir.is_dir():
        problems.append(Problem(str(lessons_dir), 0, "course folder 'lessons' not found"))
    files = sorted(lessons_dir.rglob("*.yaml")) if lessons_dir.is_dir() else []
    for path in files:
        try:
            rel = str(path.relative_to(root))
        except ValueError:
            rel = str(path)
        r = Reader(rel, problems, lint)
        top = _top_level(r, path)
        if top is not None:
            _take_part(parts, r, path, *top)
    _course_wide_problems(root, parts, problems, lint)
    lessons, exercises, checkpoints = parts.lessons, parts.exercises, parts.checkpoints
    lesson_order = {l.id: l.order for l in lessons}
    exercises.sort(key=lambda e: (lesson_order.get(e.lesson, math.inf), e.order, e.id))
    course = Course(
        root=root,
        lessons=tuple(sorted(lessons, key=lambda l: (l.order, l.id))),
        # an exercise's `order` places it within its lesson: the lessons' order comes first
        exercises=tuple(sorted(exercises, key=lambda e: (lesson_order.get(e.lesson, math.inf), e.order, e.id))),
        quiz=tuple(parts.quiz),
        checkpoints=tuple(sorted(checkpoints, key=lambda c: next((l.order for l in lessons if l.id == c.lesson), 0))),
        misconceptions=tuple(parts.misconceptions),
        quiz_points=parts.quiz_points,
        identity=replace(parts.identity or _folder_identity(root), content_hash=content_hash(root)),
        drills=tuple(_drills(root, exercises, problems)),
    )
    return course, problems


def _top_level(r: Reader, path: Path) -> tuple[str, object, int] | None:
    """A course file's one top-level key (its kind), what it holds and its line; None (the problem
    recorded) where the file is not YAML, cannot be read, or holds anything else."""
    try:
        data = read_yaml(path)
    except YamlError as exc:
        r.problem(exc.line, f"YAML error: {exc}")
        return None
    except OSError as exc:
        r.problem(0, f"cannot read file: {exc.strerror}")
        return None
    if not isinstance(data, LineDict) or len(data) != 1 or next(iter(data)) not in TOP_KEYS:
        r.problem(
            getattr(data, "line", 1),
            "a course file must hold exactly one of "
            + ", ".join(f"'{k}:'" for k in TOP_KEYS[:-1])
            + f" or '{TOP_KEYS[-1]}:' at the top",
        )
        return None
    kind, body = next(iter(data.items()))
    return kind, body, data.line_of(kind)


def _take_part(parts: _Parts, r: Reader, path: Path, kind: str, body: object, line: int) -> None:
    """Read one file's part of the course (a lesson, an exercise, a checkpoint, the catalogue of
    misconceptions, the course's name, or the quiz) into `parts`."""
    if kind == "lesson":
        if (lesson := _lesson(r, body, line)) is not None:
            parts.lessons.append(lesson)
            if r.lint:  # a prediction whose answer the screen already shows
                for cell_line, message in giveaways(lesson):
                    r.problem(cell_line, message)
    elif kind == "exercise":
        if path.name != "exercise.yaml" or path.parent.parent.name != "exercises":
            r.problem(
                line,
                "an exercise is a folder: lessons/exercises/<id>/exercise.yaml beside starter.py and checks.py",
            )
            return
        if (exercise := _exercise(r, body, line, path.parent)) is not None:
            parts.exercises.append(exercise)
    elif kind == "checkpoint":
        if (checkpoint := _checkpoint(r, body, line)) is not None:
            parts.checkpoints.append(checkpoint)
            _lint_questions(r, checkpoint.questions)
    elif kind == "misconceptions":
        parts.misconceptions += read_misconceptions(r, body, line)
    elif kind == "course":
        if r.file != str(Path("lessons") / "course.yaml") or parts.identity is not None:
            r.problem(line, "the course's name belongs in lessons/course.yaml, once")
            return
        parts.identity = _identity(r, body, line)
    else:
        questions, points = _quiz(r, body, line)
        parts.quiz.extend(questions)
        parts.quiz_points += points
        _lint_questions(r, questions)


def _course_wide_problems(root: Path, parts: _Parts, problems: list[Problem], lint: bool) -> None:
    """The rules that span files, once every file is read."""
    _cross_check(root, parts.lessons, parts.exercises, parts.quiz, parts.checkpoints, problems)
    if lint:  # a prediction an earlier lesson's already answered
        for source, message in earlier_giveaways(sorted(parts.lessons, key=lambda l: (l.order, l.id))):
            problems.append(problem_at(source, message))
    questions = [q for c in parts.checkpoints for q in c.questions] + parts.quiz
    lesson_ids = {l.id for l in parts.lessons}
    for source, message in misconception_problems(parts.misconceptions, questions, lesson_ids):
        problems.append(problem_at(source, message))


def _drills(root: Path, exercises: list[Exercise], problems: list[Problem]) -> list[Drill]:
    """Each exercise's spot-the-bug drills, in the exercises' order."""
    drills: list[Drill] = []
    for e in exercises:
        if e.folder is not None:
            found: list[tuple[str, int, str]] = []
            drills += read_drills(e.folder, e.id, e.lesson, root, found)
            problems += [Problem(*p) for p in found]
    return drills


def _identity(r: Reader, value: object, line: int) -> Identity | None:
    d = r.mapping(value, line, "course", FORMAT["course"].required, FORMAT["course"].optional)
    if d is None:
        return None
    course_id = r.string(d.get("id"), d.line_of("id"), "course id", ID_PATTERN)
    title = r.text(d.get("title"), d.line_of("title"), "course title")
    doctor = d.get("doctor", False)
    if not isinstance(doctor, bool):
        r.problem(d.line_of("doctor"), "course doctor must be true or false")
        doctor = False
    return Identity(course_id, title, doctor) if course_id and title else None


def folder_course_id(name: str) -> str:
    """A course id made of a folder's name ("My Course" -> "my-course")."""
    return re.sub(r"[^a-z0-9.-]+", "-", name.lower()).strip("-.") or "course"


def _folder_identity(root: Path) -> Identity:
    """A course without lessons/course.yaml is called by its folder's name; it offers no doctor."""
    name = root.resolve().name or "course"
    return Identity(folder_course_id(name), Bilingual(en=name, zh=name))


def _cross_check(
    root: Path,
    lessons: list[Lesson],
    exercises: list[Exercise],
    quiz: list[Question],
    checkpoints: list[Checkpoint],
    problems: list[Problem],
) -> None:
    """Rules that span files: unique ids, lessons that exist, a solution per exercise."""

    def unique(named: Iterable[tuple[str, Source | None]], what: str) -> None:
        first: dict[str, Source | None] = {}
        for ident, source in named:
            if ident in first:
                problems.append(problem_at(source, f"duplicate {what} '{ident}' (first in {first[ident]})"))
            else:
                first[ident] = source

    unique(((l.id, l.source) for l in lessons), "lesson id")
    unique(((e.id, e.source) for e in exercises), "exercise id")
    questions = [q for c in checkpoints for q in c.questions] + list(quiz)
    unique(((q.id, q.source) for q in questions), "question id")
    unique(((c.lesson, c.source) for c in checkpoints), "checkpoint of lesson")
    runs = [q.template.cell(q.id, i) for q in questions if q.template for i in range(q.variants())]
    asked = [q.asked(i) for q in questions for i in range(q.variants())]
    cells = [c for l in lessons for c in l.cells] + [q.evidence for q in asked if q.evidence] + runs
    unique(((c.id, c.source) for c in cells), "cell id")
    lesson_ids = {l.id for l in lessons}
    for e in exercises:
        if lessons and e.lesson not in lesson_ids:
            problems.append(problem_at(e.source, f"exercise '{e.id}' names lesson '{e.lesson}', which does not exist"))
        if not (root / "solutions" / f"{e.id}.py").is_file():
            problems.append(problem_at(e.source, f"solution file missing: solutions/{e.id}.py"))
    for c in checkpoints:
        if lessons and c.lesson not in lesson_ids:
            problems.append(problem_at(c.source, f"checkpoint names lesson '{c.lesson}', which does not exist"))
    for q in quiz:
        if lessons and q.lesson is not None and q.lesson not in lesson_ids:
            problems.append(problem_at(q.source, f"question '{q.id}' names lesson '{q.lesson}', which does not exist"))


def problem_at(source: Source | None, message: str) -> Problem:
    """A problem where an object was read (every object the loader makes says where)."""
    return Problem(source.file if source else "lessons", source.line if source else 0, message)


def load_course(root: Path | None = None) -> Course:
    """The course at root (default: the installed one); raises CourseError if it has problems."""
    from tutor.settings import course_of

    course, problems = read_course(root or course_of())
    if problems:
        raise CourseError(problems)
    return course
