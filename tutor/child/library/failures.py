"""What a check's verdict is made of: CheckFailed (the learner's code lacks the property) and
CheckError (the check cannot judge), each with an English and a Chinese message, and the small
helpers that raise them (`expect`, `fail`, `on_failure`) or name a value in both languages."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any, NoReturn

from tutor.errors import TutorError
from tutor.i18n import Bilingual

# A label for a value in messages: one str for both languages, or a pair (English, Chinese).
Label = str | tuple[str, str]


class CheckFailed(TutorError):
    """The learner's solution does not have the checked property."""

    def __init__(self, en: str, zh: str | None = None):
        self.en = en
        self.zh = _tight(zh) if zh else en
        super().__init__(Bilingual(en=self.en, zh=self.zh))


def _tight(zh: str) -> str:
    """A label that ends in （…） is followed by a template's " 的…": no space after a full-width mark."""
    return _SPACE_AFTER_MARK.sub("", zh)


_SPACE_AFTER_MARK = re.compile("(?<=[）：，；]) (?=[\u4e00-\u9fff])")


class CheckError(TutorError):
    """The check itself cannot judge (the tutor's fault, not the learner's): reported as error."""

    def __init__(self, en: str, zh: str | None = None):
        self.en = en
        self.zh = zh or en
        super().__init__(Bilingual(en=self.en, zh=self.zh))


def fail(en: str, zh: str | None = None) -> NoReturn:
    raise CheckFailed(en, zh)


def expect(condition: Any, en: str, zh: str | None = None) -> None:
    if not condition:
        raise CheckFailed(en, zh)


def bilingual(what: Label) -> tuple[str, str]:
    """(English, Chinese) of a label given as one str (both languages) or as a pair."""
    if isinstance(what, str):
        return what, what
    if isinstance(what, (tuple, list)) and len(what) == 2 and all(isinstance(w, str) for w in what):
        return what[0], what[1]
    raise CheckError(f"a label is a str or a pair (en, zh) of str, got {what!r}")


@contextlib.contextmanager
def on_failure(en: str, zh: str | None = None) -> Iterator[None]:
    """Append a sentence to the message of any check failure raised inside the block:
    `with on_failure("Each step starts from the last result", "每一步都从上一步的结果出发"): close(...)`."""
    try:
        yield
    except CheckFailed as exc:
        raise CheckFailed(append(exc.en, en, "en"), append(exc.zh, zh or en, "zh")) from None


def append(message: str, sentence: str, lang: str) -> str:
    """message, then sentence, with the full stop the language puts between them."""
    message = message.rstrip()
    if lang == "zh":
        return message + ("" if message.endswith(("。", "!", "?", ":", ";", ".")) else "。") + sentence
    return message + (" " if message.endswith((".", "!", "?", ":", ";")) else ". ") + sentence
