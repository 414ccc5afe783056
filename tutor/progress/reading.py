"""progress.json's bytes to a document, keeping whatever can be kept.

Every file the tutor wrote, or a learner's editor or sync tool saved, must come back with its
progress: a UTF-8 BOM is an editor's, a key written twice is a bad merge (both objects are kept,
merged), trailing NULs or a second document after the first are a crash or a sync tool's, and a
number too long for int() or nesting deeper than the parser's recursion lies in a field the
tutor does not know. Each repair is named in `problems`, so the store keeps the original aside
and tells the learner; only bytes that hold no JSON object at all read as nothing.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tutor.i18n import Bilingual

# Progress's own fields are at most 4 levels deep; anything below this is a stranger's, cut to null.
MAX_DEPTH = 64
# int() refuses longer decimal strings (Python's guard against quadratic conversion).
MAX_DIGITS = 4000
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def parse(raw: bytes) -> tuple[Any, list[Bilingual]]:
    """(document, repairs made); the document is {} when nothing could be read (then the
    first problem says why)."""
    problems: list[Bilingual] = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return {}, [Bilingual(en="not valid JSON (not UTF-8 text)", zh="不是有效的 JSON（不是 UTF-8 文本）")]
    text = text.removeprefix("\ufeff")  # an editor's byte order mark
    if not text.strip():
        return {}, [Bilingual(en="file is empty", zh="文件是空的")]
    for careful_numbers in (False, True):  # careful: numbers one by one, a too long one dropped
        problems.clear()
        try:
            return _decode(text, problems, careful_numbers), problems
        except ValueError:
            continue
        except RecursionError:
            break
    else:
        return {}, [Bilingual(en="not valid JSON", zh="不是有效的 JSON")]
    problems.clear()
    try:
        doc = _decode(_cut_deep(text), problems, careful_numbers=True)
    except (ValueError, RecursionError):
        return {}, [Bilingual(en="not valid JSON", zh="不是有效的 JSON")]
    cut = Bilingual(
        en=f"values nested deeper than {MAX_DEPTH} levels were dropped", zh=f"嵌套超过 {MAX_DEPTH} 层的值已去掉"
    )
    return doc, [cut, *problems]


def _decode(text: str, problems: list[Bilingual], careful_numbers: bool = False) -> Any:
    """One JSON document from the start of `text`; what follows it is noted and ignored."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in items:
            if key in obj:
                problems.append(
                    Bilingual(
                        en=f"key {key!r} appeared twice (merged)",
                        zh=f"键 {key!r} 出现了两次（已合并）",
                    )
                )
                value = _merge(obj[key], value)
            obj[key] = value
        return obj

    def number(digits: str) -> int | None:
        if len(digits.lstrip("-")) > MAX_DIGITS:
            problems.append(
                Bilingual(
                    en=f"a number of {len(digits)} digits was dropped",
                    zh=f"一个 {len(digits)} 位的数已去掉",
                )
            )
            return None
        return int(digits)

    decoder = json.JSONDecoder(object_pairs_hook=pairs, parse_int=number if careful_numbers else None)
    doc, end = decoder.raw_decode(text, len(text) - len(text.lstrip()))
    if text[end:].strip(" \t\r\n\x00"):
        problems.append(
            Bilingual(
                en="text after the JSON document was ignored",
                zh="JSON 文档之后的内容已忽略",
            )
        )
    elif "\x00" in text[end:]:
        problems.append(
            Bilingual(en="NUL bytes after the JSON document were dropped", zh="JSON 文档之后的 NUL 字节已去掉")
        )
    return doc


def _merge(first: Any, second: Any) -> Any:
    """Two values written under one key: objects are merged (the second wins where both hold a
    key), anything else is the second (as a JSON reader would take it)."""
    if isinstance(first, dict) and isinstance(second, dict):
        merged = dict(first)
        for key, value in second.items():
            merged[key] = _merge(merged[key], value) if key in merged else value
        return merged
    return second


def _cut_deep(text: str) -> str:
    """`text` with every array or object that opens below MAX_DEPTH replaced by null (strings
    are skipped whole, so a bracket inside one is not counted)."""
    out: list[str] = []
    depth, copied, cut_from = 0, 0, None
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            continue
        if token in "[{":
            depth += 1
            if depth == MAX_DEPTH + 1:
                cut_from = match.start()
        else:
            if depth == MAX_DEPTH + 1 and cut_from is not None:
                out += [text[copied:cut_from], "null"]
                copied, cut_from = match.end(), None
            depth -= 1
    if cut_from is not None:  # never closed: the rest is cut (the document stays unfinished)
        out += [text[copied:cut_from], "null"]
        copied = len(text)
    out.append(text[copied:])
    return "".join(out)
