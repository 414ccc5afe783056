"""Chinese text as the course writes it: wrapped in the YAML source, joined for the screen."""

from __future__ import annotations

import re

# Chinese characters and full-width punctuation: what a zh sentence is made of.
CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"

# A source line break between two Chinese characters, with the next line's indent.
_WRAP = re.compile(f"(?<=[{CJK}])\n[ \t]*(?=[{CJK}])")
_FENCE = re.compile(r"^[ \t]*(```|~~~)", re.M)


def join_wrapped(text: str) -> str:
    """Remove line breaks that only wrap a Chinese sentence in the source.

    Markdown turns such a break into a space, which splits a Chinese word on screen
    ("这会 抛出"). Code fences are left exactly as written.
    """
    parts = re.split(r"(^[ \t]*(?:```|~~~).*?^[ \t]*(?:```|~~~)[ \t]*$)", text, flags=re.M | re.S)
    return "".join(part if _FENCE.match(part) else _WRAP.sub("", part) for part in parts)
