"""The tutor's own Chinese texts (every message table, not only the course) follow the course's
Chinese rules (issue 52, item 10): no ASCII colon where a full-width one belongs, no space after
full-width punctuation, and the glossary's one word for each idea."""

from __future__ import annotations

import importlib
import pkgutil
import re

import tutor
from tutor.course.cjk import CJK
from tutor.course.markdown_lint import zh_plain_problems
from tutor.i18n import Messages

# Modules that import Textual or JAX are tables too; importing them here needs only Textual.
_SKIP = re.compile(r"^tutor\.(child|bench)\b|__main__")
# "题:" or "{where}: …" in a Chinese text; "{host}:{port}" is an address
_ASCII_COLON = re.compile(f"[{CJK}]:|\\}}:(?=[ {CJK}]|$)")
_SPACE_AFTER_FULL_WIDTH = re.compile("[，。：；？！、）] ")


def _tables() -> list[tuple[str, Messages]]:
    found = []
    for info in pkgutil.walk_packages(tutor.__path__, "tutor."):
        if _SKIP.search(info.name):
            continue
        module = importlib.import_module(info.name)
        found += [(f"{info.name}.{name}", value) for name, value in vars(module).items() if isinstance(value, Messages)]
    return list({id(table): (name, table) for name, table in reversed(found)}.values())  # each once, where defined


def _problems(zh: str) -> list[str]:
    problems = []
    if m := _ASCII_COLON.search(zh):
        problems.append(f"ASCII colon in Chinese text ({m.group()!r}): use ：")
    if m := _SPACE_AFTER_FULL_WIDTH.search(zh):
        problems.append(f"space after full-width punctuation ({m.group()!r})")
    sample = re.sub(r"\{[^{}]*\}", "X", zh)  # a field is an id, a path or a number: ASCII
    problems += [p for p in zh_plain_problems(sample) if "reads as" in p or "glossary" in p]
    return problems


def test_every_chinese_ui_text_follows_the_course_rules():
    tables = _tables()
    assert len(tables) >= 8, [name for name, _ in tables]
    bad = {
        f"{name}[{key!r}]": problems
        for name, table in tables
        for key in table
        if (problems := _problems(table[key].get("zh")))
    }
    assert not bad, bad
