"""Does the screen give a prediction away? A heuristic `validate` runs over every predict cell.

What the learner sees before answering is the prose since the previous cell, the cell's
caption, its question and its code. The code may hold any number (`x + 1` says nothing about a
trace count), but its comments and string literals are prose too. Reported, per cell:

- the right number (a numeric answer, or the right option's value) written out: `3`, "three
  times", "twice", "3 次", "两次";
- the right option's value or a word only the right option uses ("sorted", "deleted");
- words that state an outcome instead of setting up the question ("cached", "traced again").

It cannot prove a question fair; it catches the usual ways prose answers its own question.
"""

from __future__ import annotations

import io
import re
import tokenize

from tutor.course.predict import parse_number

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
STOPWORDS = {"the", "and", "with", "that", "this", "from", "into", "under", "its", "it", "was", "were", "still"}


def giveaways(lesson) -> list[tuple[int, str]]:
    """(line, message) for each predict cell of a lesson whose answer can be read before it is given."""
    found: list[tuple[int, str]] = []
    prose: list[str] = []
    for block in lesson.blocks:
        if block.text is not None:
            prose += [block.text.en, block.text.zh]
            continue
        cell = block.cell
        if cell.predict is not None:
            seen = [*prose, cell.predict.question.en, cell.predict.question.zh, *_code_prose(cell.code)]
            if cell.caption:
                seen += [cell.caption.en, cell.caption.zh]
            line = cell.source.line if cell.source else 0
            found += [(line, f"cell '{cell.id}': {why}") for why in _reasons(cell.predict, seen)]
        prose = []
    return found


def _reasons(p, seen: list[str]) -> list[str]:
    text = "\n".join(seen)
    lower = text.lower()
    reasons = []
    right = p.answer if p.numeric else p.options[p.answer].value
    number = parse_number(right)
    if number is not None:
        shown = _number_written(text, number)
        if shown:
            reasons.append(f"the answer {right} can be read before it is given ({shown!r})")
    elif right.lower() in lower and not _shared_by_a_wrong_option(p, right):
        reasons.append(f"the answer {right!r} is written before it is asked")
    if not p.numeric:
        option = p.options[p.answer]
        if option.text is not None:
            others = " ".join((o.text.en if o.text else o.value) for k, o in p.options.items() if k != p.answer).lower()
            question = p.question.en.lower()
            for word in _words(option.text.en):
                if word not in others and word not in question and re.search(rf"\b{re.escape(word)}\b", lower):
                    reasons.append(f"the right option's word {word!r} is in the text before the question")
                    break
    for word in OUTCOME_WORDS:
        if word in lower:
            reasons.append(f"{word!r} states the outcome before the question: say it after the run (predict.explain)")
            break
    return reasons


def _shared_by_a_wrong_option(p, right: str) -> bool:
    """A value that wrong options contain too ("f" beside "f, g") points at none of them when shown."""
    return any(right.lower() in o.value.lower() for k, o in p.options.items() if k != p.answer)


def _number_written(text: str, number: float) -> str | None:
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


def _code_prose(code: str) -> list[str]:
    """The comments and string literals of a cell's code: what it says in words."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                out.append(tok.string.lstrip("#"))
            elif tok.type == tokenize.STRING:
                out.append(tok.string)
            elif getattr(tokenize, "FSTRING_MIDDLE", None) == tok.type:
                out.append(tok.string)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return out
