"""Learner text made harmless for a terminal: control sequences are shown, never obeyed.

A program's output (or an exception message it raises) could otherwise clear the screen,
move the cursor and draw a green PASS of its own. Newlines and tabs are kept; every other
control character, and the bidirectional overrides that reorder what is displayed, is
replaced by a visible stand-in: ␛[2J in a Unicode terminal, \\x1b[2J in an ASCII one.
"""

from __future__ import annotations

_C0 = [c for c in range(0x20) if c not in (0x09, 0x0A)]
_C1 = list(range(0x7F, 0xA0))  # DEL and the 8-bit controls (0x9b is a one-byte CSI)
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ALL = _C0 + _C1 + _BIDI


def _code(c: int) -> str:
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


_ASCII_TABLE = {c: _code(c) for c in _ALL}
# Unicode: C0 controls as their Control Pictures (U+2400 + code), DEL as U+2421; the rest as codes.
_UNICODE_TABLE = {**_ASCII_TABLE, **{c: chr(0x2400 + c) for c in _C0}, 0x7F: "\u2421"}
_JSON_TABLE = {c: f"\\u{c:04x}" for c in _C1 + _BIDI}  # json.dumps already escapes C0


def show_controls(text: str, unicode: bool = True) -> str:
    """`text` with its control characters made visible (\\r\\n counts as a newline)."""
    text = text.replace("\r\n", "\n")
    return text.translate(_UNICODE_TABLE if unicode else _ASCII_TABLE)


def json_text(document: str) -> str:
    """JSON from json.dumps(..., ensure_ascii=False) with DEL, C1 and bidi controls \\u-escaped.

    json.dumps escapes only U+0000-U+001F; these others would reach the terminal raw. They only
    occur inside JSON strings, so the escaped document decodes to exactly the same values."""
    return document.translate(_JSON_TABLE)
