"""Chinese text as the course writes it: wrapped in the YAML source, joined for the screen."""

from __future__ import annotations

import re
import unicodedata

# Chinese characters and full-width punctuation: what a zh sentence is made of.
CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"

_ENDS_CJK = re.compile(f"[{CJK}]$")
_STARTS_CJK = re.compile(f"^[ \t]*[{CJK}]")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_HEADING = re.compile(r"^[ \t]*#")
# Full-width punctuation: no space ever follows it on screen, whatever the next line starts with.
_ENDS_PUNCT = re.compile(r"[\u3001\u3002\uff0c\uff1a\uff1b\uff1f\uff01\uff08\uff09]$")
# A line that starts a Markdown block of its own (a list item, a quote, a table row, a heading).
_STARTS_BLOCK = re.compile(r"^[ \t]*([-*+][ \t]|\d+[.)][ \t]|>|\||#|$)")


def join_wrapped(text: str) -> str:
    """Remove line breaks that only wrap a Chinese sentence in the source.

    Markdown turns such a break into a space, which splits a Chinese word on screen
    ("这会 抛出"), or follows full-width punctuation ("，`x`" shown as "， x"): a break after
    it is removed too unless the next line starts a block (a list item, a quote, a table row).
    Code fences and headings (one line by definition) are left as written.
    """
    out: list[str] = []
    in_fence = False
    joinable = False  # may the next line continue the last one?
    for line in text.split("\n"):
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line)
            joinable = False
            continue
        after_punct = joinable and _ENDS_PUNCT.search(out[-1]) and not _STARTS_BLOCK.match(line)
        if joinable and not in_fence and (_STARTS_CJK.match(line) or after_punct):
            out[-1] += line.lstrip(" \t")
        else:
            out.append(line)
        last = out[-1]
        joinable = not in_fence and bool(_ENDS_CJK.search(last)) and not _HEADING.match(last)
    return "\n".join(out)


def display_width(line: str) -> int:
    """Terminal columns a line takes: wide and full-width characters (Chinese) count two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
