"""Rich's own line division (where a line with no Chinese in it breaks), copied from Rich 15.0.0's
private `rich/_wrap.py` so that the tutor does not import a private module of Rich's, which a
Rich release may move or drop. tests/unit/test_text_wrap.py checks that it still breaks every
line of the course as the installed Rich does.

Copied from Rich (https://github.com/Textualize/rich), under its MIT license:

Copyright (c) 2020 Will McGugan

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.cells import cell_len, chop_cells

_WORD = re.compile(r"\s*\S+\s*")


def _words(text: str) -> Iterator[tuple[int, str]]:
    """Each word with the spaces after it (and any before the first), with its start index."""
    match = _WORD.match(text, 0)
    while match is not None:
        yield match.start(), match.group(0)
        match = _WORD.match(text, match.end())


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """The indices where `text` breaks into lines of at most `width` cells, at spaces; a word
    wider than a line is folded across lines (`fold`) or left whole."""
    breaks: list[int] = []
    offset = 0  # cells used on the current line
    for start, word in _words(text):
        word_length = cell_len(word.rstrip())
        if width - offset >= word_length:
            offset += cell_len(word)
        elif word_length > width:
            if fold:
                pieces = chop_cells(word, width=width)
                for k, piece in enumerate(pieces):
                    if start:
                        breaks.append(start)
                    if k == len(pieces) - 1:
                        offset = cell_len(piece)
                    else:
                        start += len(piece)
            else:
                if start:
                    breaks.append(start)
                offset = cell_len(word)
        elif offset and start:
            breaks.append(start)
            offset = cell_len(word)
    return breaks
