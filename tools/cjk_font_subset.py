"""Make the CJK font `serve`'s page falls back to: Noto Sans Mono CJK SC, cut to the 3755 common
characters of GB 2312's first level, the CJK punctuation and full-width forms, and every other
character the shipped course and the tutor's own messages use (1.1 MB as WOFF2, against 16 MB whole;
the course's characters alone were 0.3 MB, but then a learner's own Chinese comment, or the next
lesson's new character, fell back to whatever the viewer has).

    python tools/cjk_font_subset.py [FONT]   # FONT: NotoSansMonoCJKsc-Regular.otf, or Debian's
                                             # NotoSansCJK-Regular.ttc (fonts-noto-cjk), the default

Needs fontTools and brotli (`pip install 'fonttools[woff]'`). Writes tutor/serve/fonts/
NotoSansMonoCJKsc-tutor.woff2; the font's licence (SIL OFL 1.1) is tutor/serve/fonts/OFL.txt.
tests/unit/test_serve_font.py fails when a text of the course or the tutor uses a character the
file lacks (rare: all but 3 of the course's 963 are in GB 2312's first level): run this again
then. Characters beyond it are drawn by the viewer's own fonts.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tutor" / "serve" / "fonts" / "NotoSansMonoCJKsc-tutor.woff2"
DEBIAN = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FAMILY = "Noto Sans Mono CJK SC"
# The code points the page gives to the CJK face (tutor/serve/page.html's unicode-range).
RANGES = [
    (0x2E80, 0x2FDF), (0x3000, 0x303F), (0x3040, 0x30FF), (0x3100, 0x312F), (0x31A0, 0x31BF),
    (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF),
]  # fmt: skip
SOURCES = ("lessons/**/*.yaml", "lessons/**/*.py", "solutions/*.py", "tutor/**/*.py", "tutor/**/*.html")


def is_cjk(ch: str) -> bool:
    return any(a <= ord(ch) <= b for a, b in RANGES)


def used_characters(root: Path = ROOT) -> set[str]:
    """Every CJK character in the course's texts and the tutor's messages."""
    found: set[str] = set()
    for pattern in SOURCES:
        for path in root.glob(pattern):
            found |= {ch for ch in path.read_text(encoding="utf-8", errors="ignore") if is_cjk(ch)}
    return found


def common_characters() -> set[str]:
    """GB 2312's first level (rows 16-55: the 3755 most used characters), and the CJK punctuation
    and full-width forms a learner types."""
    found = {chr(c) for c in range(0x3000, 0x3040)} | {chr(c) for c in range(0xFF00, 0xFFF0)}
    for row in range(0xB0, 0xD8):
        for cell in range(0xA1, 0xFF):
            try:
                found.add(bytes([row, cell]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return found


def _font(path: Path) -> TTFont:
    if path.suffix.lower() == ".ttc":
        return next(f for f in TTCollection(path).fonts if f["name"].getDebugName(1) == FAMILY)
    return TTFont(path)


def main() -> int:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEBIAN
    font = _font(source)
    wanted = used_characters() | common_characters()
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]  # the copyright and licence names stay in the file
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(ch) for ch in wanted))
    subsetter.subset(font)
    font.flavor = "woff2"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(OUT)
    print(f"{OUT.relative_to(ROOT)}: {len(wanted)} characters, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
