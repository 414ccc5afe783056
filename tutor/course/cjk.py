"""Chinese text as the course writes it: wrapped in the YAML source, joined for the screen."""

from __future__ import annotations

import functools
import re
import unicodedata

# Chinese characters and full-width punctuation: what a zh sentence is made of.
CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"

_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_HEADING = re.compile(r"^[ \t]*#")
# Full-width punctuation: no space ever follows it on screen, whatever the next line starts with.
_ENDS_PUNCT = re.compile(r"[\u3001\u3002\uff0c\uff1a\uff1b\uff1f\uff01\uff08\uff09]$")
# A line that starts a Markdown block of its own (a list item, a quote, a table row, a heading).
_STARTS_BLOCK = re.compile(r"^[ \t]*([-*+][ \t]|\d+[.)][ \t]|>|\||#|$)")


@functools.cache
def _cjk_edges() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a line ends with a Chinese character, a line starts with one): compiled when a course is
    read, not when a kept course is loaded (classes this wide take milliseconds to compile)."""
    return re.compile(f"[{CJK}]$"), re.compile(f"^[ \t]*[{CJK}]")


def join_wrapped(text: str) -> str:
    """Remove line breaks that only wrap a Chinese sentence in the source.

    Markdown turns such a break into a space, which splits a Chinese word on screen
    ("这会 抛出"), or follows full-width punctuation ("，`x`" shown as "， x"): a break after
    it is removed too unless the next line starts a block (a list item, a quote, a table row).
    Code fences and headings (one line by definition) are left as written.
    """
    ends_cjk, starts_cjk = _cjk_edges()
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
        if joinable and not in_fence and (starts_cjk.match(line) or after_punct):
            out[-1] += line.lstrip(" \t")
        else:
            out.append(line)
        last = out[-1]
        joinable = not in_fence and bool(ends_cjk.search(last)) and not _HEADING.match(last)
    return "\n".join(out)


def display_width(line: str) -> int:
    """Terminal columns a line takes: wide and full-width characters (Chinese) count two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
