"""Course Markdown that would not render as its author meant.

Texts are parsed with the parser the TUI renders them with (markdown-it-py's "gfm-like" preset,
as Textual's Markdown widget), and the token stream is searched for what a reader would see
wrongly: code indented instead of fenced, stray backticks and asterisks, a formula turned bold,
`<name>` swallowed as HTML, a fence left open or naming no language, a table that is not read as one. In Chinese
texts also spaces between Chinese characters, and ASCII punctuation where ，。：；？！（） belong
(code spans and fences are separate tokens, so code is never judged, except for full-width
punctuation typed inside a Chinese text's code span), and the glossary's one term for each idea.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

from tutor.course.cjk import CJK

_PARSER = MarkdownIt("gfm-like")
_CJK_SPACE_CJK = re.compile(f"[{CJK}] +[{CJK}]")
# ASCII , ; : ? ! touching a Chinese character, or a period ending a Chinese sentence.
_ASCII_PUNCT = re.compile(f"[{CJK}][,;:?!.]|[,;:?!][{CJK}]")
_ASCII_PARENS = re.compile(r"\(([^()]*)\)")
_ASCII_PAREN_AT_CJK = re.compile("[\u4e00-\u9fff][()]|[()][\u4e00-\u9fff]")  # ideographs, not punctuation
_HAS_CJK = re.compile(f"[{CJK}]")
_STUCK_STAR = re.compile(r"[A-Za-z0-9]\*|\*[A-Za-z0-9]")
_ASCII_QUOTE = re.compile(f'[{CJK}]"|"[{CJK}]')
_FULL_WIDTH_IN_CODE = re.compile("[，。：；（）]")
_CODE_SPAN = re.compile(r"`([^`]*)`")
# One term each in Chinese (lessons/README.md lists them): a variant found -> the course's term.
ZH_GLOSSARY = {
    "跟踪": "追踪",
    "重编译": "重新编译",
    "【旧】": "**旧**",
    "【新】": "**新**",
    "主体函数": "循环体",
    "初始代码": "起始代码",
    "统计表": "统计器",
}
# English terms that zh prose writes in Chinese, except once in （） right after the Chinese term.
ZH_FOR_ENGLISH = {"tracer": "追踪值", "primitive": "原语"}


def markdown_problems(source: str, lang: str = "en") -> list[tuple[int, str]]:
    """Each problem as (0-based line of `source`, message), in source order."""
    lines = source.splitlines()
    problems: list[tuple[int, str]] = []
    for tok in _PARSER.parse(source):
        start = tok.map[0] if tok.map else 0
        if tok.type == "code_block":
            problems.append(
                (
                    start,
                    "indented code block: renderers disagree on indented code (inside a "
                    "list item it can read as text, `*` turning bold); put code and "
                    "formulas in a fenced block (```)",
                )
            )
        elif tok.type == "fence":
            problems.extend(_fence_problems(tok, start, lines, lang))
        elif tok.type == "html_block":
            problems.append((start, "raw HTML block: the TUI does not show it; put it in a fenced block"))
        elif tok.type == "inline":
            problems.extend(_inline_problems(tok, start, lang))
    return problems


def _fence_problems(fence: Token, start: int, lines: list[str], lang: str) -> list[tuple[int, str]]:
    if not _closed(fence, lines):
        return [(start, f"code fence {fence.markup} is never closed: everything after it shows as code")]
    problems = []
    if not fence.info.strip():
        problems.append(
            (
                start,
                f"code fence {fence.markup} names no language: the TUI guesses one each time it draws "
                f"the text (tens of ms) and may colour a diagram as code; write {fence.markup}python, "
                f"or {fence.markup}text for a diagram or output",
            )
        )
    if lang == "zh":
        problems.extend(_zh_comment_problems(fence, start))
    return problems


def _closed(fence: Token, lines: list[str]) -> bool:
    end = fence.map[1] - 1 if fence.map else 0
    if not fence.map or end <= fence.map[0] or end >= len(lines):
        return False
    last = lines[end].strip()
    return last.startswith(fence.markup) and set(last) == {fence.markup[0]}


def _inline_problems(tok: Token, start: int, lang: str) -> list[tuple[int, str]]:
    problems: list[tuple[int, str]] = []
    children = tok.children or []
    line = start
    for i, child in enumerate(children):
        if child.type in ("softbreak", "hardbreak"):
            line += 1
            continue
        if child.type == "html_inline":
            problems.append(
                (line, f"{child.content} is read as HTML and disappears; write it in `code` or escape it as \\<")
            )
        elif child.type in ("em_open", "strong_open") and child.markup[:1] == "*":
            before = children[i - 1].content[-1:] if i and children[i - 1].type == "text" else ""
            if _word_char(before):
                problems.append(
                    (
                        line,
                        f"'{child.markup}' right after a letter or digit opens emphasis "
                        "(as in g**2): part of a formula shows in bold or italics; put it in `code`",
                    )
                )
        elif child.type == "text":
            problems.extend((line, m) for m in _text_problems(child.content, lang))
            if lang == "zh" and _between_code(children, i) and _ASCII_LIST_PUNCT.fullmatch(child.content):
                problems.append(
                    (line, f"ASCII {child.content.strip()!r} between code spans in Chinese prose: use ，；：")
                )
        elif child.type == "link_open" and not str(child.attrs.get("href", "")).startswith(("http://", "https://")):
            # `xs[0..k](all read so far)` is a link to "all read so far": the brackets vanish on screen
            problems.append(
                (line, "[...](...) is read as a Markdown link: the brackets and what is in () vanish; put it in `code`")
            )
        elif child.type == "code_inline" and lang == "zh" and (m := _FULL_WIDTH_IN_CODE.search(child.content)):
            problems.append((line, f"full-width {m.group()!r} inside code `{child.content}`: code keeps ASCII"))
    for offset, text in enumerate(tok.content.split("\n")):
        stripped = text.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            problems.append(
                (
                    start + offset,
                    "a table row that is not read as a table (a header, a "
                    "|---| line and equal column counts are needed): the "
                    "pipes show as text",
                )
            )
            break
    return problems


_ASCII_LIST_PUNCT = re.compile(r"\s*[,;:]\s*")
_COMMENT = re.compile(r"(?:^|\s)#\s?(.*)$")


def _between_code(children: list[Token], i: int) -> bool:
    return 0 < i < len(children) - 1 and children[i - 1].type == children[i + 1].type == "code_inline"


def _zh_comment_problems(fence: Token, start: int) -> list[tuple[int, str]]:
    """The comments of a code block in a Chinese text are Chinese prose: its punctuation rules hold."""
    found = []
    for offset, code_line in enumerate(fence.content.split("\n"), start=1):
        m = _COMMENT.search(code_line)
        if m and _HAS_CJK.search(m.group(1)) and (bad := _ASCII_PUNCT.search(m.group(1))):
            found.append(
                (start + offset, f"ASCII punctuation in a Chinese comment ({bad.group()!r}): use ，。：；？！")
            )
    return found


def _word_char(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _text_problems(text: str, lang: str) -> list[str]:
    found = []
    if "`" in text:
        found.append("unmatched backtick: a ` shows as text; close the code span")
    if _STUCK_STAR.search(text):
        found.append(
            "'*' touching a letter or digit (as in g**2) can pair with another and turn "
            "the text between them bold; put the formula in `code`"
        )
    if lang == "zh":
        found.extend(_zh_rules(text))
    return found


def zh_plain_problems(text: str) -> list[str]:
    """Problems of a Chinese plain text that is not Markdown (a check's message in checks.py):
    the same punctuation and glossary rules, with `code spans` set aside and checked for
    full-width punctuation typed inside them."""
    found = [
        f"full-width {m.group()!r} inside code `{span}`: code keeps ASCII"
        for span in _CODE_SPAN.findall(text)
        if (m := _FULL_WIDTH_IN_CODE.search(span))
    ]
    return found + _zh_rules(_CODE_SPAN.sub("`code`", text))


def _zh_rules(text: str) -> list[str]:
    """The Chinese-text rules: spacing, punctuation, quotes, parentheses, the glossary."""
    found = []
    if m := _CJK_SPACE_CJK.search(text):
        found.append(f"space between Chinese characters ({m.group()!r}) splits the words on screen")
    if "导师" in text:
        found.append("导师 reads as a human mentor: the program is 本教程, what runs the learner's code 检查程序")
    if m := _ASCII_PUNCT.search(text):
        found.append(f"ASCII punctuation in Chinese prose ({m.group()!r}): use ，。：；？！")
    if m := _ASCII_QUOTE.search(text):
        found.append(f"ASCII quote in Chinese prose ({m.group()!r}): use “”")
    for variant, term in ZH_GLOSSARY.items():
        if variant in text:
            found.append(f"{variant} is written {term} in this course (the glossary in lessons/README.md)")
    for english, term in ZH_FOR_ENGLISH.items():
        for m in re.finditer(f"{english}s?\\b", text):
            before = text[max(0, m.start() - 8) : m.start()]
            # a gloss: （tracer right after the Chinese term (in bold, the term is another token)
            glossed = before.endswith("（") and (term in before or before == "（")
            if not glossed:
                found.append(f"{english} is written {term} in Chinese prose (the glossary in lessons/README.md)")
                break
    for m in _ASCII_PARENS.finditer(text):
        if _HAS_CJK.search(m.group(1)):
            found.append(f"ASCII parentheses around Chinese text ({m.group()!r}): use （）")
            break
    else:
        if m := _ASCII_PAREN_AT_CJK.search(text):
            found.append(f"ASCII parenthesis against a Chinese character ({m.group()!r}): use （）")
    return found
