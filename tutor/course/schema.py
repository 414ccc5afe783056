"""The course's YAML format, declared once: every mapping an author writes, its keys, which are
required, and what each holds. The loader takes each mapping's keys from here (an unknown key is
a problem, a missing required one too), and `jaxstate-tutor schema` writes the same declaration
as a JSON Schema for editors (docs/course.schema.json, kept current by a test).

What a key's value must be beyond its type (a regex with a group, a placeholder every variant
gives, a unique id) stays with the loader, which says it with file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tutor.i18n import LANGS

ID_REGEX = r"^[a-z0-9][a-z0-9.\-]*$"
PLACEHOLDER_REGEX = r"^[a-z_][a-z0-9_]*$"  # a template variant's $name
LETTERS = ("A", "B", "C", "D")
MAX_CPU_DEVICES = 8  # a cell's virtual CPU devices: enough to show sharding, few enough for a laptop


@dataclass(frozen=True)
class Key:
    """One key of a mapping: what it holds (a kind below, or another mapping's name) and its meaning."""

    holds: str
    about: str
    required: bool = True
    list_of: bool = False  # a list of what `holds` names
    min_items: int = 1  # of that list


@dataclass(frozen=True)
class Mapping:
    """A YAML mapping of the course format. `one_of`: exactly one of its keys is written."""

    about: str
    keys: dict[str, Key]
    one_of: bool = False

    @property
    def required(self) -> set[str]:
        return {k for k, key in self.keys.items() if key.required and not self.one_of}

    @property
    def optional(self) -> set[str]:
        return set(self.keys) - self.required


def _opt(holds: str, about: str, list_of: bool = False) -> Key:
    return Key(holds, about, required=False, list_of=list_of)


# The kinds of value a key may hold besides another mapping, as JSON Schema.
KINDS: dict[str, dict[str, Any]] = {
    "id": {"type": "string", "pattern": ID_REGEX, "description": "an id: a-z, 0-9, '.' and '-' (quote 6.1)"},
    "text": {"$ref": "#/$defs/text"},
    "code": {"type": "string", "description": "Python code"},
    "positive": {"type": "number", "exclusiveMinimum": 0},
    "cpu-devices": {"type": "integer", "minimum": 1, "maximum": MAX_CPU_DEVICES},
    "points": {"type": "number", "minimum": 0, "description": "points in `grade`'s table (0: not graded)"},
    "string": {"type": "string", "minLength": 1},
    "regex": {"type": "string", "format": "regex", "description": "a regex (re.M); group 1 is what the run shows"},
    "strings": {"type": "array", "items": {"type": "string"}},
    "letter": {"type": "string", "enum": list(LETTERS)},
    "boolean": {"type": "boolean"},
    "scalar": {"type": ["string", "number", "boolean"], "description": "as the run prints it"},
    "number-or-letter": {"type": ["number", "string"], "description": "a number, or a letter among the options"},
    "class-name": {"type": "string", "pattern": r"^[A-Za-z_][A-Za-z0-9_]*$", "description": "an exception class"},
    "variant": {
        "type": "object",
        "minProperties": 1,
        "propertyNames": {"pattern": PLACEHOLDER_REGEX, "not": {"const": "answer"}},
        "additionalProperties": {"type": ["string", "number"]},
        "description": "$name: text or a number",
    },
}

_CELL_KEYS = {
    "id": Key("id", "unique across the whole course"),
    "code": Key("code", "runs standalone in a fresh worker (import what you use)"),
    "caption": _opt("text", "shown above the code"),
    "expect": _opt("expect", "what the run must do; the test suite checks it on each JAX version CI runs"),
    "timeout": _opt("positive", "seconds (default 60)"),
    "cpu_devices": _opt("cpu-devices", "virtual CPU devices its worker starts with (default 1), for multi-device code"),
}
_LETTERED_QUESTION_KEYS = {
    "prompt": Key("text", "the question"),
    "options": Key("lettered", "A to D, each a belief a learner really holds"),
    "answer": Key("letter", "the right option"),
    "explain": Key("lettered", "why each option is right or wrong"),
    "evidence": _opt("evidence", "a cell that proves the answer"),
    "beliefs": _opt("option-beliefs", "the belief a wrong option shows, where not the question's `misconception`"),
}

FORMAT: dict[str, Mapping] = {
    # the kinds of file: each holds exactly one of these keys at the top
    "lesson-file": Mapping("lessons/*.yaml: one lesson", {"lesson": Key("lesson", "the lesson")}),
    "exercise-file": Mapping(
        "lessons/exercises/<id>/exercise.yaml: an exercise's texts", {"exercise": Key("exercise", "the exercise")}
    ),
    "checkpoint-file": Mapping(
        "lessons/checkpoints/<lesson>.yaml: a lesson's questions", {"checkpoint": Key("checkpoint", "the checkpoint")}
    ),
    "quiz-file": Mapping(
        "lessons/quiz.yaml: the course's quiz (optional: without it, no quiz is offered)",
        {"quiz": Key("quiz", "the quiz")},
    ),
    "misconceptions-file": Mapping(
        "lessons/misconceptions.yaml: what the questions test",
        {"misconceptions": Key("misconception", "each belief a question tests", list_of=True)},
    ),
    "course-file": Mapping(
        "lessons/course.yaml: the course's own name (optional: without it, the folder's name)",
        {"course": Key("course", "the course as a whole")},
    ),
    "course": Mapping(
        "the course as a whole: what every screen, `list` and each export call it",
        {
            "id": Key("id", "the course's id: an export names it, and `grade` refuses another course's"),
            "title": Key("text", "the title every screen shows"),
            "doctor": _opt("boolean", "the course teaches what `doctor` finds: the outline offers it (default false)"),
        },
    ),
    "text": Mapping(
        "a text in every language, Markdown", {lang: Key("string", f"the text in {lang}") for lang in LANGS}
    ),
    "lesson": Mapping(
        "a lesson: texts and runnable cells, in order",
        {
            "id": Key("id", "quoted: 6.1 would otherwise be a number"),
            "order": Key("positive", "position in the outline"),
            "title": Key("text", "the lesson's title"),
            "blocks": Key("block", "shown in order; each text about one terminal screen", list_of=True, min_items=0),
        },
    ),
    "block": Mapping(
        "a piece of a lesson: a text or a cell",
        {"text": Key("text", "Markdown"), "cell": Key("cell", "a runnable demonstration")},
        one_of=True,
    ),
    "cell": Mapping(
        "a lesson's runnable demonstration",
        _CELL_KEYS
        | {
            "predict": _opt("predict", "a question asked before the cell runs, answered by its output"),
            "teaches": _opt(
                "strings", "the doctor's findings whose fix this cell shows, each kind/code (retrace/shape)"
            ),
        },
    ),
    "evidence": Mapping("a question's proof: a cell that runs", dict(_CELL_KEYS)),
    "expect": Mapping(
        "what a cell must do when run",
        {
            "raises": _opt("class-name", "the exception it raises (or a base class of it)"),
            "output_contains": _opt("strings", "substrings of its stdout"),
            "output_matches": _opt("strings", "regexes (re.M) searched in its stdout"),
        },
    ),
    "predict": Mapping(
        "a prediction: asked before the cell runs, answered by what it prints",
        {
            "question": Key("text", "what the learner predicts"),
            "answer": Key("number-or-letter", "a number, or with options a letter"),
            "reveal": Key("regex", "group 1 on the cell's stdout must equal the answer"),
            "options": _opt("predict-options", "2 to 4 choices lettered from A"),
            "explain": _opt("text", "shown after the run, beside the guess"),
        },
    ),
    "predict-options": Mapping(
        "a prediction's choices, lettered from A",
        {letter: _opt("option", f"choice {letter}") for letter in LETTERS},
    ),
    "option": Mapping(
        "one choice of a prediction",
        {
            "value": Key("scalar", "compared with what the run shows"),
            "text": _opt("text", "the choice in words"),
        },
    ),
    "exercise": Mapping(
        "an exercise's texts (its starter.py and checks.py lie beside)",
        {
            "id": Key("id", "the folder's name"),
            "lesson": Key("id", "the lesson it practices; it comes after it on the path"),
            "title": Key("text", "the exercise's title"),
            "prompt": Key("text", "the task, its interface exactly"),
            "hints": Key("text", "progressive: vague first, nearly the answer last", list_of=True),
            "checks": Key("check", "each @check of checks.py, in its order", list_of=True),
            "order": _opt("positive", "position among the lesson's exercises (unique within it)"),
            "timeout": _opt("positive", "seconds of wall clock for the whole run (default 60)"),
            "chart": _opt("text", "title of the live chart of a check's metric points"),
            "points": _opt("points", "what a pass is worth in `grade`'s table (default 1)"),
        },
    ),
    "check": Mapping(
        "how the learner sees one check of checks.py",
        {
            "id": Key("id", "the id given to @check"),
            "name": Key("text", "what it judges"),
            "advice": _opt("text", "where to look when it fails, appended to the failure"),
        },
    ),
    "checkpoint": Mapping(
        "a lesson's own questions, asked right after it",
        {
            "lesson": Key("id", "the lesson it tests"),
            "questions": Key("question", "its questions", list_of=True),
            "points": _opt("points", "its worth in `grade`'s table, times the first-try share right (default 0)"),
        },
    ),
    "quiz": Mapping(
        "the course's quiz (optional: without it, no quiz is offered)",
        {
            "questions": Key("question", "its questions", list_of=True),
            "points": _opt("points", "its worth in `grade`'s table, times the first-try share right (default 0)"),
        },
    ),
    "misconception": Mapping(
        "a mistaken belief that questions test; the progress screen names those still missed",
        {
            "id": Key("id", "what a question's `misconception:` names"),
            "lesson": Key("id", "the lesson that sets it right"),
            "text": Key("text", "the belief, as 'thinking ...' / '以为……'"),
        },
    ),
    "question": Mapping(
        "a lettered question",
        {
            "id": Key("id", "unique across every checkpoint and the quiz"),
            **_LETTERED_QUESTION_KEYS,
            "lesson": _opt("id", "the lesson it tests (a checkpoint's by default)"),
            "siblings": _opt("sibling", "questions on the same misconception, asked on a retry", list_of=True),
            "misconception": _opt(
                "id", "the belief it tests: an id from lessons/misconceptions.yaml (each wrong option's by default)"
            ),
        },
    ),
    "template-question": Mapping(
        "a question whose numbers vary: the learner types a number",
        {
            "id": Key("id", "unique across every checkpoint and the quiz"),
            "prompt": Key("text", "the question, with $name placeholders"),
            "template": Key("template", "the variants and the code that answers each"),
            "evidence": _opt("evidence", "a cell that proves the answer"),
            "lesson": _opt("id", "the lesson it tests (a checkpoint's by default)"),
            "misconception": _opt("id", "the belief it tests: an id from lessons/misconceptions.yaml"),
            "beliefs": Key(
                "id",
                "the belief a wrong answer to each variant shows, in the variants' order (default: `misconception`)",
                required=False,
                list_of=True,
                min_items=2,
            ),
        },
    ),
    "sibling": Mapping("a lettered question asked in another's place on a retry", dict(_LETTERED_QUESTION_KEYS)),
    "option-beliefs": Mapping(
        "for a wrong option, the belief picking it shows: an id from lessons/misconceptions.yaml",
        {letter: _opt("id", f"the belief option {letter} shows") for letter in LETTERS},
    ),
    "lettered": Mapping("a text for each of A to D", {letter: Key("text", f"option {letter}") for letter in LETTERS}),
    "template": Mapping(
        "variants of one numeric question; the answer is what the code prints",
        {
            "variants": Key("variant", "at least 2, all different: $name values", list_of=True, min_items=2),
            "code": Key("code", "runs in a worker for each variant, placeholders filled"),
            "reveal": Key("regex", "group 1 on the code's stdout is the answer"),
            "explain": Key("text", "shown after the answer; may use $answer"),
            "timeout": _opt("positive", "seconds (default 60)"),
        },
    ),
}


def json_schema() -> dict[str, Any]:
    """The format as a JSON Schema (draft 2020-12): a course YAML file is one of the kinds of file."""
    defs: dict[str, dict[str, Any]] = {name: _mapping_schema(m) for name, m in FORMAT.items()}
    # a question is lettered or a template, told apart by its `template` key
    defs["any-question"] = {
        "if": {"required": ["template"]},
        "then": {"$ref": "#/$defs/template-question"},
        "else": {"$ref": "#/$defs/question"},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "jaxstate-tutor course file",
        "description": "A YAML file under a course's lessons/ (lessons/README.md). Made by `jaxstate-tutor schema` "
        "from tutor/course/schema.py; `jaxstate-tutor validate` checks what a schema cannot say.",
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in FORMAT if name.endswith("-file")],
        "$defs": defs,
    }


def _mapping_schema(m: Mapping) -> dict[str, Any]:
    properties = {name: _key_schema(key) for name, key in m.keys.items()}
    schema: dict[str, Any] = {
        "type": "object",
        "description": m.about,
        "properties": properties,
        "additionalProperties": False,
    }
    if m.one_of:
        schema |= {"minProperties": 1, "maxProperties": 1}
    elif m.required:
        schema["required"] = [k for k in m.keys if k in m.required]
    return schema


def _key_schema(key: Key) -> dict[str, Any]:
    holds = "any-question" if key.holds == "question" else key.holds
    one = dict(KINDS[holds]) if holds in KINDS else {"$ref": f"#/$defs/{holds}"}
    if key.list_of:
        return {"type": "array", "minItems": key.min_items, "items": one, "description": key.about}
    return one | {"description": key.about} if "$ref" not in one else {"$ref": one["$ref"], "description": key.about}
