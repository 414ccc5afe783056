"""Does the screen give a prediction away? A heuristic `validate` runs over every predict cell,
and its surface-cue rule over every lettered checkpoint and quiz question and their siblings.

The lesson screen shows nothing after a cell until its question is answered or skipped, so what
the learner has read when asked is what comes before it: the lesson's prose from its start, the
cell's caption, its status line (a `raises:` cell says "expected to raise X" there), its question
and its code. The code may hold any number (`x + 1` says nothing about a trace count), but its
comments, string literals and the names it binds are words too. Reported, per cell, one rule a
function:

- the right number written out near the question: `3`, "three times", "twice", "3 次", "两次";
- the right option's value, or a word only the right option uses ("sorted"), near the question;
- words that state an outcome instead of setting up the question ("cached", "traced again"),
  and a comment that states a result (`# int32 + float32 -> float32`);
- a name or print label that says the answer: a variable `copied` when the explanation says the
  values were *copied*, a counter `calls` when it says "five calls";
- a word the explanation stresses, in the prose just before ("weak" before "**weakly typed**");
- the rule stated earlier in the lesson: five words in a row of the explanation in its prose;
- a leading setup: a question of the prose's own, or a belief set up to be knocked down;
- an argument's fate stated as a contract near the question ("I will not use argument 0 again"),
  when the question asks what became of it;
- a `raises:` whose exception the answer is about: the status line names it above the question;
- an earlier lesson's prediction on the same mechanism with the same answer: both explanations
  share EXPLAINED_WORDS words in a row (`earlier_giveaways`, across lessons in course order);
- surface cues: the right option the only one with no reason attached, or the shortest of four
  (`surface_cues`, for any lettered question: `question_giveaways` applies it to checkpoint and
  quiz questions and each of their siblings, in en and zh).

It cannot prove a question fair; it catches the usual ways a screen answers its own question.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass

from tutor.course.model import Cell, Lesson, Question, Source
from tutor.course.predict import Prediction, parse_number
from tutor.i18n import Bilingual

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w]|\.\d)")
EN_COUNTS = {1: ("once", "one time"), 2: ("twice", "two times"), 3: ("thrice", "three times")}
EN_CARDINALS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
ZH_CARDINALS = ("零", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十")
# Outcome words: each says what a run does, which is what a prediction asks.
OUTCOME_WORDS = (
    "cached",
    "cache hit",
    "retrace",
    "traced again",
    "traces again",
    "trace again",
    "only while tracing",
    "while tracing only",
    "runs once",
    "stuck",
    "stale",
    "untouched",
    "never touched",
    "same answer",
    "is deleted",
    "are deleted",
    "were deleted",
    "缓存",
    "再次追踪",
    "重新追踪",
    "只在追踪",
    "卡住",
    "已被删除",
)
# Phrases that set a belief up to be knocked down ("a common picture of vmap: ...").
LEADING_PHRASES = (
    "common picture",
    "to the test",
    "tempting",
    "you might",
    "surprise",
    "常见的想象",
    "检验一下",
    "诱人",
    "你也许",
    "你可能",
    "意外",
)
# A contract about an argument after the call ("a promise: I will not use argument 0 again"): the
# answer to "what became of the array I kept?" read off the terms.
CONTRACT = re.compile(
    r"\b(?:not|never|won't)\s+(?:use|read|touch|need)\b[^.。]{0,40}?\bagain\b|不再(?:用|使用|读|需要)"
)
EXPLAINED_WORDS = 5  # this many words in a row, shared by the explanation and the lesson before
# Words too common to point at an option.
STOPWORDS = set(
    "the and with that this from into under its it was were still each other others some only what when "
    "then than them they their there these those does have been both also just more most like".split()
)
RESULT_COMMENT = re.compile(r"\S\s*(->|→|=>)\s*\S")  # `# int32 + float32 -> float32`
# What makes an option's text a reason and not a bare claim: a clause after a colon, a
# semicolon or a dash, or a remark in parentheses.
REASON = re.compile(r"[:;：；(（—]| - ")


@dataclass(frozen=True)
class Asked:
    """What the learner has read when a prediction is asked."""

    lesson: str  # the lesson's prose from its start
    prose: str  # the prose since the previous cell
    near: str  # since the previous cell: prose, this cell's caption, the exception it raises, the question
    code: str  # this cell's comments and string literals
    names: str  # the names this cell binds, split into words: `first_count` -> "first count"


def giveaways(lesson: Lesson) -> list[tuple[int, str]]:
    """(line, message) for each predict cell of a lesson whose answer can be read before it is given."""
    found: list[tuple[int, str]] = []
    before: list[str] = []  # the lesson's prose so far
    since: list[str] = []  # the prose since the previous cell
    for block in lesson.blocks:
        if block.text is not None:
            texts = [block.text.en, block.text.zh]
            before += texts
            since += texts
            continue
        cell = block.cell
        assert cell is not None  # a block holds its text or its cell
        caption = [cell.caption.en, cell.caption.zh] if cell.caption else []
        if cell.predict is not None:
            raised = [cell.expect.raises] if cell.expect.raises else []  # the status line names it
            near = [*since, *caption, *raised, cell.predict.question.en, cell.predict.question.zh]
            asked = Asked(
                lesson="\n".join(before),
                prose="\n".join(since),
                near="\n".join(near),
                code="\n".join(_code_prose(cell.code)),
                names=" ".join(_bound_names(cell.code)),
            )
            line = cell.source.line if cell.source else 0
            found += [(line, f"cell '{cell.id}': {why}") for why in reasons(cell, asked)]
        since = []
    return found


def reasons(cell: Cell, asked: Asked) -> list[str]:
    """Every way the screen gives this cell's prediction away (empty: none found)."""
    p = cell.predict
    if p is None:
        return []  # nothing asked, nothing given away
    found = [
        *_number_written(p, asked),
        *_value_written(p, asked),
        *_option_word(p, asked),
        *_outcome_word(asked),
        *_result_comment(cell.code),
        *_named_answer(p, asked),
        *_key_word_before(p, asked),
        *_explained_before(p, asked),
        *_leading(asked),
        *_contract_stated(asked),
        *_raises_named(p, cell.expect.raises),
    ]
    if not p.numeric:
        labels = {lang: {k: o.label(lang) for k, o in p.options.items()} for lang in ("en", "zh")}
        found += _option_cues(labels, p.answer)
    return found


