"""Languages: the Bilingual value, message tables, and how the learner's language is chosen."""

from __future__ import annotations

import os
from dataclasses import dataclass

from tutor.controls import show_controls

LANGS = ("zh", "en")


@dataclass(frozen=True)
class Bilingual:
    """One human-readable text in every supported language."""

    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en

    def to_dict(self) -> dict[str, str]:
        return {"zh": self.zh, "en": self.en}

    @classmethod
    def same(cls, s: str) -> Bilingual:
        """A text that reads the same in every language (code, numbers)."""
        return cls(zh=s, en=s)


def pick(message: Bilingual | str, lang: str) -> str:
    """A message in `lang` from a Bilingual (the one bilingual type, on both sides of the worker pipe)
    or a plain string. A {"en", "zh"} dict exists only on the wire: tutor.protocol reads it into a Bilingual."""
    if isinstance(message, Bilingual):
        return message.get(lang)
    if isinstance(message, str):
        return message
    raise TypeError(f"pick() takes a Bilingual or a str, not {type(message).__name__}")


class Messages(dict[str, Bilingual]):
    """A module's message table: key -> Bilingual, and `say` to word one of them."""

    def say(self, key: str, lang: str, **fields) -> str:
        """Message `key` in `lang`, with `fields` filled in ({name} placeholders). A field's text
        (an id, a path, a program's words: never the table's) has its control characters shown,
        not obeyed: every sentence the tutor words reaches the terminal through here."""
        text = self[key].get(lang)
        return text.format(**{k: _shown(v) for k, v in fields.items()}) if fields else text


def _shown(value):
    return show_controls(os.fspath(value)) if isinstance(value, str | os.PathLike) else value


def table(entries: dict[str, dict[str, str]]) -> Messages:
    """A module's message table written as {"key": {"en": ..., "zh": ...}}; a missing language is
    a bug found at import, not a blank on the learner's screen."""
    out = Messages()
    for key, texts in entries.items():
        missing = [lang for lang in LANGS if not isinstance(texts.get(lang), str)]
        if missing:
            raise ValueError(f"message {key!r} has no {', '.join(missing)} text")
        out[key] = Bilingual(zh=texts["zh"], en=texts["en"])
    return out
