"""The code editor: a TextArea with Python highlighting when tree-sitter-python is installed."""

from __future__ import annotations

from importlib.util import find_spec

from textual.widgets import TextArea


def highlighting_available() -> bool:
    """Textual highlights Python through tree-sitter, an optional extra."""
    return find_spec("tree_sitter") is not None and find_spec("tree_sitter_python") is not None


def make_editor(text: str, **kwargs) -> TextArea:
    language = "python" if highlighting_available() else None
    try:
        return TextArea.code_editor(text, language=language, **kwargs)
    except Exception:  # noqa: BLE001 - a broken grammar install must not cost the learner the editor
        return TextArea.code_editor(text, language=None, **kwargs)