def earlier_giveaways(lessons: Iterable[Lesson]) -> list[tuple[Source | None, str]]:
    """(source, message) for each predict cell that an earlier lesson's prediction already
    answered: the same right answer, explained with the same words (the same mechanism), so a
    learner who worked the earlier one reads this one off it. `lessons` in course order."""
    found: list[tuple[Source | None, str]] = []
    seen: list[tuple[str, Cell, str, set[str]]] = []  # (lesson id, cell, right value, explanation's phrases) before
    for lesson in lessons:
        explained = [(c, c.predict, c.predict.explain) for c in lesson.cells if c.predict and c.predict.explain]
        for cell, p, explain in explained:
            mine = _phrases(explain.en) - _phrases(p.question.en)
            for lesson_id, old, old_value, theirs in seen:
                shared = mine & theirs
                if shared and old_value == _right_value(p):
                    found.append(
                        (
                            cell.source,
                            f"cell '{cell.id}': lesson {lesson_id}'s cell '{old.id}' already showed this, with the "
                            f"same answer and the same words ({min(shared)!r}): ask what it does not settle",
                        )
                    )
                    break
        seen += [(lesson.id, c, _right_value(p), _phrases(explain.en)) for c, p, explain in explained]
    return found


def _right_value(p: Prediction) -> str:
    """The right answer as the run shows it: the number, or the right option's value."""
    if not p.numeric:
        return p.options[p.answer].value
    number = parse_number(p.answer)
    return str(number) if number is not None else p.answer


def question_giveaways(question: Question) -> list[tuple[int, str]]:
    """(line, message) for a checkpoint or quiz question, and each of its siblings, whose right
    option stands out by its form (`surface_cues`); a template question has no options."""
    found: list[tuple[int, str]] = []
    for variant in range(question.variants()):
        q = question.asked(variant)
        if q.numeric:
            continue
        labels = {lang: {k: o.get(lang) for k, o in q.options.items()} for lang in ("en", "zh")}
        where = f"question '{q.id}'" + (f" sibling {variant}" if variant else "")
        line = q.source.line if q.source else 0
        found += [(line, f"{where}: {why}") for why in _option_cues(labels, q.answer)]
    return found


# ---- the rules, one function each -----------------------------------------------------------


def _number_written(p: Prediction, asked: Asked) -> list[str]:
    """The right number written near the question (in prose or in the code's words)."""
    right = p.answer if p.numeric else p.options[p.answer].value
    number = parse_number(right)
    if number is None:
        return []
    shown = written_number(f"{asked.near}\n{asked.code}", number)
    return [f"the answer {right} can be read before it is given ({shown!r})"] if shown else []


