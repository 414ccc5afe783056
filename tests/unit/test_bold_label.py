"""A bold label before feedback text renders bold in both languages, with no asterisks left over
(issue 52, item 6: "**你的选择 A：**…" kept its asterisks when a Chinese character followed)."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from tutor.ui.texts import bold_label, say

LABELS = [("quiz_your", {"letter": "A"}), ("quiz_answer", {"letter": "D"}), ("predict_why", {})]


def _inline(markdown: str):
    tokens = MarkdownIt("gfm-like").parseInline(markdown)[0].children or []  # what Textual's Markdown parses
    return [t for t in tokens if t.type != "text" or t.content]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("key", "fields"), LABELS)
@pytest.mark.parametrize("text", ["中文紧跟在后面。", "English follows.", "`jnp.ones` 开头", "(括号) first"])
def test_the_label_is_bold_and_no_asterisk_is_left(lang, key, fields, text):
    label = say(key, lang, **fields)
    tokens = _inline(bold_label(label, text))
    kinds = [t.type for t in tokens]
    assert kinds[0] == "strong_open" and "strong_close" in kinds, kinds
    shown = "".join(t.content for t in tokens if t.type in ("text", "code_inline"))
    assert "*" not in shown, shown
    assert label.rstrip(":：") in shown


def test_no_space_after_a_full_width_colon_and_one_after_an_ascii_colon():
    assert bold_label("为什么：", "因为") == "**为什么**：因为"
    assert bold_label("Why:", "because") == "**Why**: because"
    assert bold_label("Note", "x") == "**Note** x"
