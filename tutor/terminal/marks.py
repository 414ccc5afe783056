"""Status glyphs for the CLI and the TUI alike: distinct shapes (not only colours, for NO_COLOR),
ASCII when the terminal cannot show Unicode. One rule decides that, for both faces."""

from __future__ import annotations

import os
import sys


def _locale_says_utf8() -> bool | None:
    """What the locale tells the terminal: True / False for UTF-8 or not, None if nothing is set."""
    env = dict(os.environ)
    if env.get("LC_CTYPE") == "C.UTF-8" and env.get("LANG") and not env.get("LC_ALL"):
        # Python itself sets LC_CTYPE=C.UTF-8 under LANG=C (PEP 538); the terminal was told LANG.
        env.pop("LC_CTYPE")
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var)
        if value:
            return "utf8" in value.lower().replace("-", "")
    return None


def unicode_ok(stream=None) -> bool:
    """Whether non-ASCII glyphs can be shown on `stream` (default: the process's real stdout).

    The locale is trusted first: under LANG=C Python may still give stdout a UTF-8 encoding,
    but the terminal behind it was told "not UTF-8". Then the stream must be able to encode
    them (PYTHONIOENCODING=ascii, a pipe to an ASCII consumer)."""
    if _locale_says_utf8() is False:
        return False
    encoding = (getattr(stream if stream is not None else sys.__stdout__, "encoding", None) or "").lower()
    return "utf" in encoding if encoding else bool(_locale_says_utf8())


UNICODE = {
    # check results and verdicts
    "pass": "✓",
    "fail": "✗",
    "error": "!",
    "skipped": "-",
    "timeout": "✗",
    "running": "…",
    "cancelled": "-",  # the learner stopped it: neither a failure nor an error
    # progress of lessons and exercises
    "new": "○",
    "started": "◐",
    "attempted": "◐",
    "done": "✓",
    "passed": "✓",
    # quiz options
    "chosen": "▶",
    "right": "✓",
    "wrong": "✗",
    "chart": "braille",
}
ASCII = {
    "pass": "+",
    "fail": "x",
    "error": "!",
    "skipped": "-",
    "timeout": "x",
    "running": "...",
    "cancelled": "-",
    "new": " ",  # "[ ]", an empty box: "-" read as "skipped"
    "started": "~",
    "attempted": "~",
    "done": "+",
    "passed": "+",
    "chosen": ">",
    "right": "+",
    "wrong": "x",
    "chart": "*",
}


class Glyphs:
    """The glyph set for this terminal: `glyphs[status]` ("?" for an unknown status)."""

    def __init__(self, ascii_only: bool | None = None, stream=None):
        self.ascii = (not unicode_ok(stream)) if ascii_only is None else ascii_only
        self.table = ASCII if self.ascii else UNICODE

    def __getitem__(self, status: str) -> str:
        return self.table.get(status, "?")


def marks(stream=None) -> Glyphs:
    """The glyphs for printing to `stream` (the CLI passes sys.stdout)."""
    return Glyphs(stream=stream if stream is not None else sys.stdout)