def _value_written(p: Prediction, asked: Asked) -> list[str]:
    """The right option's value (not a number) near the question, in the code or its names."""
    if p.numeric:
        return []
    right = p.options[p.answer].value
    if parse_number(right) is not None or _shared_by_a_wrong_option(p, right):
        return []
    seen = f"{asked.near}\n{asked.code}\n{asked.names}".lower()
    return [f"the answer {right!r} is written before it is asked"] if right.lower() in seen else []


def _option_word(p: Prediction, asked: Asked) -> list[str]:
    """A word only the right option uses, near the question, in the code or its names."""
    text = p.options[p.answer].text if not p.numeric else None
    if text is None:
        return []
    others = " ".join(o.label("en") for k, o in p.options.items() if k != p.answer).lower()
    question = p.question.en.lower()
    seen = f"{asked.near}\n{asked.code}\n{asked.names}".lower()
    for word in _words(text.en):
        if word not in others and word not in question and re.search(rf"\b{re.escape(word)}\b", seen):
            return [f"the right option's word {word!r} is in the text before the question"]
    return []


def _outcome_word(asked: Asked) -> list[str]:
    """A word that states what the run does, near the question or in the code."""
    seen = f"{asked.near}\n{asked.code}\n{asked.names}".lower()
    word = next((w for w in OUTCOME_WORDS if w in seen), None)
    if word is None:
        return []
    return [f"{word!r} states the outcome before the question: say it after the run (predict.explain)"]


def _result_comment(code: str) -> list[str]:
    """A comment that states what an expression gives: the learner's step of reasoning, done."""
    for comment in _comments(code):
        if RESULT_COMMENT.search(comment):
            return [f"the comment {comment.strip()!r} states a result: let the learner work it out"]
    return []


def _named_answer(p: Prediction, asked: Asked) -> list[str]:
    """A name the code binds, or a print label, is a word the explanation states the answer with."""
    if p.explain is None:
        return []
    key = _key_words(p, p.explain)
    question = {_stem(w) for w in _words(p.question.en)}
    names = {_stem(w) for w in _words(asked.names)}
    labels = {_stem(w) for w in _words(asked.code)} - question  # a label may repeat the question's words
    said = sorted((names | labels) & key)
    if not said:
        return []
    return [f"the code's name or label {said[0]!r} says the answer (the explanation's word): rename it neutrally"]


def _key_word_before(p: Prediction, asked: Asked) -> list[str]:
    """A word the explanation states the answer with, in the prose since the previous cell."""
    if p.explain is None:
        return []
    question = {_stem(w) for w in _words(p.question.en)}
    prose = {_stem(w) for w in _words(asked.prose)}
    said = sorted((prose & _key_words(p, p.explain)) - question)
    if not said:
        return []
    return [f"the explanation's word {said[0]!r} is in the prose before the question: say it after the run"]


def _explained_before(p: Prediction, asked: Asked) -> list[str]:
    """The rule stated before the cell that demonstrates it: EXPLAINED_WORDS words in a row of the
    explanation already in the lesson's prose."""
    if p.explain is None:
        return []
    shared = _phrases(p.explain.en) & _phrases(asked.lesson)
    shared -= _phrases(p.question.en)
    if not shared:
        return []
    return [f"the lesson already says {min(shared)!r} before the question, as the explanation does"]


def _leading(asked: Asked) -> list[str]:
    """A question in the prose just before the cell, or a belief set up to be knocked down: either
    tells which way the answer goes. The cell's own question asks, once and plainly."""
    prose = _without_code(asked.prose)
    found = []
    if "?" in prose or "？" in prose:
        found.append("the prose before the cell asks a question of its own: let the prediction ask it, plainly")
    phrase = next((w for w in LEADING_PHRASES if w in prose.lower()), None)
    if phrase is not None:
        found.append(f"{phrase!r} before the question tells which way the answer goes: set the cell up plainly")
    return found


def _contract_stated(asked: Asked) -> list[str]:
    """The terms of a call near the question ("I will not use argument 0 again"): a prediction
    about what the call did to that argument then only checks that the learner read them."""
    found = CONTRACT.search(_without_code(asked.near))
    if found is None:
        return []
    terms = " ".join(found.group().split())
    return [f"{terms!r} states the terms before the question: say what they mean for the input after the run"]


def _raises_named(p: Prediction, raised: str | None) -> list[str]:
    """A `raises:` cell shows "expected to raise X" above the question; fine unless X is the answer."""
    if not raised:
        return []
    right = p.options[p.answer] if not p.numeric else None
    answer_text = " ".join(
        [p.explain.en if p.explain else "", right.value if right else "", right.label("en") if right else ""]
    )
    if raised not in answer_text:
        return []
    return [
        f"the status line says the cell raises {raised} above the question, and the answer is that raise: "
        "catch it in the cell and print what happened"
    ]


