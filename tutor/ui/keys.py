"""Footer labels in the learner's language: bindings are relabelled when the language changes."""

from __future__ import annotations

from dataclasses import replace

from textual.binding import BindingsMap
from textual.dom import DOMNode

from tutor.i18n import pick
from tutor.ui.texts import KEY_LABELS


def translate_bindings(node: DOMNode, lang: str, overrides: dict[str, str] | None = None) -> None:
    """Relabel the node's bindings with KEY_LABELS[action] in `lang`; `overrides` wins per action."""
    overrides = overrides or {}

    def label(b):
        if b.action in overrides:
            return replace(b, description=overrides[b.action])
        if b.action in KEY_LABELS:
            return replace(b, description=pick(KEY_LABELS[b.action], lang))
        return b

    # Textual keeps a node's bindings in `_bindings`; a fresh map of relabelled copies is the
    # only way to change footer labels at run time (Textual is pinned in pyproject.toml).
    node._bindings = BindingsMap.from_keys(
        {key: [label(b) for b in bindings] for key, bindings in node._bindings.key_to_bindings.items()}
    )
