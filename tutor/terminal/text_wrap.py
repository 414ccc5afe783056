"""Where a line of text may break, and how it fills a width: Chinese as Chinese is set.

The one owner of line breaking for the TUI and the CLI. Rich and Textual break only at spaces,
so a Chinese sentence (which has none) is one unbreakable "word". Here a line may also break
between Chinese characters, but never after an opening bracket or quote, never before a closing
one or punctuation (the CJK rules called kinsoku), and a short run of Latin text inside Chinese
(`jax.debug.print("x = {}", x)`, a name, a number with its unit) is kept whole. A line with no
Chinese in it breaks exactly as Rich breaks it.

`divide_line` has the signature of Rich's own, so Rich and Textual can be handed it
(`use_in_rich` here; tutor.ui.text_layout for Textual). Rich's own division is a copy
(tutor.terminal.rich_line_division), not an import of Rich's private `rich._wrap`.
"""

from __future__ import annotations

import re
import shutil
from typing import TextIO

from rich.cells import cell_len, chop_cells

from tutor.terminal.rich_line_division import divide_line as _rich_divide_line

# Chinese and Japanese characters and full-width forms: a line may break before and after each.
_CJK_CHARS = "\u2e80-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
_CJK = re.compile(f"[{_CJK_CHARS}]")
_NOT_CJK_RUN = re.compile(f"[^{_CJK_CHARS}]+")
_CODE_MARK = re.compile(r"[(\[{\"']")
# Never at the end of a line.
OPENING = "（［｛〔〈《「『【〖〘〚“‘([{"
# Never at the start of a line. `…` and `—` come in pairs that stay together. ASCII `.` and `,`
# are not here: they start code (`.add`, `...`).
CLOSING = "，。、；：？！）］｝〕〉》」』】〗〙〛”’…—～·%)]}"
SPACES = " \t\u3000"  # a break comes after these, never before (U+00A0 does not break)
SHORT_LATIN = 32  # cells: a Latin run inside Chinese up to this wide is never broken


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


def _cjk(ch: str) -> bool:
    return _CJK.match(ch) is not None


def break_points(text: str, width: int) -> list[int]:
    """Indices where a new line may start in `text` (one line, no newline in it)."""
    n = len(text)
    allowed = [False] * (n + 1)
    last_seen = ""  # the last character that is not a space, before position i
    seen_text = False
    for i in range(1, n):
        a, b = text[i - 1], text[i]
        if a not in SPACES:
            last_seen, seen_text = a, True
        if not seen_text or b in SPACES or b in CLOSING or last_seen in OPENING:
            continue
        if a in SPACES:
            allowed[i] = True
        elif "\u00a0" in (a, b):
            continue
        elif _cjk(a) or _cjk(b):
            allowed[i] = True
    _keep_short_latin_whole(text, allowed, min(SHORT_LATIN, width * 2 // 3))  # little room lost
    return [i for i in range(1, n) if allowed[i]]


def _keep_short_latin_whole(text: str, allowed: list[bool], limit: int) -> None:
    """Spaces inside a short run of code between Chinese characters do not break it. Code is
    told by its brackets or quotes: `f(x, y)`, `print("x = {}", x)`; a list of words such as
    `English / 中文 · Ctrl+P` may still break at its spaces."""
    for match in _NOT_CJK_RUN.finditer(text):
        run = match.group()
        if not _CODE_MARK.search(run):
            continue
        start = match.start() + len(run) - len(run.lstrip(SPACES))
        end = match.end() - (len(run) - len(run.rstrip(SPACES)))
        if start < end and cell_len(text[start:end]) <= limit:
            for i in range(start + 1, end):
                allowed[i] = False


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """Where to split `text` into lines of at most `width` cells (Rich's contract: indices of
    the first character of each line after the first). Greedy: each line takes as much as fits."""
    if not has_cjk(text) and "\u00a0" not in text:
        return _rich_divide_line(text, width, fold)
    points = break_points(text, width)
    offsets: list[int] = []
    used = 0  # cells on the current line
    for start, end in zip([0, *points], [*points, len(text)]):
        unit = text[start:end]
        need = cell_len(unit.rstrip(SPACES))
        if used + need <= width:
            used += cell_len(unit)
            continue
        if need <= width or not fold:
            if used and start:
                offsets.append(start)
            used = cell_len(unit)
            continue
        # Wider than a whole line (a long path, say): folded, as Rich folds a long word.
        if used and start:
            offsets.append(start)
        pieces = chop_cells(unit, width)
        pos = start
        for k, piece in enumerate(pieces):
            if k:
                offsets.append(pos)
            pos += len(piece)
        used = cell_len(pieces[-1])
    return offsets


def wrap_lines(text: str, width: int) -> list[str]:
    """`text` as lines of at most `width` cells; a line's own indent (and a list marker such as
    `1. ` or `• `) is repeated as a hanging indent on its continuation lines."""
    out: list[str] = []
    for line in text.split("\n"):
        marker = re.match(r"[ \t]*(?:(?:\d+\.|[-*•])[ \t]+)?", line)
        hang = " " * cell_len(marker.group() if marker else "")
        if cell_len(line) <= width or cell_len(hang) >= width // 2:
            out.append(line)
            continue
        first, rest = line[: len(hang)], line[len(hang) :]
        pieces = [rest[a:b].rstrip(SPACES) for a, b in _spans(rest, width - len(hang))]
        out.append(first + pieces[0])
        out.extend(hang + p for p in pieces[1:])
    return out


def for_terminal(text: str, stream: TextIO) -> str:
    """`text` wrapped to the terminal's width when `stream` is one; as it is when piped."""
    try:
        if not stream.isatty():
            return text
    except (AttributeError, ValueError):  # a closed or odd stream: print it as it is
        return text
    return "\n".join(wrap_lines(text, shutil.get_terminal_size().columns))


def _spans(text: str, width: int) -> list[tuple[int, int]]:
    cuts = divide_line(text, width)
    return list(zip([0, *cuts], [*cuts, len(text)]))


def use_in_rich() -> None:
    """Make Rich (the CLI's console, and Rich Text in the TUI) break lines here. Rich has no
    setting for it: the name its Text looks up is pointed here (idempotent)."""
    from rich import text

    text.divide_line = divide_line
