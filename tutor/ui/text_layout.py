"""The TUI lays out every text (Markdown, Static, Rich Text) with tutor.terminal.text_wrap's line breaking.

Textual wraps Content with a function it imports by name from Rich; Rich Text (rendered inside
Static widgets) looks up its own. Both names are pointed at tutor.terminal.text_wrap.divide_line, which
breaks a line with no Chinese in it exactly as Rich does. tests/ui/test_zh_wrapping.py fails if a
Textual or Rich upgrade stops looking these names up.
"""

from __future__ import annotations

from textual import content

from tutor.terminal.text_wrap import divide_line, use_in_rich


def use_cjk_line_breaking() -> None:
    """Idempotent; called when the app is built."""
    use_in_rich()
    content.divide_line = divide_line  # type: ignore[attr-defined]
