"""The CJK font `serve` ships covers every Chinese character the course and the tutor's messages
use (tools/cjk_font_subset.py made it from them; a new character in a text means running it again)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "tutor" / "serve" / "fonts" / "NotoSansMonoCJKsc-tutor.woff2"
# The code points the page gives to the CJK face (tutor/serve/page.html's unicode-range).
RANGES = [(0x2E80, 0x2FDF), (0x3000, 0x303F), (0x3040, 0x30FF), (0x3100, 0x312F), (0x31A0, 0x31BF),
          (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF)]  # fmt: skip
_IN_RANGES = re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in RANGES) + "]")
SOURCES = ("lessons/**/*.yaml", "lessons/**/*.py", "solutions/*.py", "tutor/**/*.py", "tutor/**/*.html")


def _used() -> dict[str, str]:
    """Each CJK character of the shipped course and the tutor, with one file that uses it."""
    found: dict[str, str] = {}
    for pattern in SOURCES:
        for path in sorted(ROOT.glob(pattern)):
            for ch in _IN_RANGES.findall(path.read_text(encoding="utf-8", errors="ignore")):
                found.setdefault(ch, str(path.relative_to(ROOT)))
    return found


def test_the_shipped_cjk_font_draws_every_chinese_character_the_tutor_shows():
    ttlib = pytest.importorskip("fontTools.ttLib", reason="fontTools is not installed (pip install -e '.[test]')")
    pytest.importorskip("brotli", reason="brotli (WOFF2) is not installed (pip install -e '.[test]')")
    cmap = ttlib.TTFont(FONT).getBestCmap()
    used = _used()
    assert len(used) > 500  # the course's Chinese texts were found
    missing = {ch: where for ch, where in used.items() if ord(ch) not in cmap}
    assert not missing, f"not in {FONT.name} (run tools/cjk_font_subset.py): {missing}"


def test_the_page_gives_the_cjk_face_the_ranges_the_font_was_cut_for():
    page = (ROOT / "tutor" / "serve" / "page.html").read_text(encoding="utf-8")
    for a, b in RANGES:
        assert f"U+{a:04X}-{b:04X}" in page
    assert "fonts/NotoSansMonoCJKsc-tutor.woff2" in page and (FONT.parent / "OFL.txt").is_file()
