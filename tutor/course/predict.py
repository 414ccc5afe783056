"""A cell's `predict:` — a question asked before the cell runs, answered by the run's own output.

The authored answer is never taken on trust: `reveal` is a regex on the cell's stdout whose
first group is what the run shows, and the test suite asserts that it equals the answer on
every JAX version CI runs. The UI compares the learner's guess with the same capture.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tutor.course.reader import Reader
from tutor.course.schema import FORMAT, LETTERS
from tutor.i18n import Bilingual

OPTION_LETTERS = LETTERS


@dataclass(frozen=True)
class Option:
    """One choice: `value` is compared with what the run shows; `text` (optional) words it."""

    value: str
    text: Bilingual | None = None

    def label(self, lang: str) -> str:
        return self.text.get(lang) if self.text else self.value


@dataclass(frozen=True)
class Prediction:
    question: Bilingual
    reveal: str  # regex (re.M) on stdout; group 1 is what the run shows
    answer: str  # an option letter, or (without options) a number as text
    options: dict[str, Option] = field(default_factory=dict)  # empty: the learner types a number
    explain: Bilingual | None = None  # why the run shows what it shows: only once the guess is made and the run is over

    @property
    def numeric(self) -> bool:
        return not self.options

    def shown(self, stdout: str) -> str | None:
        """What the run shows: group 1 of the first match of `reveal` in stdout, or None."""
        match = re.search(self.reveal, stdout or "", re.M)
        return match.group(1).strip() if match and match.group(1) is not None else None

    def value_of(self, answer: str) -> str | None:
        """The value a guess stands for: an option's value, or the number typed."""
        if self.numeric:
            return answer
        option = self.options.get(answer.upper())
        return option.value if option else None

    def is_right(self, answer: str, shown: str | None) -> bool:
        """Whether a guess (letter or number) matches what the run showed."""
        value = self.value_of(answer)
        if shown is None or value is None:
            return False
        return same_number(value, shown) if self.numeric else value == shown

    def describe(self, answer: str, lang: str) -> str:
        """A guess as the learner reads it: "B) 3" for an option, the number otherwise."""
        if self.numeric:
            return answer
        letter = answer.upper()
        option = self.options.get(letter)
        return f"{letter}) {option.label(lang)}" if option else answer

    def describe_shown(self, shown: str, lang: str) -> str:
        """What the run showed, named as the option that holds it when there is one."""
        letter = next((k for k, o in self.options.items() if o.value == shown), None)
        return self.describe(letter, lang) if letter else shown


def parse_number(text: str) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def number_text(x: float) -> str:
    """A typed number as the learner means it: 3 rather than 3.0."""
    return str(int(x)) if x.is_integer() and abs(x) < 1e15 else repr(x)


def same_number(a: str, b: str) -> bool:
    """ "2" and "2.0" are the same number; text that is not a number never matches."""
    x, y = parse_number(a), parse_number(b)
    return x is not None and y is not None and x == y


def _scalar(value: object) -> str | None:
    """A YAML scalar as the text Python would print (True, 3, 2.5, or the string itself)."""
    if isinstance(value, bool) or isinstance(value, (int, float, str)):
        text = str(value).strip()
        return text or None
    return None


def read_prediction(r: Reader, value: object, line: int, what: str) -> Prediction | None:
    """Parse a cell's `predict:` mapping with the loader's reader `r`, reporting file:line problems."""
    what = f"{what} predict"
    d = r.mapping(value, line, what, FORMAT["predict"].required, FORMAT["predict"].optional)
    if d is None:
        return None
    question = r.text(d.get("question"), d.line_of("question"), f"{what} question")
    ok = question is not None and {"question", "answer", "reveal"} <= d.keys()

    reveal = d.get("reveal")
    if "reveal" in d:
        if not isinstance(reveal, str) or not reveal.strip():
            r.problem(d.line_of("reveal"), f"{what} reveal must be a regex on the cell's output")
            ok = False
        else:
            try:
                groups = re.compile(reveal).groups
            except re.error as exc:
                r.problem(d.line_of("reveal"), f"{what} reveal: bad regex {reveal!r}: {exc}")
                ok = False
            else:
                if groups < 1:
                    r.problem(
                        d.line_of("reveal"), f"{what} reveal {reveal!r} has no group: put what the run shows in ( )"
                    )
                    ok = False

    options: dict[str, Option] = {}
    letters: list[str] = []  # every lettered choice written, parsed or not (no cascade of problems)
    if "options" in d:
        shape = FORMAT["predict-options"]
        raw = r.mapping(d["options"], d.line_of("options"), f"{what} options", shape.required, shape.optional)
        if raw is None:
            ok = False
        else:
            letters = [k for k in OPTION_LETTERS if k in raw]
            if letters != list(OPTION_LETTERS[: len(raw)]) or len(raw) < 2:
                r.problem(raw.line, f"{what} options must be 2 to 4 choices lettered from A in order")
                ok = False
            for letter in letters:
                option = _option(r, raw[letter], raw.line_of(letter), f"{what} option {letter}")
                if option is None:
                    ok = False
                    continue
                clash = next((k for k, o in options.items() if o.value == option.value), None)
                if clash:
                    r.problem(
                        raw.line_of(letter), f"{what} options {clash} and {letter} have the same value {option.value!r}"
                    )
                    ok = False
                options[letter] = option

    answer = d.get("answer")
    if "answer" in d:
        if "options" in d:
            if not isinstance(answer, str) or answer not in letters:
                known = ", ".join(letters) or "none"
                r.problem(d.line_of("answer"), f"{what} answer {answer!r} is not among the options ({known})")
                ok = False
        elif isinstance(answer, bool) or not isinstance(answer, (int, float)):
            r.problem(d.line_of("answer"), f"{what} answer must be a number (or give options and answer with a letter)")
            ok = False
        else:
            answer = str(answer)
    explain = r.text(d.get("explain"), d.line_of("explain"), f"{what} explain") if "explain" in d else None
    if not ok or ("explain" in d and explain is None):
        return None
    # what `ok` has established, said so that the types follow
    assert question is not None and isinstance(reveal, str) and isinstance(answer, str)
    return Prediction(question=question, reveal=reveal, answer=answer, options=options, explain=explain)


def _option(r: Reader, value: object, line: int, what: str) -> Option | None:
    d = r.mapping(value, line, what, FORMAT["option"].required, FORMAT["option"].optional)
    if d is None or "value" not in d:
        return None
    shown = _scalar(d["value"])
    if shown is None:
        r.problem(d.line_of("value"), f"{what} value must be text or a number, as the run prints it")
        return None
    text = None
    if "text" in d:
        text = r.text(d["text"], d.line_of("text"), f"{what} text")
        if text is None:
            return None
    return Option(value=shown, text=text)
