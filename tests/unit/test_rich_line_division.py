"""tutor.terminal.rich_line_division is a copy of Rich's private line division (rich._wrap), so that the
tutor imports nothing private of Rich's: it must break every line as the installed Rich does.
If a Rich release drops rich._wrap this import fails: look at what Rich breaks lines with now."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich._wrap import divide_line as rich_divide_line

from tutor.terminal.rich_line_division import divide_line

# Spaces of several kinds, Latin letters, wide (2-cell) characters and a combining mark.
_ALPHABET = st.sampled_from(list("ab xyz  \t.,()") + ["中", "文", "ｗ", "\u0301", "\u00a0", "é"])


@settings(max_examples=400, deadline=None)
@given(text=st.text(_ALPHABET, max_size=60), width=st.integers(1, 30), fold=st.booleans())
def test_the_copy_breaks_as_rich_does(text, width, fold):
    assert divide_line(text, width, fold) == rich_divide_line(text, width, fold)


def test_a_long_word_is_folded_or_left_whole():
    text = "see abcdefghijklmnopqrstuvwxyz end"
    assert divide_line(text, 10) == [4, 14, 24]  # "uvwxyz " and "end" share a line
    assert divide_line(text, 10, fold=False) == [4, 31]