def _option_cues(labels: dict[str, dict[str, str]], answer: str) -> list[str]:
    """`surface_cues` in each language: `labels` maps a language to each letter's option text."""
    found = []
    for lang, options in labels.items():
        others = [text for k, text in options.items() if k != answer]
        found += [f"{cue} ({lang})" for cue in surface_cues(options[answer], others)]
    return found


def surface_cues(right: str, others: list[str]) -> list[str]:
    """How the right option stands out from the wrong ones by its form alone."""
    cues = []
    if others and not REASON.search(right) and all(REASON.search(o) for o in others):
        cues.append("the right option is the only one with no reason attached: give every option one, or none")
    if len(others) >= 3 and all(len(right) < len(o) for o in others):
        cues.append("the right option is the shortest of four: vary the lengths")
    return cues


# ---- helpers -----------------------------------------------------------------------------------


def _key_words(p: Prediction, explain: Bilingual) -> set[str]:
    """The explanation's words for the answer: those it emphasises (`*copied*`, `**deleted**`) and,
    for a count, the noun it counts ("Five calls")."""
    text = explain.en
    key = set()
    for strong, em in re.findall(r"\*\*([^*]+)\*\*|(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])", text):
        phrase = _words(strong or em)
        if len(phrase) <= 2:
            key |= {_stem(w) for w in phrase}
    if p.numeric and (n := parse_number(p.answer)) is not None and n.is_integer() and 0 <= n <= 10:
        said = rf"\b({int(n)}|{EN_CARDINALS[int(n)]})\s+([a-z]{{3,}}s)\b"  # "five calls", "2 traces"
        key |= {_stem(m.group(2)) for m in re.finditer(said, text.lower())}
    return key


def _shared_by_a_wrong_option(p: Prediction, right: str) -> bool:
    """A value that wrong options contain too ("f" beside "f, g") points at none of them when shown."""
    return any(right.lower() in o.value.lower() for k, o in p.options.items() if k != p.answer)


def written_number(text: str, number: float) -> str | None:
    """How `number` is written in the text (a numeral, a count word, 'N 次'), or None."""
    for match in NUMBER.finditer(text):
        if parse_number(match.group()) == number:
            return match.group()
    if not number.is_integer() or not 0 <= number <= 10:
        return None
    n, lower = int(number), text.lower()
    for word in EN_COUNTS.get(n, ()):
        if re.search(rf"\b{word}\b", lower):
            return word
    if re.search(rf"\b{EN_CARDINALS[n]} (times|traces|compilations|appends|calls)\b", lower):
        return EN_CARDINALS[n]
    zh = ZH_CARDINALS[n] + "次"
    if zh in text or (n == 2 and "二次" in text):
        return zh
    return None


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in STOPWORDS]


def _stem(word: str) -> str:
    """A word without its ending, so that "copied" meets "copies", "traced" "traces" and "weakly" "weak"."""
    for end in ("ies", "ied", "ly", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 4:
            return word[: -len(end)] + ("y" if end in ("ies", "ied") else "")
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def _phrases(text: str) -> set[str]:
    """Every run of EXPLAINED_WORDS words in an English text, code marks dropped."""
    words = re.findall(r"[a-z0-9']+", re.sub(r"[`*_]", "", text.lower()))
    n = EXPLAINED_WORDS
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def _without_code(text: str) -> str:
    """Markdown prose without its code, inline code and headings (a `?` there asks nothing)."""
    text = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", text, flags=re.S))
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _tokens(code: str) -> list[tokenize.TokenInfo]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []


def _comments(code: str) -> list[str]:
    return [t.string.lstrip("#") for t in _tokens(code) if t.type == tokenize.COMMENT]


def _code_prose(code: str) -> list[str]:
    """The comments and string literals of a cell's code: what it says in words."""
    fstring_middle = getattr(tokenize, "FSTRING_MIDDLE", None)
    out = []
    for tok in _tokens(code):
        if tok.type == tokenize.COMMENT:
            out.append(tok.string.lstrip("#"))
        elif tok.type == tokenize.STRING or tok.type == fstring_middle:
            out.append(tok.string)
    return out


def _bound_names(code: str) -> list[str]:
    """The names the code chooses (variables, functions, parameters), split into words."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return [part for name in sorted(names) for part in re.sub(r"([a-z])([A-Z])", r"\1 \2", name).split("_") if part]
