"""Languages: the bilingual Text value and how the learner's language is chosen."""

from __future__ import annotations

import locale
import os
from dataclasses import dataclass

LANGS = ("zh", "en")


@dataclass(frozen=True)
class Text:
    """One human-readable text in every supported language."""

    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def to_dict(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}

    @classmethod
    def same(cls, s: str) -> "Text":
        """A text that reads the same in every language (code, numbers)."""
        return cls(zh=s, en=s)


def default_lang() -> str:
    """The language from JAXSTATE_TUTOR_LANG, else the locale; English if undecidable."""
    explicit = os.environ.get("JAXSTATE_TUTOR_LANG", "")
    if explicit in LANGS:
        return explicit
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "zh" if loc.lower().startswith("zh") else "en"


def pick(messages: "dict[str, str] | Text | Bilingual | str", lang: str) -> str:
    """A message in `lang` from a {zh, en} dict, a Text, or a plain string."""
    if isinstance(messages, (Text, Bilingual)):
        return messages.get(lang)
    if isinstance(messages, dict):
        return messages.get(lang) or messages.get("en") or next(iter(messages.values()), "")
    return messages


class Bilingual(str):
    """A message in both languages that still reads as its English text wherever a str is
    expected (logs, tests, older callers); `pick()` chooses the learner's language."""

    def __new__(cls, en: str, zh: str):
        self = super().__new__(cls, en)
        self.message = {"en": en, "zh": zh}
        return self

    def get(self, lang: str) -> str:
        return self.message["zh" if lang == "zh" else "en"]
