"""A checkpoint or quiz question as YAML: lettered options with an authored answer, or a
template whose numbers vary from one asking to the next.

A template's answer is never typed by an author (see model.Template); here its placeholders
are checked: every one the texts and the code use is given by every variant.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable

from tutor.course.cjk import display_width
from tutor.course.model import ANSWER, Cell, Question, Source, Template
from tutor.course.predict import OPTION_LETTERS
from tutor.course.reader import Reader
from tutor.course.schema import FORMAT, ID_REGEX, PLACEHOLDER_REGEX
from tutor.course.yamlread import LineDict, LineList
from tutor.i18n import Bilingual

ID_PATTERN = re.compile(ID_REGEX)
PARAM_PATTERN = re.compile(PLACEHOLDER_REGEX)
# The widest line of code a question may show: what a fenced block has of the question pane at
# 80x24 (Textual clips a fence, it does not wrap it, and the clipped part can hold the answer).
CODE_COLUMNS = 74
_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
# read_cell(r, value, line, what): the loader's reader of cells, for a question's evidence
CellReader = Callable[[Reader, object, int, str], Cell | None]


def read_question(
    r: Reader, value: object, line: int, what: str, read_cell: CellReader, lesson_default: str | None = None
) -> Question | None:
    """One question: lettered (options, answer, explain) or a template (no options: a number).
    `read_cell` reads its optional evidence cell (the loader's reader of cells)."""
    templated = isinstance(value, LineDict) and "template" in value
    shape = FORMAT["template-question" if templated else "question"]
    d = r.mapping(value, line, what, shape.required, shape.optional)
    if d is None:
        return None
    qid = r.string(d.get("id"), d.line_of("id"), f"{what} id", ID_PATTERN)
    if qid:
        what = f"question '{qid}'"
    prompt = r.text(d.get("prompt"), d.line_of("prompt"), f"{what} prompt")
    lesson = lesson_default
    if "lesson" in d:
        lesson = r.string(d["lesson"], d.line_of("lesson"), f"{what} lesson", ID_PATTERN)
    evidence = None
    if "evidence" in d:
        evidence = read_cell(r, d["evidence"], d.line_of("evidence"), f"{what} evidence")
    tag = None  # which belief it tests; the loader checks the catalogue names it
    if "misconception" in d:
        tag = r.string(d["misconception"], d.line_of("misconception"), f"{what} misconception", ID_PATTERN)
    source = Source(r.file, line)
    if templated:
        template = _template(r, d["template"], d.line_of("template"), what, prompt, source)
        if prompt and template:
            _code_fits(r, prompt, d.line_of("prompt"), what, template)
        beliefs = _variant_beliefs(r, d, what, template)
        if qid and prompt and template and beliefs is not None:
            return Question(
                qid, prompt, {}, "", {}, evidence, source, lesson, template, misconception=tag, beliefs=beliefs
            )
        return None
    if prompt:
        _code_fits(r, prompt, d.line_of("prompt"), what)
    options = _lettered(r, d.get("options"), d.line_of("options"), f"{what} options")
    explain = _lettered(r, d.get("explain"), d.line_of("explain"), f"{what} explain")
    answer = d.get("answer")
    if answer not in OPTION_LETTERS:
        r.problem(d.line_of("answer"), f"{what} answer must be one of {', '.join(OPTION_LETTERS)}")
    siblings = _siblings(r, d, what, qid, lesson, read_cell, tag) if "siblings" in d else ()
    beliefs = _option_beliefs(r, d, what)
    if (
        qid
        and prompt
        and options
        and explain
        and answer in OPTION_LETTERS
        and siblings is not None
        and beliefs is not None
    ):
        return Question(
            qid,
            prompt,
            options,
            answer,
            explain,
            evidence,
            source,
            lesson,
            siblings=siblings,
            misconception=tag,
            beliefs=beliefs,
        )
    return None


def _option_beliefs(r: Reader, d: LineDict, what: str) -> dict[str, str] | None:
    """`beliefs:` of a lettered question or sibling: option letter -> belief id (whether each
    names a catalogued belief, and no right answer is given one, is the loader's cross-check)."""
    if "beliefs" not in d:
        return {}
    shape = FORMAT["option-beliefs"]
    m = r.mapping(d["beliefs"], d.line_of("beliefs"), f"{what} beliefs", shape.required, shape.optional)
    if m is None or not m.keys() <= set(OPTION_LETTERS):
        return None
    found = {k: r.string(v, m.line_of(k), f"{what} beliefs {k}", ID_PATTERN) for k, v in m.items()}
    return {k: v for k, v in found.items() if v} if all(found.values()) else None


def _variant_beliefs(r: Reader, d: LineDict, what: str, template: Template | None) -> dict[str, str] | None:
    """`beliefs:` of a template question: one belief id per variant, in order -> {"0": id, ...}."""
    if "beliefs" not in d:
        return {}
    value, line = d["beliefs"], d.line_of("beliefs")
    if not isinstance(value, LineList) or (template and len(value) != len(template.variants)):
        count = f"{len(template.variants)} " if template else ""
        r.problem(line, f"{what} beliefs must be a list of {count}belief ids, one per variant in order")
        return None
    found = [r.string(v, value.item_lines[i], f"{what} beliefs {i + 1}", ID_PATTERN) for i, v in enumerate(value)]
    return {str(i): b for i, b in enumerate(found) if b} if all(found) else None


def _code_fits(r: Reader, prompt: Bilingual, line: int, what: str, template: Template | None = None) -> None:
    """Every line of the prompt's code, in each language and each variant filled in, fits the
    question pane at 80 columns (Chinese characters count two)."""
    for lang in ("en", "zh"):
        text = prompt.get(lang)
        filled = [template.fill(text, i) for i in range(len(template.variants))] if template else [text]
        for shown in dict.fromkeys(filled):
            for fence in _FENCE.finditer(shown):
                for code_line in fence.group(0).splitlines():
                    if display_width(code_line) > CODE_COLUMNS:
                        r.problem(
                            line,
                            f"{what} prompt ({lang}) has a code line {display_width(code_line)} columns wide, "
                            f"over the {CODE_COLUMNS} the question pane shows at 80x24: {code_line.strip()}",
                        )
                        return


def _siblings(
    r: Reader, d: LineDict, what: str, qid: str | None, lesson: str | None, read_cell: CellReader, tag: str | None
) -> tuple[Question, ...] | None:
    """The lettered questions asked in a question's place on a retry: each a whole question of its
    own (prompt, options, answer, explain, optional evidence) on the same misconception, `tag`."""
    value, line = d["siblings"], d.line_of("siblings")
    if not isinstance(value, LineList) or not value:
        r.problem(line, f"{what} siblings must be a non-empty list of lettered questions")
        return None
    found = []
    for i, item in enumerate(value):
        where = f"{what} sibling {i + 1}"
        s = r.mapping(item, value.item_lines[i], where, FORMAT["sibling"].required, FORMAT["sibling"].optional)
        if s is None:
            return None
        prompt = r.text(s.get("prompt"), s.line_of("prompt"), f"{where} prompt")
        options = _lettered(r, s.get("options"), s.line_of("options"), f"{where} options")
        explain = _lettered(r, s.get("explain"), s.line_of("explain"), f"{where} explain")
        answer = s.get("answer")
        if answer not in OPTION_LETTERS:
            r.problem(s.line_of("answer"), f"{where} answer must be one of {', '.join(OPTION_LETTERS)}")
        evidence = read_cell(r, s["evidence"], s.line_of("evidence"), f"{where} evidence") if "evidence" in s else None
        beliefs = _option_beliefs(r, s, where)
        if not (qid and prompt and options and explain and answer in OPTION_LETTERS and beliefs is not None):
            return None
        source = Source(r.file, s.line)
        found.append(
            Question(
                qid, prompt, options, answer, explain, evidence, source, lesson, misconception=tag, beliefs=beliefs
            )
        )
    return tuple(found)


def _lettered(r: Reader, value: object, line: int, what: str) -> dict[str, Bilingual] | None:
    d = r.mapping(value, line, what, FORMAT["lettered"].required, FORMAT["lettered"].optional)
    if d is None or set(d) != set(OPTION_LETTERS):
        return None
    texts = {k: r.text(d[k], d.line_of(k), f"{what} {k}") for k in OPTION_LETTERS}
    read = {k: text for k, text in texts.items() if text is not None}
    return read if len(read) == len(texts) else None


def _template(
    r: Reader, value: object, line: int, what: str, prompt: Bilingual | None, source: Source
) -> Template | None:
    what = f"{what} template"
    d = r.mapping(value, line, what, FORMAT["template"].required, FORMAT["template"].optional)
    if d is None:
        return None
    ok = True
    code = d.get("code", "")
    if "code" in d and (not isinstance(code, str) or not code.strip()):
        r.problem(d.line_of("code"), f"{what} code must be a block of Python code")
        code, ok = "", False
    explain = r.text(d.get("explain"), d.line_of("explain"), f"{what} explain")
    reveal = d.get("reveal")
    if "reveal" in d:
        if not isinstance(reveal, str) or not reveal.strip():
            r.problem(d.line_of("reveal"), f"{what} reveal must be a regex on the code's output")
            ok = False
        else:
            try:
                if re.compile(reveal).groups < 1:
                    r.problem(d.line_of("reveal"), f"{what} reveal {reveal!r} has no group: put the answer in ( )")
                    ok = False
            except re.error as exc:
                r.problem(d.line_of("reveal"), f"{what} reveal: bad regex {reveal!r}: {exc}")
                ok = False
    variants = _variants(r, d.get("variants"), d.line_of("variants"), what)
    if variants is None:
        return None
    # Every placeholder the texts and the code use is given by every variant, and nothing more.
    texts = [("code", code)]
    if prompt:
        texts += [("prompt (en)", prompt.en), ("prompt (zh)", prompt.zh)]
    if explain:
        texts += [("explain (en)", explain.en), ("explain (zh)", explain.zh)]
    used: set[str] = set()
    for label, text in texts:
        names, bad = placeholders(text)
        if bad:
            r.problem(d.line, f"{what}: {label} has a '$' that is no placeholder ({bad!r}); write $$ for a dollar sign")
            ok = False
        if label == "code" and ANSWER in names:
            r.problem(d.line_of("code"), f"{what}: the code cannot use ${ANSWER}: the answer is what it prints")
            ok = False
        used |= names - {ANSWER}
    for i, variant in enumerate(variants):
        missing, unused = sorted(used - variant.keys()), sorted(variant.keys() - used)
        vline = d["variants"].item_lines[i]
        if missing:
            r.problem(vline, f"{what} variant {i + 1} gives no value for {', '.join('$' + m for m in missing)}")
            ok = False
        for name, value in variant.items():  # a value may name the variant's others, one level deep
            inner = placeholders(value)[0]
            if inner - variant.keys() or any(placeholders(variant[n])[0] for n in inner & variant.keys()):
                r.problem(
                    vline,
                    f"{what} variant {i + 1}: ${name} uses {', '.join('$' + n for n in sorted(inner))}, which must "
                    "be the variant's own placeholders holding no placeholder themselves",
                )
                ok = False
        if unused:
            r.problem(vline, f"{what} variant {i + 1}: {', '.join('$' + u for u in unused)} is used nowhere")
            ok = False
        if not missing:  # the code compiles once each variant is filled in
            filled = string.Template(code).safe_substitute(variant)
            try:
                compile(filled, f"{r.file}:{what}", "exec")
            except SyntaxError as exc:
                r.problem(
                    d.line_of("code") + (exc.lineno or 1),
                    f"{what} code, filled with variant {i + 1}, has a Python syntax error: {exc.msg}",
                )
                ok = False
    if len({tuple(sorted(v.items())) for v in variants}) != len(variants):
        r.problem(d.line_of("variants"), f"{what} has two identical variants: a retry must ask something new")
        ok = False
    timeout = r.number(d.get("timeout"), d.line_of("timeout"), f"{what} timeout", 60.0)
    if not (ok and code and explain and isinstance(reveal, str)):
        return None
    return Template(tuple(variants), code, reveal, explain, timeout, source)


def _variants(r: Reader, value: object, line: int, what: str) -> list[dict[str, str]] | None:
    if not isinstance(value, LineList) or len(value) < 2:
        r.problem(line, f"{what} variants must be a list of at least 2 mappings (a retry draws another)")
        return None
    out = []
    for i, raw in enumerate(value):
        vline = value.item_lines[i]
        if not isinstance(raw, LineDict) or not raw:
            r.problem(vline, f"{what} variant {i + 1} must map placeholder names to values")
            return None
        variant = {}
        for name, v in raw.items():
            if not isinstance(name, str) or not PARAM_PATTERN.match(name) or name == ANSWER:
                r.problem(raw.line_of(name), f"{what} variant {i + 1}: {name!r} is not a usable placeholder name")
                return None
            if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                r.problem(raw.line_of(name), f"{what} variant {i + 1}: ${name} must be text or a number")
                return None
            variant[name] = str(v)
        out.append(variant)
    return out


def placeholders(text: str) -> tuple[set[str], str | None]:
    """The $names a text uses, and the first '$' that is neither a placeholder nor '$$'."""
    names: set[str] = set()
    for match in string.Template.pattern.finditer(text):
        if match.group("invalid") is not None:
            return names, text[match.start() : match.start() + 12]
        name = match.group("named") or match.group("braced")
        if name:
            names.add(name)
    return names, None
